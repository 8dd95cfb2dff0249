import { describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { buildModel } from '../spec/build';
import type { Condition } from '../spec/types';
import { evaluateCondition } from '../condition/evaluate';

const model = buildModel(helpdesk);
const now = new Date('2030-06-15T12:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const check = (condition: Condition, record: Record<string, unknown>) => evaluateCondition(model, condition, record, now);

describe('evaluateCondition', () => {
  it('compares fields with literals, lists and presence', () => {
    expect(check({ field: 'priority', op: 'eq', value: 'urgent' }, { priority: 'urgent' })).toBe(true);
    expect(check({ field: 'priority', op: 'eq', value: 'urgent' }, { priority: 'low' })).toBe(false);
    expect(check({ field: 'priority', op: 'ne', value: 'urgent' }, { priority: 'low' })).toBe(true);
    expect(check({ field: 'state', op: 'in', value: ['new', 'open'] }, { state: 'open' })).toBe(true);
    expect(check({ field: 'state', op: 'notIn', value: ['new', 'open'] }, { state: 'closed' })).toBe(true);
    expect(check({ field: 'state', op: 'notIn', value: ['new'] }, { state: null })).toBe(false);
    expect(check({ field: 'assignee', op: 'present' }, { assignee: 3 })).toBe(true);
    expect(check({ field: 'assignee', op: 'present' }, { assignee: null })).toBe(false);
    expect(check({ field: 'subject', op: 'absent' }, { subject: '  ' })).toBe(true);
  });

  it('treats comparisons with empty values as false, and eq null as absent', () => {
    expect(check({ field: 'dueAt', op: 'gt', value: { now: true } }, { dueAt: null })).toBe(false);
    expect(check({ field: 'dueAt', op: 'lt', value: { now: true } }, { dueAt: null })).toBe(false);
    expect(check({ field: 'assignee', op: 'eq', value: null }, { assignee: null })).toBe(true);
    expect(check({ field: 'assignee', op: 'ne', value: null }, { assignee: 4 })).toBe(true);
  });

  it('compares times with now, other fields and constants in days', () => {
    const resolvedAt = new Date(now.getTime() - 10 * DAY);
    const within = { field: 'resolvedAt', op: 'gte', value: { daysAgo: { $constant: 'reopenWindowDays' } } } as const;
    expect(check(within, { resolvedAt })).toBe(true);
    expect(check(within, { resolvedAt: new Date(now.getTime() - 15 * DAY) })).toBe(false);
    expect(
      check({ field: 'dueAt', op: 'gt', value: { field: 'createdAt' } }, { dueAt: new Date(now.getTime() + DAY), createdAt: now }),
    ).toBe(true);
    expect(check({ field: 'dueAt', op: 'gt', value: { field: 'createdAt' } }, { dueAt: '2030-06-14T00:00:00Z', createdAt: now })).toBe(
      false,
    );
  });

  it('combines with all, any and not', () => {
    const urgentUnassigned: Condition = {
      all: [{ field: 'priority', op: 'eq', value: 'urgent' }, { not: { field: 'assignee', op: 'present' } }],
    };
    expect(check(urgentUnassigned, { priority: 'urgent', assignee: null })).toBe(true);
    expect(check(urgentUnassigned, { priority: 'urgent', assignee: 2 })).toBe(false);
    expect(check({ any: [] }, {})).toBe(false);
    expect(check({ all: [] }, {})).toBe(true);
  });
});
