/**
 * The workflow through the REST door: a helpdesk ticket's whole life by HTTP, every kind of
 * refusal with its status and code, bulk transitions with mixed results, the history (and what a
 * customer may not see in it), and a limit that names its constant. Every answer is checked
 * against the OpenAPI document by the client.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/ninefold.spec';
import type { TestEngine } from '@testing/engine/engine';
import type { UserAccount } from '@/engine/identity/types';
import { buildModel } from '@/engine/spec/build';
import { defineApp } from '@/engine/spec/define';
import { forEachDatabase } from '@testing/engine/store';
import { apiClient, expectProblem, openTestEngine, snapshot, type ApiAnswer, type ApiClient } from '@testing/api/api';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

const MAX_OPEN = 3;
const model = buildModel(
  defineApp({
    ...helpdesk,
    workflows: {
      ticket: {
        ...helpdesk.workflows!.ticket,
        transitions: {
          ...helpdesk.workflows!.ticket.transitions,
          // A guard and a required comment, which the helpdesk's own transitions do not have.
          hold: {
            label: 'Put on hold',
            from: 'open',
            to: 'pending',
            allow: ['agent', 'admin'],
            guard: { field: 'priority', op: 'in', value: ['low', 'normal'] },
            guardMessage: 'Only a low or normal ticket can be put on hold.',
            comment: 'required',
          },
        },
      },
    },
    constants: {
      ...helpdesk.constants,
      maxOpenTicketsPerCustomer: { ...helpdesk.constants!.maxOpenTicketsPerCustomer, value: MAX_OPEN },
      apiRateLimitPerMinute: { value: 100_000 },
      apiRateLimitPerIpPerMinute: { value: 100_000 },
    },
  }),
);
const PASSWORD = 'correct horse battery';
const TABLES = ['ticket', 'comment', 'organization', 'nf_audit'];

forEachDatabase('API: transitions, bulk transitions and history', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  let agent: UserAccount;
  let agentToken: string;
  let adminToken: string;
  /** The customer staff file tickets for (a ticket's requester is one); never filing their own, so no limit of theirs is in play. */
  let caller: UserAccount;
  let users = 0;

  /** A new user with a token; customers get their own, so each test counts its own open tickets. */
  const newUser = async (roles: string[], name: string): Promise<{ user: UserAccount; token: string; session: string }> => {
    users += 1;
    const user = await engine.identity.createUser(SYSTEM_ACTOR, { email: `user${users}@example.com`, password: PASSWORD, roles, name });
    const token = (await engine.identity.createApiToken(user.id, { name: 'tests' })).token;
    const session = (await engine.identity.createSession(user.id)).token;
    return { user, token, session };
  };

  /** A new ticket: a customer's own, or one staff file for the caller. */
  const open = async (token: string, body: Record<string, unknown> = {}): Promise<ApiAnswer> => {
    const requester = token === agentToken || token === adminToken ? { requester: caller.id } : {};
    const created = await api.call('POST', '/tickets', {
      token,
      body: { subject: `Ticket ${Math.random().toString(36).slice(2, 8)}`, ...requester, ...body },
    });
    expect(created.status, created.text).toBe(201);
    return created;
  };

  const take = (token: string, id: number, name: string, body?: Record<string, unknown>, headers?: Record<string, string>) =>
    api.call('POST', `/tickets/${id}/transitions/${name}`, {
      token,
      ...(body !== undefined ? { body } : {}),
      ...(headers ? { headers } : {}),
    });

  /** Answers `take` and checks that nothing stored changed meanwhile. */
  const refused = async (send: () => Promise<ApiAnswer>, status: number, code: string): Promise<ApiAnswer> => {
    const before = await snapshot(engine.store.db, TABLES);
    const answer = await send();
    expectProblem(answer, status, code);
    expect(await snapshot(engine.store.db, TABLES)).toEqual(before);
    return answer;
  };

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    ({ user: agent, token: agentToken } = await newUser(['agent'], 'Alan Agent'));
    ({ token: adminToken } = await newUser(['admin'], 'Ada Admin'));
    ({ user: caller } = await newUser(['customer'], 'Cleo Caller'));
  });

  it('takes a ticket through its whole life: start, wait, reply, resolve, reopen within the window, resolve, close', async () => {
    const { user: alice, token: aliceToken } = await newUser(['customer'], 'Alice Customer');
    const created = await open(aliceToken, { subject: 'Printer on fire' });
    const id: number = created.body.id;
    expect(created.body).toMatchObject({ state: 'new', version: 1, requester: alice.id });

    // Start needs an assignee: given with the transition, the version as If-Match.
    const started = await take(agentToken, id, 'start', { input: { assignee: agent.id }, comment: 'On it' }, { 'if-match': '"1"' });
    expect(started.status, started.text).toBe(200);
    expect(started.headers.get('etag')).toBe('"2"');
    expect(started.body).toMatchObject({ id, state: 'open', version: 2, assignee: agent.id, updatedBy: agent.id });
    expect(Object.keys(started.body)).toEqual(Object.keys((await api.call('GET', `/tickets/${id}`, { token: agentToken })).body));

    const waiting = await take(agentToken, id, 'wait', { version: 2 });
    expect(waiting.body).toMatchObject({ state: 'pending', version: 3 });

    // The requester replies; the customer's record has no assignee or organization.
    const replied = await take(aliceToken, id, 'reply', { version: 3, comment: 'Here are the logs.' });
    expect(replied.status, replied.text).toBe(200);
    expect(replied.body).toMatchObject({ state: 'open', version: 4 });
    expect(replied.body).not.toHaveProperty('assignee');
    expect(replied.body).not.toHaveProperty('organization');

    const resolved = await take(agentToken, id, 'resolve', { version: 4 });
    expect(resolved.body).toMatchObject({ state: 'resolved', version: 5 });
    expect(resolved.body.resolvedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.now() - Date.parse(resolved.body.resolvedAt)).toBeLessThan(60_000);

    const reopened = await take(aliceToken, id, 'reopen', { version: 5 });
    expect(reopened.status, reopened.text).toBe(200);
    expect(reopened.body).toMatchObject({ state: 'open', version: 6, resolvedAt: null });

    await take(agentToken, id, 'resolve', { version: 6 });
    const closed = await take(agentToken, id, 'close', { version: 7 });
    expect(closed.body).toMatchObject({ state: 'closed', version: 8 });

    // A closed ticket goes nowhere: the detail names the state.
    const again = await refused(() => take(agentToken, id, 'reopen', { version: 8 }), 409, 'TRANSITION_NOT_ALLOWED');
    expect(again.body.detail).toBe('"Reopen" cannot be taken while the ticket is Closed.');
  });

  describe('refusals', () => {
    let aliceToken: string;
    let bobToken: string;
    let aliceSession: string;
    let id: number;

    beforeAll(async () => {
      ({ token: aliceToken, session: aliceSession } = await newUser(['customer'], 'Alice Again'));
      ({ token: bobToken } = await newUser(['customer'], 'Bob Customer'));
      id = (await open(aliceToken, { subject: 'Refusals' })).body.id;
    });

    it('says "not your role" with 409 TRANSITION_NOT_ALLOWED', async () => {
      const answer = await refused(() => take(aliceToken, id, 'start', { version: 1 }), 409, 'TRANSITION_NOT_ALLOWED');
      expect(answer.body.detail).toBe('You are not allowed to take "Start" on this ticket.');
    });

    it('says "wrong state" with 409 TRANSITION_NOT_ALLOWED', async () => {
      const answer = await refused(() => take(agentToken, id, 'resolve', { version: 1 }), 409, 'TRANSITION_NOT_ALLOWED');
      expect(answer.body.detail).toBe('"Resolve" cannot be taken while the ticket is New.');
    });

    it('says which field is missing with 409 TRANSITION_NOT_ALLOWED, pointing at it', async () => {
      const answer = await refused(() => take(agentToken, id, 'start', { version: 1 }), 409, 'TRANSITION_NOT_ALLOWED');
      expect(answer.body.detail).toBe('Needs an assignee.');
      expect(answer.body.errors).toEqual([{ pointer: '/assignee', code: 'required', detail: 'Needs an assignee.' }]);
    });

    it('says "guard failed" with 409 TRANSITION_NOT_ALLOWED and the guard\'s message', async () => {
      const urgent = await open(agentToken, { subject: 'Urgent one', priority: 'urgent', assignee: agent.id });
      const started = await take(agentToken, urgent.body.id, 'start', { version: 1 });
      expect(started.status, started.text).toBe(200);
      const answer = await refused(
        () => take(agentToken, urgent.body.id, 'hold', { version: 2, comment: 'Waiting for parts' }),
        409,
        'TRANSITION_NOT_ALLOWED',
      );
      expect(answer.body.detail).toBe('Only a low or normal ticket can be put on hold.');
    });

    it('refuses a missing required comment, or one that is not text, with 422 VALIDATION_FAILED', async () => {
      const ticket = await open(agentToken, { assignee: agent.id });
      await take(agentToken, ticket.body.id, 'start', { version: 1 });
      const missing = await refused(() => take(agentToken, ticket.body.id, 'hold', { version: 2 }), 422, 'VALIDATION_FAILED');
      expect(missing.body.errors).toEqual([expect.objectContaining({ pointer: '/comment', code: 'required' })]);
      const notText = await refused(() => take(agentToken, ticket.body.id, 'hold', { version: 2, comment: 42 }), 422, 'VALIDATION_FAILED');
      expect(notText.body.errors).toEqual([expect.objectContaining({ pointer: '/comment' })]);
      const held = await take(agentToken, ticket.body.id, 'hold', { version: 2, comment: 'Parts ordered' });
      expect(held.body).toMatchObject({ state: 'pending', version: 3 });
    });

    it('answers the spec code REOPEN_WINDOW_PASSED (409) to the requester after the window; an agent may still reopen', async () => {
      const ticket = await open(aliceToken, { subject: 'Long resolved' });
      await take(agentToken, ticket.body.id, 'start', { version: 1, input: { assignee: agent.id } });
      await take(agentToken, ticket.body.id, 'resolve', { version: 2 });
      const longAgo = new Date(Date.now() - 30 * 24 * 3600 * 1000);
      await engine.store.db
        .updateTable('ticket')
        .set({ [model.entitiesByName.ticket!.fieldsByName.resolvedAt!.column]: longAgo })
        .where('id', '=', ticket.body.id)
        .execute();
      const answer = await refused(() => take(aliceToken, ticket.body.id, 'reopen', { version: 3 }), 409, 'REOPEN_WINDOW_PASSED');
      expect(answer.body.title).toBe('Reopen window passed');
      const byAgent = await take(agentToken, ticket.body.id, 'reopen', { version: 3 });
      expect(byAgent.body).toMatchObject({ state: 'open', resolvedAt: null });
    });

    it('answers 409 STALE_VERSION to an old version, by body or by If-Match', async () => {
      const ticket = await open(agentToken, { assignee: agent.id });
      await api.call('PATCH', `/tickets/${ticket.body.id}`, { token: agentToken, body: { version: 1, subject: 'Edited meanwhile' } });
      await refused(() => take(agentToken, ticket.body.id, 'start', { version: 1 }), 409, 'STALE_VERSION');
      await refused(() => take(agentToken, ticket.body.id, 'start', undefined, { 'if-match': '"1"' }), 409, 'STALE_VERSION');
      expect((await take(agentToken, ticket.body.id, 'start', undefined, { 'if-match': '"2"' })).status).toBe(200);
    });

    it('answers 428 PRECONDITION_REQUIRED without a version, and 422 for a bad or contradicting one', async () => {
      await refused(() => take(agentToken, id, 'start', { input: { assignee: agent.id } }), 428, 'PRECONDITION_REQUIRED');
      await refused(() => take(agentToken, id, 'start'), 428, 'PRECONDITION_REQUIRED');
      const bad = await refused(() => take(agentToken, id, 'start', { version: 'one' }), 422, 'VALIDATION_FAILED');
      expect(bad.body.errors[0]).toMatchObject({ pointer: '/version', code: 'invalid_version' });
      const both = await refused(() => take(agentToken, id, 'start', { version: 2 }, { 'if-match': '"1"' }), 422, 'VALIDATION_FAILED');
      expect(both.body.errors[0]).toMatchObject({ pointer: '/version', code: 'version_mismatch' });
    });

    it("answers 404 NOT_FOUND for a ticket out of the caller's sight or absent, an unknown transition, or an entity without a workflow", async () => {
      await refused(() => take(bobToken, id, 'reply', { version: 1 }), 404, 'NOT_FOUND');
      await refused(() => take(agentToken, 987654, 'start', { version: 1 }), 404, 'NOT_FOUND');
      await refused(() => take(agentToken, id, 'teleport', { version: 1 }), 404, 'NOT_FOUND');
      await refused(
        () => api.call('POST', '/organizations/1/transitions/start', { token: adminToken, body: { version: 1 } }),
        404,
        'NOT_FOUND',
      );
      const badId = await refused(() => take(agentToken, 0, 'start', { version: 1 }), 422, 'VALIDATION_FAILED');
      expect(badId.body.errors[0]).toMatchObject({ pointer: '/id' });
    });

    it('refuses input the caller may not write with 403 FORBIDDEN_FIELD, and invalid input with 422 VALIDATION_FAILED', async () => {
      const ticket = await open(agentToken);
      const hidden = await refused(
        () => take(aliceToken, id, 'start', { version: 1, input: { assignee: agent.id } }),
        403,
        'FORBIDDEN_FIELD',
      );
      expect(hidden.body.errors[0]).toMatchObject({ pointer: '/assignee' });
      const readOnly = await refused(
        () => take(agentToken, ticket.body.id, 'start', { version: 1, input: { assignee: agent.id, resolvedAt: '2030-01-01T00:00:00Z' } }),
        403,
        'FORBIDDEN_FIELD',
      );
      expect(readOnly.body.errors[0]).toMatchObject({ pointer: '/resolvedAt' });
      await refused(() => take(agentToken, ticket.body.id, 'start', { version: 1, input: { state: 'closed' } }), 403, 'FORBIDDEN_FIELD');
      const invalid = await refused(
        () => take(agentToken, ticket.body.id, 'start', { version: 1, input: { assignee: 'Alan' } }),
        422,
        'VALIDATION_FAILED',
      );
      expect(invalid.body.errors[0]).toMatchObject({ pointer: '/assignee' });
      await refused(() => take(agentToken, ticket.body.id, 'start', { version: 1, input: { assignee: 987654 } }), 422, 'VALIDATION_FAILED');
      await refused(() => take(agentToken, ticket.body.id, 'start', { version: 1, input: [agent.id] }), 422, 'VALIDATION_FAILED');
      const unknown = await refused(
        () => take(agentToken, ticket.body.id, 'start', { version: 1, assignee: agent.id }),
        422,
        'VALIDATION_FAILED',
      );
      expect(unknown.body.errors[0]).toMatchObject({ pointer: '/assignee', code: 'unknown_field' });
    });

    it('never lets a PATCH set the state: 403 FORBIDDEN_FIELD', async () => {
      const answer = await refused(
        () => api.call('PATCH', `/tickets/${id}`, { token: adminToken, body: { version: 1, state: 'closed' } }),
        403,
        'FORBIDDEN_FIELD',
      );
      expect(answer.body.errors[0]).toMatchObject({ pointer: '/state' });
      const created = await api.call('POST', '/tickets', {
        token: adminToken,
        body: { subject: 'Born closed?', requester: caller.id, state: 'closed' },
      });
      expectProblem(created, 403, 'FORBIDDEN_FIELD');
    });

    it('treats the body as the other POST routes do: 401, 403 cross-site, 413, 415, 422 for broken JSON', async () => {
      await refused(() => api.call('POST', `/tickets/${id}/transitions/start`, { body: { version: 1 } }), 401, 'UNAUTHENTICATED');
      await refused(
        () =>
          api.call('POST', `/tickets/${id}/transitions/reply`, {
            session: aliceSession,
            headers: { origin: 'https://evil.example' },
            body: { version: 1 },
          }),
        403,
        'FORBIDDEN',
      );
      await refused(() => take(agentToken, id, 'start', { version: 1, comment: 'x'.repeat(1024 * 1024 + 10) }), 413, 'PAYLOAD_TOO_LARGE');
      await refused(
        () =>
          api.call('POST', `/tickets/${id}/transitions/start`, {
            token: agentToken,
            body: 'version=1',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
      await refused(
        () =>
          api.call('POST', `/tickets/${id}/transitions/start`, {
            token: agentToken,
            body: '{"version":',
            headers: { 'content-type': 'application/json' },
          }),
        422,
        'VALIDATION_FAILED',
      );
      await refused(
        () =>
          api.call('POST', '/tickets/transitions/start', { token: agentToken, body: 'items', headers: { 'content-type': 'text/plain' } }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
      const method = await api.call('GET', `/tickets/${id}/transitions/start`, { token: agentToken });
      expectProblem(method, 405, 'METHOD_NOT_ALLOWED');
      expect(method.headers.get('allow')).toBe('POST, OPTIONS');
    });
  });

  describe('bulk', () => {
    it('takes the transition row by row and reports each: done, wrong state, missing field, stale, not found', async () => {
      const ready = await open(agentToken, { assignee: agent.id });
      const unassigned = await open(agentToken);
      const stale = await open(agentToken, { assignee: agent.id });
      await api.call('PATCH', `/tickets/${stale.body.id}`, { token: agentToken, body: { version: 1, subject: 'Changed meanwhile' } });
      const started = await open(agentToken, { assignee: agent.id });
      await take(agentToken, started.body.id, 'start', { version: 1 });
      const noVersion = await open(agentToken, { assignee: agent.id });

      const answer = await api.call('POST', '/tickets/transitions/start', {
        token: agentToken,
        body: {
          comment: 'Morning triage',
          items: [
            { id: ready.body.id, version: 1 },
            { id: unassigned.body.id, version: 1 },
            { id: stale.body.id, version: 1 },
            { id: started.body.id, version: 2 },
            { id: 987654, version: 1 },
            { id: noVersion.body.id },
            { id: ready.body.id, version: 1 },
          ],
        },
      });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.results).toEqual([
        { id: ready.body.id, ok: true, record: expect.objectContaining({ id: ready.body.id, state: 'open', version: 2 }) },
        { id: unassigned.body.id, ok: false, status: 409, code: 'TRANSITION_NOT_ALLOWED', detail: 'Needs an assignee.' },
        { id: stale.body.id, ok: false, status: 409, code: 'STALE_VERSION', detail: expect.any(String) },
        {
          id: started.body.id,
          ok: false,
          status: 409,
          code: 'TRANSITION_NOT_ALLOWED',
          detail: '"Start" cannot be taken while the ticket is Open.',
        },
        { id: 987654, ok: false, status: 404, code: 'NOT_FOUND', detail: expect.any(String) },
        { id: noVersion.body.id, ok: false, status: 428, code: 'PRECONDITION_REQUIRED', detail: 'Send the version of the record you saw.' },
      ]);
      const stored = await api.call('GET', `/tickets/${unassigned.body.id}`, { token: agentToken });
      expect(stored.body).toMatchObject({ state: 'new', version: 1 });
      // The comment went into each history.
      const history = await api.call('GET', `/tickets/${ready.body.id}/history`, { token: agentToken });
      expect(history.body.items[0].transition).toEqual({
        name: 'start',
        label: 'Start',
        from: 'new',
        to: 'open',
        comment: 'Morning triage',
      });
    });

    it('gives the input to every row, and a customer only their own tickets', async () => {
      const { token: carolToken } = await newUser(['customer'], 'Carol Customer');
      const { token: daveToken } = await newUser(['customer'], 'Dave Customer');
      const carols = await open(carolToken);
      const daves = await open(daveToken);
      for (const ticket of [carols, daves]) {
        await take(agentToken, ticket.body.id, 'start', { version: 1, input: { assignee: agent.id } });
        await take(agentToken, ticket.body.id, 'wait', { version: 2 });
      }
      const answer = await api.call('POST', '/tickets/transitions/reply', {
        token: carolToken,
        body: {
          items: [
            { id: carols.body.id, version: 3 },
            { id: daves.body.id, version: 3 },
          ],
        },
      });
      expect(answer.body.results).toEqual([
        { id: carols.body.id, ok: true, record: expect.objectContaining({ state: 'open' }) },
        { id: daves.body.id, ok: false, status: 404, code: 'NOT_FOUND', detail: expect.any(String) },
      ]);
      expect(answer.body.results[0].record).not.toHaveProperty('assignee');

      const a = await open(agentToken);
      const b = await open(agentToken);
      const assigned = await api.call('POST', '/tickets/transitions/start', {
        token: adminToken,
        body: {
          items: [
            { id: a.body.id, version: 1 },
            { id: b.body.id, version: 1 },
          ],
          input: { assignee: agent.id },
        },
      });
      expect(assigned.body.results.map((r: { ok: boolean; record: { assignee: number } }) => [r.ok, r.record.assignee])).toEqual([
        [true, agent.id],
        [true, agent.id],
      ]);
    });

    it('refuses a malformed body as a whole with 422, naming each item that is wrong, and changes nothing', async () => {
      const one = await open(agentToken, { assignee: agent.id });
      const bad = async (body: unknown) =>
        refused(() => api.call('POST', '/tickets/transitions/start', { token: agentToken, body }), 422, 'VALIDATION_FAILED');
      expect((await bad({})).body.errors).toEqual([expect.objectContaining({ pointer: '/items', code: 'required' })]);
      expect((await bad({ items: [] })).body.errors).toEqual([expect.objectContaining({ pointer: '/items', code: 'too_small' })]);
      expect((await bad({ items: Array.from({ length: 201 }, (_, i) => ({ id: i + 1 })) })).body.errors).toEqual([
        expect.objectContaining({ pointer: '/items', code: 'too_big' }),
      ]);
      const items = await bad({ items: [{ id: one.body.id, version: 1 }, { id: '2' }, 7, { id: 3, version: 0, extra: true }], ids: [1] });
      expect(items.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
        '/ids',
        '/items/1/id',
        '/items/2',
        '/items/3/extra',
        '/items/3/version',
      ]);
      await bad({ items: [{ id: one.body.id }], comment: ['no'] });
      expect((await api.call('GET', `/tickets/${one.body.id}`, { token: agentToken })).body.state).toBe('new');
    });
  });

  describe('history', () => {
    it('lists create, update (a field diff) and transitions (from, to, comment), newest first, with actor and ISO times', async () => {
      const { user: erin, token: erinToken } = await newUser(['customer'], 'Erin Customer');
      const ticket = await open(erinToken, { subject: 'Screen flickers', description: 'Since Monday' });
      const id = ticket.body.id;
      await api.call('PATCH', `/tickets/${id}`, { token: erinToken, body: { version: 1, subject: 'Screen flickers a lot' } });
      await take(agentToken, id, 'start', { version: 2, input: { assignee: agent.id }, comment: 'Taking it' });
      // Only hidden fields change: the customer must not even learn that something happened.
      const organization = await api.call('POST', '/organizations', { token: adminToken, body: { name: `Erin Corp ${id}` } });
      await api.call('PATCH', `/tickets/${id}`, { token: agentToken, body: { version: 3, organization: organization.body.id } });
      await take(agentToken, id, 'resolve', { version: 4 });

      const byAgent = await api.call('GET', `/tickets/${id}/history`, { token: agentToken });
      expect(byAgent.status, byAgent.text).toBe(200);
      expect(byAgent.body.nextCursor).toBeNull();
      const items = byAgent.body.items;
      expect(items.map((e: { action: string }) => e.action)).toEqual(['transition', 'update', 'transition', 'update', 'create']);
      for (const entry of items) {
        expect(entry.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(Object.keys(entry)).toEqual(['id', 'at', 'actor', 'action', 'transition', 'changes', 'cause']);
      }
      expect(items.map((e: { id: number }) => e.id)).toEqual([...items.map((e: { id: number }) => e.id)].sort((a, b) => b - a));
      const [resolve, setOrganization, start, update, create] = items;
      expect(create).toMatchObject({ actor: { id: erin.id, name: 'Erin Customer' }, transition: null });
      expect(create.changes).toMatchObject({
        subject: { from: null, to: 'Screen flickers' },
        description: { from: null, to: 'Since Monday' },
        requester: { from: null, to: erin.id },
      });
      expect(update.changes).toEqual({ subject: { from: 'Screen flickers', to: 'Screen flickers a lot' } });
      expect(start).toMatchObject({
        actor: { id: agent.id, name: 'Alan Agent' },
        transition: { name: 'start', label: 'Start', from: 'new', to: 'open', comment: 'Taking it' },
        changes: { assignee: { from: null, to: agent.id } },
      });
      expect(setOrganization.changes).toEqual({ organization: { from: null, to: organization.body.id } });
      expect(resolve.transition).toEqual({ name: 'resolve', label: 'Resolve', from: 'open', to: 'resolved', comment: null });
      expect(resolve.changes.resolvedAt.from).toBeNull();
      expect(resolve.changes.resolvedAt.to).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

      // The customer sees their ticket's history without assignee or organization, anywhere.
      const byCustomer = await api.call('GET', `/tickets/${id}/history`, { token: erinToken });
      expect(byCustomer.status).toBe(200);
      expect(byCustomer.body.items.map((e: { action: string }) => e.action)).toEqual(['transition', 'transition', 'update', 'create']);
      expect(byCustomer.text).not.toMatch(/"assignee"|"organization"/);
      expect(byCustomer.body.items[1].changes).toEqual({});
      expect(byCustomer.body.items[1].transition).toMatchObject({ name: 'start', comment: 'Taking it' });

      // Pages by cursor, newest first, and nothing twice.
      const first = await api.call('GET', `/tickets/${id}/history?limit=2`, { token: agentToken });
      expect(first.body.items.map((e: { id: number }) => e.id)).toEqual(items.slice(0, 2).map((e: { id: number }) => e.id));
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const second = await api.call('GET', `/tickets/${id}/history?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`, {
        token: agentToken,
      });
      expect(second.body.items.map((e: { id: number }) => e.id)).toEqual(items.slice(2, 4).map((e: { id: number }) => e.id));
      const third = await api.call('GET', `/tickets/${id}/history?limit=2&cursor=${encodeURIComponent(second.body.nextCursor)}`, {
        token: agentToken,
      });
      expect(third.body).toEqual({ items: [items[4]], nextCursor: null });
    });

    it('answers 404 for a record out of sight, 422 for a bad query, and has a history for entities without a workflow', async () => {
      const { token: frankToken } = await newUser(['customer'], 'Frank Customer');
      const { token: graceToken } = await newUser(['customer'], 'Grace Customer');
      const ticket = await open(frankToken);
      await refused(() => api.call('GET', `/tickets/${ticket.body.id}/history`, { token: graceToken }), 404, 'NOT_FOUND');
      await refused(() => api.call('GET', '/tickets/987654/history', { token: agentToken }), 404, 'NOT_FOUND');
      await refused(() => api.call('GET', '/tickets/abc/history', { token: agentToken }), 422, 'VALIDATION_FAILED');
      await refused(() => api.call('GET', '/tickets/987654/history', {}), 401, 'UNAUTHENTICATED');
      for (const query of ['limit=0', 'limit=201', 'limit=ten', 'cursor=abc', 'cursor=0', 'page=2', 'limit=1&limit=2']) {
        await refused(
          () => api.call('GET', `/tickets/${ticket.body.id}/history?${query}`, { token: agentToken }),
          422,
          'VALIDATION_FAILED',
        );
      }
      const organization = await api.call('POST', '/organizations', { token: adminToken, body: { name: 'History Corp', tier: 'premium' } });
      const history = await api.call('GET', `/organizations/${organization.body.id}/history`, { token: adminToken });
      expect(history.body.items).toEqual([
        expect.objectContaining({
          action: 'create',
          transition: null,
          changes: expect.objectContaining({ name: { from: null, to: 'History Corp' }, tier: { from: null, to: 'premium' } }),
        }),
      ]);
    });
  });

  describe('limits', () => {
    it(`refuses a customer's open ticket beyond maxOpenTicketsPerCustomer (${MAX_OPEN}) with 422 LIMIT_EXCEEDED naming the constant`, async () => {
      const { token: heidiToken } = await newUser(['customer'], 'Heidi Customer');
      const tickets: number[] = [];
      for (let i = 0; i < MAX_OPEN; i++) tickets.push((await open(heidiToken)).body.id);
      const answer = await refused(
        () => api.call('POST', '/tickets', { token: heidiToken, body: { subject: 'One too many' } }),
        422,
        'LIMIT_EXCEEDED',
      );
      expect(answer.body).toMatchObject({ limit: 'openTicketsPerCustomer', constant: 'maxOpenTicketsPerCustomer', max: MAX_OPEN });
      expect(answer.body.detail).toBe(
        `You have reached the limit of open tickets (${MAX_OPEN}): add to one you already have, or wait until one is resolved.`,
      );

      // Resolving one frees a place; taking it, reopening the resolved one is over the limit again.
      await take(agentToken, tickets[0]!, 'start', { version: 1, input: { assignee: agent.id } });
      await take(agentToken, tickets[0]!, 'resolve', { version: 2 });
      await open(heidiToken);
      const reopen = await refused(() => take(heidiToken, tickets[0]!, 'reopen', { version: 3 }), 422, 'LIMIT_EXCEEDED');
      expect(reopen.body).toMatchObject({ limit: 'openTicketsPerCustomer', constant: 'maxOpenTicketsPerCustomer', max: MAX_OPEN });
      const bulk = await api.call('POST', '/tickets/transitions/reopen', {
        token: heidiToken,
        body: { items: [{ id: tickets[0], version: 3 }] },
      });
      expect(bulk.body.results).toEqual([
        {
          id: tickets[0],
          ok: false,
          status: 422,
          code: 'LIMIT_EXCEEDED',
          detail: `You have reached the limit of open tickets (${MAX_OPEN}): add to one you already have, or wait until one is resolved.`,
        },
      ]);
    });
  });
});
