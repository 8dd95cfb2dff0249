import { describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { NinefoldError } from '../errors/ninefold-error';
import type { Actor } from '../ops/types';
import { buildModel } from '../spec/build';
import { checkTransition, effectValues, findTransition, refuse, transitionOptions } from './transitions';

const model = buildModel(helpdesk);
const ticket = model.entitiesByName.ticket;
const now = new Date('2030-06-15T12:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const agent: Actor = { userId: 2, email: 'a@x.test', name: 'Agent', roles: ['agent'] };
const customer: Actor = { userId: 3, email: 'c@x.test', name: 'Customer', roles: ['customer'] };
const other: Actor = { userId: 4, email: 'o@x.test', name: 'Other', roles: ['customer'] };
const record = (fields: Record<string, unknown>) => ({ id: 1, requester: customer.userId, assignee: null, resolvedAt: null, ...fields });
const check = (name: string, fields: Record<string, unknown>, actor: Actor) => checkTransition(model, ticket, record(fields), actor, findTransition(ticket, name), now);

describe('checkTransition (helpdesk)', () => {
  it('refuses from the wrong state', () => {
    expect(check('close', { state: 'open' }, agent)).toMatchObject({ allowed: false, reason: 'wrong_state', code: 'TRANSITION_NOT_ALLOWED' });
  });

  it('refuses a role that is not allowed, and allows the owner where the spec says so', () => {
    expect(check('wait', { state: 'open' }, customer)).toMatchObject({ allowed: false, reason: 'not_allowed' });
    expect(check('reply', { state: 'pending' }, customer)).toMatchObject({ allowed: true });
    expect(check('reply', { state: 'pending' }, other)).toMatchObject({ allowed: false, reason: 'not_allowed', code: 'TRANSITION_NOT_ALLOWED' });
  });

  it('needs the required fields first', () => {
    expect(check('start', { state: 'new' }, agent)).toMatchObject({ allowed: false, reason: 'missing_fields', missing: ['assignee'], message: 'Needs an assignee.' });
    expect(check('start', { state: 'new', assignee: 2 }, agent)).toMatchObject({ allowed: true });
  });

  it('lets the requester reopen within the window only, with the spec\'s own error after it', () => {
    expect(check('reopen', { state: 'resolved', resolvedAt: new Date(now.getTime() - 3 * DAY) }, customer)).toMatchObject({ allowed: true });
    const late = check('reopen', { state: 'resolved', resolvedAt: new Date(now.getTime() - 20 * DAY) }, customer);
    expect(late).toMatchObject({ allowed: false, reason: 'not_allowed', code: 'REOPEN_WINDOW_PASSED' });
    expect(() => refuse(model, late)).toThrow(NinefoldError);
    try {
      refuse(model, late);
    } catch (error) {
      expect(error).toMatchObject({ code: 'REOPEN_WINDOW_PASSED', status: 409 });
    }
    expect(check('reopen', { state: 'resolved', resolvedAt: new Date(now.getTime() - 20 * DAY) }, agent)).toMatchObject({ allowed: true });
  });

  it('offers what leaves the state for this actor, blocked ones with why', () => {
    const options = transitionOptions(model, ticket, record({ state: 'new' }), agent, now);
    expect(options.map((o) => [o.transition.name, o.allowed])).toEqual([['start', false]]);
    const open = transitionOptions(model, ticket, record({ state: 'open', assignee: 2 }), agent, now);
    expect(open.map((o) => o.transition.name)).toEqual(['wait', 'resolve']);
    expect(transitionOptions(model, ticket, record({ state: 'open' }), customer, now)).toEqual([]);
  });

  it('computes effects: now, the actor, or a value', () => {
    expect(effectValues(findTransition(ticket, 'resolve'), agent, now)).toEqual({ resolvedAt: now });
    expect(effectValues(findTransition(ticket, 'reopen'), agent, now)).toEqual({ resolvedAt: null });
  });

  it('names an unknown transition as not allowed', () => {
    expect(() => findTransition(ticket, 'teleport')).toThrow(/no transition "teleport"/);
  });
});
