import { describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { buildModel } from '@/engine/spec/build';
import { constantLabel, dueNotes, dueText } from './sla';

const model = buildModel(helpdesk);
const ticket = model.entitiesByName.ticket!;
const created = new Date('2025-03-03T14:00:00Z');
const due = new Date('2025-03-04T14:00:00Z');

describe('the promise told beside a due time', () => {
  it("words the ticket's SLA due time by the constant, the priority that picked the hours and the constant's description", () => {
    const notes = dueNotes(model.constants, ticket, { id: 1, createdAt: created, priority: 'normal', state: 'open', slaDueAt: due });
    expect(Object.keys(notes)).toEqual(['slaDueAt']);
    expect(notes.slaDueAt).toEqual({
      field: 'slaDueAt',
      label: 'SLA',
      hours: 24,
      because: 'normal priority',
      constant: 'slaHours',
      description: 'Time to resolution promised for each priority.',
    });
    expect(dueText(notes.slaDueAt!)).toBe('SLA 24 h for normal priority');
  });

  it('says nothing when the viewer is not shown the due time or the field that picks its hours', () => {
    expect(dueNotes(model.constants, ticket, { id: 1, createdAt: created, priority: 'normal' })).toEqual({});
    expect(dueNotes(model.constants, ticket, { id: 1, createdAt: created, slaDueAt: due })).toEqual({});
    expect(dueNotes(model.constants, model.entitiesByName.organization!, { id: 1, name: 'Acme' })).toEqual({});
  });

  it('names the constant from its name', () => {
    expect(constantLabel('slaHours')).toBe('SLA');
    expect(constantLabel('firstReplyHours')).toBe('First reply');
    expect(constantLabel('response_hours')).toBe('Response');
  });
});
