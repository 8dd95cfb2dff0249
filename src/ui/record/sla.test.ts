import { describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { buildModel } from '@/engine/spec/build';
import { constantLabel, dueNotes, dueText, hoursByEnumValue, settledStates } from './sla';

const model = buildModel(helpdesk);
const ticket = model.entitiesByName.ticket;
const created = new Date('2025-03-03T14:00:00Z'); // a Monday

describe('constants shown next to a field', () => {
  it('finds slaHours as hours per priority of a ticket, and nothing for other entities', () => {
    expect(hoursByEnumValue(model.constants, ticket)).toEqual([
      expect.objectContaining({ constant: 'slaHours', field: 'priority', label: 'SLA', hours: { urgent: 4, high: 8, normal: 24, low: 72 } }),
    ]);
    expect(hoursByEnumValue(model.constants, model.entitiesByName.organization)).toEqual([]);
  });

  it('ignores constants in other units, scalars, and maps whose keys are not values of one enum field', () => {
    const constants = {
      a: { value: { urgent: 4 }, unit: 'days' },
      b: { value: 12, unit: 'hours' },
      c: { value: { urgent: 4, someday: 100 }, unit: 'hours' },
      d: { value: {}, unit: 'hours' },
    };
    expect(hoursByEnumValue(constants, ticket)).toEqual([]);
  });

  it('names the constant from its name', () => {
    expect(constantLabel('slaHours')).toBe('SLA');
    expect(constantLabel('firstReplyHours')).toBe('First reply');
    expect(constantLabel('response_hours')).toBe('Response');
  });

  it('counts from creation by the hours of the record value', () => {
    const notes = dueNotes(model.constants, ticket, { id: 1, createdAt: created, priority: 'normal', state: 'open' }, new Date('2025-03-04T10:00:00Z'));
    expect(notes.priority).toMatchObject({ hours: 24, due: new Date('2025-03-04T14:00:00Z'), overdue: false, settled: false });
    expect(dueText(notes.priority)).toBe('SLA 24 h · due Tue, Mar 4, 14:00 UTC');
  });

  it('is overdue once past while the work goes on, never once resolved or closed', () => {
    const late = new Date('2025-03-03T18:00:01Z');
    expect(dueNotes(model.constants, ticket, { id: 1, createdAt: created, priority: 'urgent', state: 'pending' }, late).priority).toMatchObject({ overdue: true, settled: false });
    expect(dueNotes(model.constants, ticket, { id: 1, createdAt: created, priority: 'urgent', state: 'resolved' }, late).priority).toMatchObject({ overdue: false, settled: true });
    expect(dueNotes(model.constants, ticket, { id: 1, createdAt: created, priority: 'urgent', state: 'closed' }, late).priority).toMatchObject({ overdue: false, settled: true });
    expect([...settledStates(ticket)].sort()).toEqual(['closed', 'resolved']);
  });

  it('says nothing when the value is hidden, empty or not in the map', () => {
    const now = new Date();
    expect(dueNotes(model.constants, ticket, { id: 1, createdAt: created, state: 'new' }, now)).toEqual({});
    expect(dueNotes(model.constants, ticket, { id: 1, createdAt: created, priority: null, state: 'new' }, now)).toEqual({});
    expect(dueNotes({ slaHours: { value: { urgent: 4 }, unit: 'hours' } }, ticket, { id: 1, createdAt: created, priority: 'low' }, now)).toEqual({});
  });
});
