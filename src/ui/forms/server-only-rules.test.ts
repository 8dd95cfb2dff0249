import { describe, expect, it } from 'vitest';
import { buildModel } from '@/engine/spec/build';
import { formChecks } from './validation';

/** Requests of teams: one rule the browser can check, one reading the user, one through a path. */
const model = buildModel({
  name: 'requests',
  users: { fields: { team: { type: 'reference', to: 'team' } } },
  entities: {
    team: { titleField: 'name', fields: { name: { type: 'text', required: true }, open: { type: 'boolean', default: true } } },
    request: {
      titleField: 'title',
      fields: { title: { type: 'text', required: true }, team: { type: 'reference', to: 'team' }, approver: { type: 'user' }, amount: { type: 'integer' } },
    },
  },
  rules: {
    request: {
      positive: { message: 'Must be positive.', field: 'amount', assert: { field: 'amount', op: 'gt', value: 0 } },
      notMine: { message: 'Someone else must approve it.', field: 'approver', assert: { field: 'approver', op: 'ne', value: { actor: 'id' } } },
      openTeam: { message: 'This team takes no new requests.', field: 'team', when: { field: 'amount', op: 'gt', value: 0 }, assert: { field: 'team.open', op: 'eq', value: true } },
    },
  },
});

describe('rules the browser leaves to the server', () => {
  it('keeps rules on the shown fields, and leaves those reading the user or a path to the server', () => {
    const request = model.entitiesByName.request;
    const checks = formChecks(model.constants, request, request.fields);
    expect(Object.keys(checks.rules)).toEqual(['positive']);
  });
});
