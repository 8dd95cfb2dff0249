import { describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { NinefoldError } from '../errors/ninefold-error';
import type { Actor } from '../ground/actor';
import { buildModel } from '../spec/build';
import { checkTransition, effectValues, findTransition, refuse } from './transitions';

const model = buildModel(helpdesk);
const ticket = model.entitiesByName.ticket!;
const now = new Date('2030-06-15T12:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const agent: Actor = { userId: 2, email: 'a@x.test', name: 'Agent', roles: ['agent'] };
const customer: Actor = { userId: 3, email: 'c@x.test', name: 'Customer', roles: ['customer'] };
const other: Actor = { userId: 4, email: 'o@x.test', name: 'Other', roles: ['customer'] };
const record = (fields: Record<string, unknown>) => ({ id: 1, requester: customer.userId, assignee: null, resolvedAt: null, ...fields });
/** `granted`: what the transition's scope (access/authorize.ts, in SQL) says of the actor on this record. */
const check = (name: string, fields: Record<string, unknown>, actor: Actor, granted = true) =>
  checkTransition(model, ticket, record(fields), actor, findTransition(ticket, name), now, granted);

describe('checkTransition (helpdesk)', () => {
  it('refuses from the wrong state', () => {
    expect(check('close', { state: 'open' }, agent)).toMatchObject({
      allowed: false,
      reason: 'wrong_state',
      code: 'TRANSITION_NOT_ALLOWED',
    });
  });

  it('refuses whom the scope does not grant, with TRANSITION_NOT_ALLOWED', () => {
    expect(check('wait', { state: 'open' }, customer, false)).toMatchObject({
      allowed: false,
      reason: 'not_allowed',
      code: 'TRANSITION_NOT_ALLOWED',
    });
    expect(check('reply', { state: 'pending' }, customer)).toMatchObject({ allowed: true });
    // Not granted, though the allow list names the role: the grants decide on which records.
    expect(check('resolve', { state: 'open' }, agent, false)).toMatchObject({
      allowed: false,
      reason: 'not_allowed',
      code: 'TRANSITION_NOT_ALLOWED',
    });
    expect(check('reply', { state: 'pending' }, other, false)).toMatchObject({
      allowed: false,
      reason: 'not_allowed',
      code: 'TRANSITION_NOT_ALLOWED',
    });
  });

  it('needs the required fields first', () => {
    expect(check('start', { state: 'new' }, agent)).toMatchObject({
      allowed: false,
      reason: 'missing_fields',
      missing: ['assignee'],
      message: 'Needs an assignee.',
    });
    expect(check('start', { state: 'new', assignee: 2 }, agent)).toMatchObject({ allowed: true });
  });

  it("answers an owner refused after the window of their allow entry with the spec's own error", () => {
    const late = check('reopen', { state: 'resolved', resolvedAt: new Date(now.getTime() - 20 * DAY) }, customer, false);
    expect(late).toMatchObject({ allowed: false, reason: 'not_allowed', code: 'REOPEN_WINDOW_PASSED' });
    expect(() => refuse(model, late)).toThrow(NinefoldError);
    try {
      refuse(model, late);
    } catch (error) {
      expect(error).toMatchObject({ code: 'REOPEN_WINDOW_PASSED', status: 409 });
    }
    // Within the window, or not the owner: the plain refusal.
    expect(check('reopen', { state: 'resolved', resolvedAt: new Date(now.getTime() - 3 * DAY) }, customer, false)).toMatchObject({
      code: 'TRANSITION_NOT_ALLOWED',
    });
    expect(check('reopen', { state: 'resolved', resolvedAt: new Date(now.getTime() - 20 * DAY) }, other, false)).toMatchObject({
      code: 'TRANSITION_NOT_ALLOWED',
    });
    // The wrong state comes first.
    expect(check('reopen', { state: 'open', resolvedAt: new Date(now.getTime() - 20 * DAY) }, customer, false)).toMatchObject({
      reason: 'wrong_state',
    });
  });

  it('computes effects: now, the actor, or a value', () => {
    expect(effectValues(findTransition(ticket, 'resolve'), agent, now)).toEqual({ resolvedAt: now });
    expect(effectValues(findTransition(ticket, 'reopen'), agent, now)).toEqual({ resolvedAt: null });
  });

  it('names an unknown transition as not allowed', () => {
    expect(() => findTransition(ticket, 'teleport')).toThrow(/no transition "teleport"/);
  });
});
