import { describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { buildModel } from '../spec/build';
import { checkEntityRules } from './entity-rules';

const model = buildModel(helpdesk);
const ticket = model.entitiesByName.ticket!;
const now = new Date('2030-06-15T12:00:00Z');

describe('checkEntityRules (helpdesk tickets)', () => {
  it('needs an assignee for an urgent ticket, with the spec message next to the field', () => {
    expect(checkEntityRules(model, ticket, { priority: 'urgent', assignee: null, createdAt: now }, now)).toEqual([
      { field: 'assignee', code: 'urgentNeedsAssignee', message: 'An urgent ticket needs an assignee.' },
    ]);
    expect(checkEntityRules(model, ticket, { priority: 'urgent', assignee: 4, createdAt: now }, now)).toEqual([]);
    expect(checkEntityRules(model, ticket, { priority: 'low', assignee: null, createdAt: now }, now)).toEqual([]);
  });

  it('wants the due time after the creation', () => {
    const past = new Date(now.getTime() - 60_000);
    expect(checkEntityRules(model, ticket, { priority: 'low', dueAt: past, createdAt: now }, now).map((e) => e.code)).toEqual([
      'dueAfterCreation',
    ]);
    expect(checkEntityRules(model, ticket, { priority: 'low', dueAt: new Date(now.getTime() + 60_000), createdAt: now }, now)).toEqual([]);
    expect(checkEntityRules(model, ticket, { priority: 'low', dueAt: null, createdAt: now }, now)).toEqual([]);
  });
});
