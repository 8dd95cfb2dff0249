import { describe, expect, it } from 'vitest';
import { buildModel } from '@/engine/spec/build';
import { formChecks, ruleVerdicts } from './validation';

/** Requests of teams: one rule the browser can check, one reading the user, one through a path. */
const model = buildModel({
  name: 'requests',
  users: { fields: { team: { type: 'reference', to: 'team' } } },
  entities: {
    team: { titleField: 'name', fields: { name: { type: 'text', required: true }, open: { type: 'boolean', default: true } } },
    request: {
      titleField: 'title',
      fields: {
        title: { type: 'text', required: true },
        team: { type: 'reference', to: 'team' },
        approver: { type: 'user' },
        amount: { type: 'integer' },
      },
    },
  },
  rules: {
    request: {
      positive: { message: 'Must be positive.', field: 'amount', assert: { field: 'amount', op: 'gt', value: 0 } },
      notMine: {
        message: 'Someone else must approve it.',
        field: 'approver',
        assert: { field: 'approver', op: 'ne', value: { actor: 'id' } },
      },
      openTeam: {
        message: 'This team takes no new requests.',
        field: 'team',
        when: { field: 'amount', op: 'gt', value: 0 },
        assert: { field: 'team.open', op: 'eq', value: true },
      },
    },
  },
});

describe('rules the browser leaves to the server', () => {
  it('keeps rules on the shown fields, and leaves those reading the user or a path to the server', () => {
    const request = model.entitiesByName.request!;
    const checks = formChecks(model, request, request.fields);
    expect(Object.keys(checks.rules)).toEqual(['positive']);
  });
});

/** Repairs due 24 hours after they are logged, never after the latest time the customer accepts. */
const repairs = buildModel({
  name: 'repairs',
  entities: {
    repair: {
      titleField: 'item',
      fields: {
        item: { type: 'text', required: true },
        latestDue: { type: 'datetime', required: true },
        dueDate: { type: 'datetime', due: { from: 'createdAt', hours: 24 } },
      },
    },
  },
  rules: {
    repair: {
      dueByLatest: { message: 'Too late.', field: 'latestDue', assert: { field: 'dueDate', op: 'lte', value: { field: 'latestDue' } } },
    },
  },
});

describe('rules reading a computed due time', () => {
  const repair = repairs.entitiesByName.repair!;

  it('are left to the server, which computes the time before it checks them, even where the form shows the field', () => {
    for (const fields of [repair.fields.filter((f) => f.due === undefined), repair.fields]) {
      const checks = formChecks(repairs, repair, fields);
      expect(Object.keys(checks.rules)).toEqual([]);
      // The new form's inputs: no due time given, so the browser must not call the rule broken.
      expect(
        ruleVerdicts(
          checks,
          { item: 'Kettle', latestDue: '2030-06-20T10:00', dueDate: '' },
          new Set(['latestDue', 'dueDate']),
          new Date('2030-06-15T12:00:00Z'),
        ),
      ).toEqual({});
    }
  });
});
