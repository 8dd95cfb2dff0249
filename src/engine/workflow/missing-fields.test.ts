import { describe, expect, it } from 'vitest';
import type { Actor } from '../ground/actor';
import { buildModel } from '../spec/build';
import { checkTransition, findTransition } from './transitions';

/** Orders signed off once their notes, PO number, attachments and an hour estimate are in. */
const model = buildModel({
  name: 'orders',
  entities: {
    order: {
      titleField: 'title',
      fields: {
        title: { type: 'text', required: true },
        clinicalNotes: { type: 'text', label: 'Clinical notes' },
        poNumber: { type: 'text', label: 'PO number' },
        hourEstimate: { type: 'integer', label: 'Hour estimate' },
        slaTarget: { type: 'text', label: 'SLA target' },
      },
    },
  },
  workflows: {
    order: {
      states: { draft: { initial: true }, signed: {} },
      transitions: {
        sign: { from: 'draft', to: 'signed', allow: ['clerk'], requires: ['clinicalNotes', 'poNumber'] },
        plan: { from: 'draft', to: 'signed', allow: ['clerk'], requires: ['hourEstimate', 'slaTarget', 'poNumber'] },
      },
    },
  },
  roles: { clerk: {} },
});
const order = model.entitiesByName.order!;
const clerk: Actor = { userId: 1, email: 'c@x.test', name: 'Clerk', roles: ['clerk'] };
const reason = (name: string) =>
  checkTransition(model, order, { id: 1, state: 'draft' }, clerk, findTransition(order, name), new Date(), true).message;

describe('what a transition still needs, from the fields’ labels', () => {
  it('reads as English: no article before a plural, initialisms kept, "an" before a vowel sound', () => {
    expect(reason('sign')).toBe('Needs clinical notes and a PO number.');
    expect(reason('plan')).toBe('Needs an hour estimate, an SLA target and a PO number.');
  });
});
