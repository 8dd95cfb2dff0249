import { beforeAll, expect, it } from 'vitest';
import { openTestEngine } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import { asNinefoldError } from '@/engine/errors/ninefold-error';
import { captureLog } from '@/engine/log';
import { createActor, testSpec } from '@testing/engine/ops';
import type { Actor } from '@/engine/ground/actor';
import { buildModel } from '@/engine/spec/build';
import type { AppSpec } from '@/engine/spec/types';
import { forEachDatabase } from '@testing/engine/store';
import { CONFIRM_INPUT, CONFIRM_VALUE } from '@/ui/confirm/confirm-input';
import { VERSION_INPUT } from '@/ui/forms/state';
import { COMMENT_INPUT, initialTransitionFormState, type TransitionFormState } from '@/ui/record/transition-state';
import type { Redirect } from './record-actions';
import { submitTransition } from './transition-actions';

/*
 * The detail page's transition door, as plain functions over a real engine and database: what a
 * browser posts (strings, the version it saw), what comes back (a redirect, or the small form
 * with the catalogue's reason and what was typed), and that a refusal changes nothing.
 */

// The helpdesk, with room for one open ticket per customer and a comment required to wait.
const workflow = testSpec.workflows!.ticket!;
const spec: AppSpec = {
  ...testSpec,
  workflows: {
    ...testSpec.workflows,
    ticket: { ...workflow, transitions: { ...workflow.transitions, wait: { ...workflow.transitions.wait!, comment: 'required' } } },
  },
  constants: { ...testSpec.constants, maxOpenTicketsPerCustomer: { ...testSpec.constants!.maxOpenTicketsPerCustomer, value: 1 } },
};
const model = buildModel(spec);

function posted(values: Readonly<Record<string, string>>, version?: number): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.append(name, value);
  if (version !== undefined) data.append(VERSION_INPUT, String(version));
  return data;
}

function refused(result: TransitionFormState | Redirect): TransitionFormState {
  if ('redirectTo' in result) expect.fail(`expected a refusal, got a redirect to ${result.redirectTo}`);
  return result;
}

forEachDatabase('transition actions', (database) => {
  let engine: TestEngine;
  let agent: Actor;
  let otherAgent: Actor;

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    agent = await createActor(engine.store.db, ['agent'], 'Agent Smith');
    otherAgent = await createActor(engine.store.db, ['agent'], 'Agent Jones');
  });

  const take = (
    actor: Actor,
    id: number,
    name: string,
    values: Record<string, string>,
    version?: number,
    state = initialTransitionFormState,
  ) => submitTransition(engine, actor, 'ticket', id, name, state, posted(values, version), 'UTC');
  const read = async (id: number) => (await engine.ops.get(agent, 'ticket', id)).record;

  async function newTicket(customer: Actor, subject = 'The printer is on fire') {
    return engine.ops.create(customer, 'ticket', { subject });
  }

  it('takes a transition with the input it requires, then redirects to the record; the history has it', async () => {
    const customer = await createActor(engine.store.db, ['customer']);
    const ticket = await newTicket(customer);
    const result = await take(agent, ticket.id, 'start', { assignee: String(otherAgent.userId) }, ticket.version);
    expect(result).toEqual({ redirectTo: `/tickets/${ticket.id}` });
    expect(await read(ticket.id)).toMatchObject({ state: 'open', assignee: otherAgent.userId, version: ticket.version + 1 });
    const { entries } = await engine.ops.history(agent, 'ticket', ticket.id);
    expect(entries[0]).toMatchObject({
      action: 'transition',
      actor: { id: agent.userId },
      transition: { name: 'start', from: 'new', to: 'open' },
      changes: { assignee: { from: null, to: otherAgent.userId } },
    });
    // The customer's history has the transition, not the assignee.
    const theirs = await engine.ops.history(customer, 'ticket', ticket.id);
    expect(theirs.entries[0]).toMatchObject({ action: 'transition', changes: {} });
  });

  it('hands the form back when a required field is left empty: the reason next to the input, nothing changed', async () => {
    const customer = await createActor(engine.store.db, ['customer']);
    const ticket = await newTicket(customer);
    const state = refused(await take(agent, ticket.id, 'start', { assignee: '' }, ticket.version));
    expect(state).toMatchObject({
      code: 'TRANSITION_NOT_ALLOWED',
      fieldErrors: { assignee: 'Needs an assignee.' },
      values: { assignee: '' },
      attempt: 1,
    });
    expect(state.message).toBeNull();
    expect(await read(ticket.id)).toMatchObject({ state: 'new', version: ticket.version });
  });

  it('asks for a required comment next to its box, keeping the typed values, and records the comment', async () => {
    const customer = await createActor(engine.store.db, ['customer']);
    const ticket = await newTicket(customer);
    await take(agent, ticket.id, 'start', { assignee: String(agent.userId) }, ticket.version);
    const state = refused(await take(agent, ticket.id, 'wait', { [COMMENT_INPUT]: '   ' }, ticket.version + 1));
    expect(state).toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: { [COMMENT_INPUT]: '"Wait for customer" needs a comment.' },
      values: { [COMMENT_INPUT]: '   ' },
    });
    expect(await take(agent, ticket.id, 'wait', { [COMMENT_INPUT]: 'Which printer?' }, ticket.version + 1, state)).toEqual({
      redirectTo: `/tickets/${ticket.id}`,
    });
    const { entries } = await engine.ops.history(customer, 'ticket', ticket.id);
    expect(entries[0]).toMatchObject({ transition: { name: 'wait', from: 'open', to: 'pending', comment: 'Which printer?' } });
  });

  it('names the rule and the field when a record rule fails on a field the form does not show', async () => {
    const customer = await createActor(engine.store.db, ['customer']);
    const ticket = await newTicket(customer);
    await take(agent, ticket.id, 'start', { assignee: String(agent.userId) }, ticket.version);
    // A due time stored before the rule held (older data, or a rule added to the spec since).
    await engine.store.db
      .updateTable('ticket')
      .set({ due_at: new Date(Date.parse(String(ticket.createdAt)) - 86_400_000) })
      .where('id', '=', ticket.id)
      .execute();
    const state = refused(await take(agent, ticket.id, 'resolve', {}, ticket.version + 1));
    expect(state).toMatchObject({ code: 'VALIDATION_FAILED', fieldErrors: {}, message: 'Due: The due time must be in the future.' });
    expect(await read(ticket.id)).toMatchObject({ state: 'open', version: ticket.version + 1 });
  });

  it('refuses a stale version as STALE_VERSION with a reload link, keeping what was typed', async () => {
    const customer = await createActor(engine.store.db, ['customer']);
    const ticket = await newTicket(customer);
    await engine.ops.update(agent, 'ticket', ticket.id, { priority: 'high' }, ticket.version);
    const state = refused(await take(agent, ticket.id, 'start', { assignee: String(agent.userId) }, ticket.version));
    expect(state).toMatchObject({ code: 'STALE_VERSION', reloadHref: `/tickets/${ticket.id}`, values: { assignee: String(agent.userId) } });
    expect(state.message).toMatch(/changed/);
    expect(await read(ticket.id)).toMatchObject({ state: 'new', assignee: null });
  });

  it("says why a transition is not the user's, without changing anything; a forged field is refused, not dropped", async () => {
    const customer = await createActor(engine.store.db, ['customer']);
    const ticket = await newTicket(customer);
    const forged = await captureLog(() => take(customer, ticket.id, 'start', { assignee: String(customer.userId) }, ticket.version));
    expect(refused(forged.result).code).toBe('FORBIDDEN_FIELD');
    const wrongRole = refused(await take(customer, ticket.id, 'start', {}, ticket.version));
    expect(wrongRole).toMatchObject({ code: 'TRANSITION_NOT_ALLOWED', message: expect.stringContaining('"Start"') });
    const wrongState = refused(await take(agent, ticket.id, 'resolve', {}, ticket.version));
    expect(wrongState).toMatchObject({ code: 'TRANSITION_NOT_ALLOWED', message: '"Resolve" cannot be taken while the ticket is New.' });
    const unknown = refused(await take(agent, ticket.id, 'teleport', {}, ticket.version));
    expect(unknown.code).toBe('TRANSITION_NOT_ALLOWED');
    const noVersion = refused(await take(agent, ticket.id, 'start', { assignee: String(agent.userId) }));
    expect(noVersion.code).toBe('PRECONDITION_REQUIRED');
    expect(await read(ticket.id)).toMatchObject({ state: 'new', assignee: null, version: ticket.version });
  });

  it('answers NOT_FOUND (the 404 page) for a record out of reach, an unknown entity or a malformed id', async () => {
    const owner = await createActor(engine.store.db, ['customer']);
    const outsider = await createActor(engine.store.db, ['customer']);
    const ticket = await newTicket(owner);
    const codeOf = async (run: () => Promise<unknown>) => {
      try {
        await run();
      } catch (error) {
        return asNinefoldError(error)?.code;
      }
      return 'resolved';
    };
    expect(await codeOf(() => take(outsider, ticket.id, 'reply', {}, ticket.version))).toBe('NOT_FOUND');
    expect(
      await codeOf(() => submitTransition(engine, agent, 'nothing', ticket.id, 'start', initialTransitionFormState, posted({}, 1), 'UTC')),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(() =>
        submitTransition(engine, agent, 'organization', ticket.id, 'start', initialTransitionFormState, posted({}, 1), 'UTC'),
      ),
    ).toBe('NOT_FOUND');
    expect(await codeOf(() => take(agent, -1, 'start', {}, 1))).toBe('NOT_FOUND');
  });

  it('takes a transition into a final state only with the confirmation: without it nothing changes and the form asks, keeping the comment', async () => {
    const customer = await createActor(engine.store.db, ['customer']);
    const ticket = await newTicket(customer);
    await take(agent, ticket.id, 'start', { assignee: String(agent.userId) }, ticket.version);
    await take(agent, ticket.id, 'resolve', {}, ticket.version + 1);
    const before = await engine.store.db.selectFrom('ticket').selectAll().where('id', '=', ticket.id).executeTakeFirstOrThrow();

    const asked = refused(
      await take(agent, ticket.id, 'close', { [COMMENT_INPUT]: 'Fixed for good.' }, ticket.version + 2, {
        ...initialTransitionFormState,
        attempt: 2,
      }),
    );
    expect(asked).toEqual({ values: { [COMMENT_INPUT]: 'Fixed for good.' }, fieldErrors: {}, message: null, confirm: true, attempt: 3 });
    // Any other answer than the confirmation's own asks again.
    expect(refused(await take(agent, ticket.id, 'close', { [CONFIRM_INPUT]: 'no' }, ticket.version + 2)).confirm).toBe(true);
    // The row as it was, and no history entry.
    expect(await engine.store.db.selectFrom('ticket').selectAll().where('id', '=', ticket.id).executeTakeFirstOrThrow()).toEqual(before);
    expect((await engine.ops.history(agent, 'ticket', ticket.id)).entries[0]).toMatchObject({ transition: { name: 'resolve' } });

    // Transitions that can be undone are not asked about.
    expect(refused(await take(agent, ticket.id, 'reopen', {}, ticket.version + 1)).code).toBe('STALE_VERSION');

    expect(await take(agent, ticket.id, 'close', { [CONFIRM_INPUT]: CONFIRM_VALUE }, ticket.version + 2)).toEqual({
      redirectTo: `/tickets/${ticket.id}`,
    });
    expect(await read(ticket.id)).toMatchObject({ state: 'closed', version: ticket.version + 3 });
  });

  it("refuses a reopen over the customer's limit of open tickets as LIMIT_EXCEEDED", async () => {
    const customer = await createActor(engine.store.db, ['customer']);
    const first = await newTicket(customer, 'First');
    await take(agent, first.id, 'start', { assignee: String(agent.userId) }, first.version);
    await take(agent, first.id, 'resolve', {}, first.version + 1);
    await newTicket(customer, 'Second'); // the one open ticket this customer may have
    const state = refused(await take(customer, first.id, 'reopen', {}, first.version + 2));
    expect(state).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: 'You have reached the limit of open tickets (1): add to one you already have, or wait until one is resolved.',
    });
    expect(await read(first.id)).toMatchObject({ state: 'resolved' });
    // Within the window and the limit, the requester may reopen.
    const other = await createActor(engine.store.db, ['customer']);
    const third = await newTicket(other, 'Third');
    await take(agent, third.id, 'start', { assignee: String(agent.userId) }, third.version);
    await take(agent, third.id, 'resolve', {}, third.version + 1);
    expect(await take(other, third.id, 'reopen', {}, third.version + 2)).toEqual({ redirectTo: `/tickets/${third.id}` });
  });
});
