import { describe, expect, it } from 'vitest';
import crm from '../../../examples/crm/ninefold.spec';
import type { Actor } from '../ground/actor';
import { buildModel } from '../spec/build';
import { approvals } from './guards.fixture';
import { guardCodes, guardsCondition } from './guards';
import { checkTransition, findTransition, transitionConditions } from './transitions';

const model = buildModel(approvals);
const expense = model.entitiesByName.expense!;
const approve = findTransition(expense, 'approve');
const now = new Date('2030-06-15T12:00:00Z');
const manager: Actor = { userId: 7, email: 'm@x.test', name: 'Manager', roles: ['manager'] };
const record = (fields: Record<string, unknown>) => ({ id: 1, state: 'submitted', author: 9, amount: 100, ...fields });
const check = (fields: Record<string, unknown>) => checkTransition(model, expense, record(fields), manager, approve, now, true);

describe('a transition with several guards', () => {
  it('answers with the first guard that fails, in the order of the spec, with its own code and message', () => {
    // Own and over the limit: "not your own" comes first.
    expect(check({ author: manager.userId, amount: 9000 })).toMatchObject({
      allowed: false,
      reason: 'guard_failed',
      code: 'OWN_REQUEST',
      message: 'You cannot approve your own request.',
    });
    expect(check({ author: manager.userId, amount: 100 })).toMatchObject({
      code: 'OWN_REQUEST',
      message: 'You cannot approve your own request.',
    });
    // Someone else's, over the limit: the second guard, worded by its code's catalogue message.
    expect(check({ amount: 9000 })).toMatchObject({
      allowed: false,
      reason: 'guard_failed',
      code: 'OVER_APPROVAL_LIMIT',
      message: 'Amounts over the approval limit need a director.',
    });
    expect(check({ amount: 5000 })).toMatchObject({ allowed: true });
  });

  it('defaults a guard without code to TRANSITION_NOT_ALLOWED', () => {
    const pay = findTransition(expense, 'pay');
    expect(pay.guards).toEqual([{ when: { field: 'amount', op: 'gt', value: 0 }, code: 'TRANSITION_NOT_ALLOWED' }]);
    expect(checkTransition(model, expense, record({ state: 'approved', amount: 0 }), manager, pay, now, true)).toMatchObject({
      code: 'TRANSITION_NOT_ALLOWED',
      message: 'Its conditions are not met.',
    });
  });

  it('gives every guard to whoever reads them: their codes, their conditions (paths loaded first), all of them at once', () => {
    expect(guardCodes(approve)).toEqual(['OWN_REQUEST', 'OVER_APPROVAL_LIMIT']);
    expect(transitionConditions([approve])).toEqual(approve.guards.map((g) => g.when));
    expect(guardsCondition(approve)).toEqual({ all: approve.guards.map((g) => g.when) });
  });

  it('keeps the single form: one condition worded by guardMessage and guardError', () => {
    const deals = buildModel(crm);
    const propose = findTransition(deals.entitiesByName.deal!, 'propose');
    expect(propose.guards).toEqual([{ when: { field: 'value', op: 'gt', value: 0 }, code: 'DEAL_NEEDS_VALUE' }]);
    expect(guardsCondition(propose)).toEqual({ field: 'value', op: 'gt', value: 0 });
  });
});
