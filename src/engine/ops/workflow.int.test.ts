import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../spec/build';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { createActor, expectRefused, fieldCodes, ninefoldError, openSyncedQuickly, testSpec } from '@testing/engine/ops';
import type { RecordData } from './types';
import type { Actor } from '../ground/actor';

/** The helpdesk with a small limit, so that reaching it is cheap. */
const model = buildModel({ ...testSpec, constants: { ...testSpec.constants, maxOpenTicketsPerCustomer: { value: 3, unit: 'tickets' } } });
const DAY_MS = 24 * 60 * 60 * 1000;

forEachDatabase('ops: workflow, rules, limits and history', (database) => {
  let store: Store;
  let ops: Ops;
  let admin: Actor;
  let agent: Actor;
  let customer: Actor;
  let other: Actor;
  /** The customer staff file tickets for (a ticket's requester is a customer): not one whose open tickets the limits count. */
  let caller: Actor;

  /** Every ticket row and history row: what a refused transition must leave as it was. */
  async function snapshot() {
    return {
      tickets: await store.db.selectFrom('ticket').selectAll().orderBy('id').execute(),
      audit: await store.db.selectFrom('nf_audit').selectAll().orderBy('id').execute(),
    };
  }

  /** Runs a write that must be refused with `code`; checks that no row changed. */
  const refused = (code: string, write: () => Promise<unknown>) => expectRefused(snapshot, code, write);

  const take = (actor: Actor, ticket: RecordData, name: string, extra: { comment?: string; input?: Record<string, unknown> } = {}) =>
    ops.transition(actor, 'ticket', ticket.id, name, { version: ticket.version, ...extra });

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    admin = await createActor(store.db, ['admin'], 'Ada Admin');
    agent = await createActor(store.db, ['agent'], 'Grace Agent');
    customer = await createActor(store.db, ['customer'], 'Carl Customer');
    other = await createActor(store.db, ['customer'], 'Olga Other');
    caller = await createActor(store.db, ['customer'], 'Cleo Caller');
  });

  describe('transitions', () => {
    it("run the helpdesk's whole workflow, with effects, and only transitions change the state", async () => {
      let ticket = await ops.create(customer, 'ticket', { subject: 'Printer on fire' });
      expect(ticket.state).toBe('new');

      const start = await refused('TRANSITION_NOT_ALLOWED', () => take(agent, ticket, 'start'));
      expect(start.message).toBe('Needs an assignee.');
      expect(fieldCodes(start)).toEqual(['assignee:required']);

      ticket = await take(agent, ticket, 'start', { input: { assignee: agent.userId }, comment: 'On it' });
      expect(ticket).toMatchObject({ state: 'open', assignee: agent.userId, version: 2 });
      ticket = await take(agent, ticket, 'wait');
      ticket = await take(customer, ticket, 'reply');
      expect(ticket.state).toBe('open');
      expect(ticket).not.toHaveProperty('assignee');

      const before = Date.now();
      ticket = await take(agent, ticket, 'resolve');
      expect(ticket.state).toBe('resolved');
      expect((ticket.resolvedAt as Date).getTime()).toBeGreaterThanOrEqual(before - 1000);

      // Values given with a transition are an update: not on a ticket outside the customer's update scope.
      await refused('FORBIDDEN', () => take(customer, ticket, 'reopen', { input: { subject: 'Rewritten while resolved' } }));
      ticket = await take(customer, ticket, 'reopen');
      expect(ticket).toMatchObject({ state: 'open', resolvedAt: null });
      ticket = await take(agent, ticket, 'resolve');
      ticket = await take(agent, ticket, 'close');
      expect(ticket.state).toBe('closed');

      await refused('FORBIDDEN_FIELD', () => ops.update(admin, 'ticket', ticket.id, { state: 'open' }, ticket.version));
      await refused('TRANSITION_NOT_ALLOWED', () => take(admin, ticket, 'reopen'));
    });

    it('refuse with which reason: wrong state, not your role, guard (an owner window) — and change nothing', async () => {
      const ticket = await ops.create(customer, 'ticket', { subject: 'Wrong state' });
      const wrong = await refused('TRANSITION_NOT_ALLOWED', () => take(agent, ticket, 'resolve'));
      expect(wrong.message).toBe('"Resolve" cannot be taken while the ticket is New.');
      const role = await refused('TRANSITION_NOT_ALLOWED', () => take(customer, ticket, 'start', {}));
      expect(role.message).toBe('You are not allowed to take "Start" on this ticket.');
      // Another customer cannot see the ticket at all: it is not found, as if absent.
      await refused('NOT_FOUND', () => take(other, ticket, 'reply'));
      await refused('TRANSITION_NOT_ALLOWED', () => ops.transition(agent, 'ticket', ticket.id, 'teleport', { version: 1 }));
      await refused('PRECONDITION_REQUIRED', () => ops.transition(agent, 'ticket', ticket.id, 'start', {} as never));

      let resolved = await take(agent, ticket, 'start', { input: { assignee: agent.userId } });
      resolved = await take(agent, resolved, 'resolve');
      // Resolved longer ago than the reopen window: the requester is refused with the spec's own code.
      await store.db
        .updateTable('ticket')
        .set({ resolved_at: new Date(Date.now() - 15 * DAY_MS) })
        .where('id', '=', resolved.id)
        .execute();
      const late = await refused('REOPEN_WINDOW_PASSED', () => take(customer, resolved, 'reopen'));
      expect(late.status).toBe(409);
      // Agents may reopen whenever.
      expect((await take(agent, resolved, 'reopen')).state).toBe('open');
    });

    it('check the version the actor saw, the input and the comment', async () => {
      const ticket = await ops.create(agent, 'ticket', { subject: 'Versions', requester: caller.userId });
      await ops.update(agent, 'ticket', ticket.id, { priority: 'high' }, ticket.version);
      await refused('STALE_VERSION', () => take(agent, ticket, 'start', { input: { assignee: agent.userId } }));
      const fresh = (await ops.get(agent, 'ticket', ticket.id)).record;
      const input = await refused('VALIDATION_FAILED', () => take(agent, fresh, 'start', { input: { assignee: 'nobody' } }));
      expect(fieldCodes(input)).toEqual(['assignee:invalid_type']);
      const ghost = await refused('VALIDATION_FAILED', () => take(agent, fresh, 'start', { input: { assignee: 999_999 } }));
      expect(fieldCodes(ghost)).toEqual(['assignee:user_role']);
      await refused('FORBIDDEN_FIELD', () =>
        take(agent, fresh, 'start', { input: { assignee: agent.userId, resolvedAt: '2030-01-01T00:00' } }),
      );
      const comment = await refused('VALIDATION_FAILED', () =>
        take(agent, fresh, 'start', { input: { assignee: agent.userId }, comment: 'x'.repeat(10_001) }),
      );
      expect(fieldCodes(comment)).toEqual(['comment:too_big']);
    });

    it('are offered on the record with why a blocked one is blocked, per actor', async () => {
      const ticket = await ops.create(customer, 'ticket', { subject: 'Offers' });
      const forAgent = (await ops.get(agent, 'ticket', ticket.id)).transitions;
      expect(forAgent).toEqual([
        { name: 'start', label: 'Start', to: 'open', available: false, blockedReason: 'Needs an assignee.', requires: ['assignee'] },
      ]);
      expect((await ops.get(customer, 'ticket', ticket.id)).transitions).toEqual([]);
      const opened = await take(agent, ticket, 'start', { input: { assignee: agent.userId } });
      expect((await ops.get(agent, 'ticket', ticket.id)).transitions.map((t) => [t.name, t.available])).toEqual([
        ['wait', true],
        ['resolve', true],
      ]);
      const resolved = await take(agent, opened, 'resolve');
      expect((await ops.get(customer, 'ticket', ticket.id)).transitions.map((t) => [t.name, t.available])).toEqual([['reopen', true]]);
      await store.db
        .updateTable('ticket')
        .set({ resolved_at: new Date(Date.now() - 30 * DAY_MS) })
        .where('id', '=', resolved.id)
        .execute();
      expect((await ops.get(customer, 'ticket', ticket.id)).transitions).toEqual([
        expect.objectContaining({ name: 'reopen', available: false, blockedReason: model.errors.REOPEN_WINDOW_PASSED!.message }),
      ]);
    });

    it('in bulk: one result per row, a refusal neither blocks nor undoes the others', async () => {
      const a = await ops.create(agent, 'ticket', { subject: 'Bulk A', requester: caller.userId, assignee: agent.userId });
      const b = await ops.create(agent, 'ticket', { subject: 'Bulk B', requester: caller.userId });
      const c = await ops.create(agent, 'ticket', { subject: 'Bulk C', requester: caller.userId, assignee: agent.userId });
      await ops.update(agent, 'ticket', c.id, { priority: 'low' }, c.version);
      const results = await ops.bulkTransition(agent, 'ticket', 'start', [
        { id: a.id, version: a.version },
        { id: b.id, version: b.version },
        { id: c.id, version: c.version },
        { id: 999_999, version: 1 },
        { id: a.id },
      ]);
      expect(results.map((r) => [r.id, r.ok, r.ok ? r.record.state : r.code])).toEqual([
        [a.id, true, 'open'],
        [b.id, false, 'TRANSITION_NOT_ALLOWED'],
        [c.id, false, 'STALE_VERSION'],
        [999_999, false, 'NOT_FOUND'],
      ]);
      const unversioned = await ops.bulkTransition(agent, 'ticket', 'start', [{ id: b.id }]);
      expect(unversioned).toEqual([
        { id: b.id, ok: false, code: 'PRECONDITION_REQUIRED', message: 'Send the version of the record you saw.' },
      ]);
      expect((await ops.get(agent, 'ticket', b.id)).record.state).toBe('new');
      expect((await ninefoldError(ops.bulkTransition(agent, 'ticket', 'start', []))).code).toBe('VALIDATION_FAILED');
    });
  });

  describe('entity rules', () => {
    it('hold on create, update and transition, with the spec message on the named field', async () => {
      const error = await ninefoldError(ops.create(agent, 'ticket', { subject: 'Urgent', requester: caller.userId, priority: 'urgent' }));
      expect(error.fieldErrors).toEqual([
        { field: 'assignee', code: 'urgentNeedsAssignee', message: 'An urgent ticket needs an assignee.' },
      ]);
      const past = await ninefoldError(
        ops.create(agent, 'ticket', { subject: 'Late', requester: caller.userId, dueAt: '2001-01-01T00:00' }),
      );
      expect(fieldCodes(past)).toEqual(['dueAt:dueAfterCreation']);

      const ticket = await ops.create(agent, 'ticket', {
        subject: 'Urgent later',
        requester: caller.userId,
        priority: 'urgent',
        assignee: agent.userId,
      });
      // Taking away the assignee of an urgent ticket breaks the rule, though only the assignee is sent.
      const update = await ninefoldError(ops.update(agent, 'ticket', ticket.id, { assignee: null }, ticket.version));
      expect(fieldCodes(update)).toEqual(['assignee:urgentNeedsAssignee']);
      expect((await ops.update(agent, 'ticket', ticket.id, { priority: 'high', assignee: null }, ticket.version)).assignee).toBeNull();
    });
  });

  describe('limits', () => {
    it('refuse the open ticket over the constant with LIMIT_EXCEEDED naming it; closing one makes room, reopening counts', async () => {
      const customerOfLimits = await createActor(store.db, ['customer'], 'Lim Customer');
      const tickets: RecordData[] = [];
      for (let i = 0; i < 3; i++) tickets.push(await ops.create(customerOfLimits, 'ticket', { subject: `Limited ${i}` }));
      const over = await refused('LIMIT_EXCEEDED', () => ops.create(customerOfLimits, 'ticket', { subject: 'One too many' }));
      expect(over.details).toEqual({ limit: 'openTicketsPerCustomer', max: 3, constant: 'maxOpenTicketsPerCustomer' });
      expect(over.message).toBe(
        'You have reached the limit of open tickets (3): add to one you already have, or wait until one is resolved.',
      );
      // Others' tickets do not count.
      await ops.create(other, 'ticket', { subject: 'Not counted' });

      let first = await take(agent, tickets[0]!, 'start', { input: { assignee: agent.userId } });
      first = await take(agent, first, 'resolve');
      const fourth = await ops.create(customerOfLimits, 'ticket', { subject: 'Room again' });
      expect(fourth.state).toBe('new');
      await refused('LIMIT_EXCEEDED', () => take(customerOfLimits, first, 'reopen'));
      // An edit of a ticket that already counts is never blocked by the limit.
      expect((await ops.update(customerOfLimits, 'ticket', fourth.id, { subject: 'Room again, edited' }, fourth.version)).version).toBe(2);
    });
  });

  describe('history', () => {
    it('records create, update diff, transition and delete in the same transaction, with actor and time', async () => {
      const ticket = await ops.create(customer, 'ticket', { subject: 'History' });
      const edited = await ops.update(
        agent,
        'ticket',
        ticket.id,
        { priority: 'high', assignee: agent.userId, organization: null },
        ticket.version,
      );
      await take(agent, edited, 'start', { comment: 'Looking into it' });

      const forAgent = await ops.history(agent, 'ticket', ticket.id);
      expect(forAgent.entries.map((e) => e.action)).toEqual(['transition', 'update', 'create']);
      const [started, update, created] = forAgent.entries;
      expect(started).toMatchObject({
        actor: { id: agent.userId, name: 'Grace Agent' },
        transition: { name: 'start', label: 'Start', from: 'new', to: 'open', comment: 'Looking into it' },
        changes: {},
      });
      // The SLA due time follows the priority: 24 hours after creation, then 8.
      expect(update!.changes).toEqual({
        priority: { from: 'normal', to: 'high' },
        assignee: { from: null, to: agent.userId },
        slaDueAt: { from: expect.any(Date), to: expect.any(Date) },
      });
      const { from: dueBefore, to: dueAfter } = update!.changes.slaDueAt as { from: Date; to: Date };
      expect(dueBefore.getTime() - dueAfter.getTime()).toBe(16 * 60 * 60 * 1000);
      expect(created).toMatchObject({
        actor: { id: customer.userId },
        changes: { subject: { from: null, to: 'History' }, requester: { from: null, to: customer.userId } },
      });
      expect(created!.at).toBeInstanceOf(Date);

      // The customer never sees the assignee, nor an update that changed only hidden fields.
      await ops.update(
        agent,
        'ticket',
        ticket.id,
        { organization: null, assignee: admin.userId },
        started!.id ? (await ops.get(agent, 'ticket', ticket.id)).record.version : 0,
      );
      const forCustomer = await ops.history(customer, 'ticket', ticket.id);
      expect(forCustomer.entries.map((e) => e.action)).toEqual(['transition', 'update', 'create']);
      expect(JSON.stringify(forCustomer)).not.toMatch(/assignee|organization/);
      expect(forCustomer.entries[1]!.changes).toEqual({
        priority: { from: 'normal', to: 'high' },
        slaDueAt: { from: expect.any(Date), to: expect.any(Date) },
      });
      expect((await ninefoldError(ops.history(other, 'ticket', ticket.id))).code).toBe('NOT_FOUND');

      const rows = await store.db
        .selectFrom('nf_audit')
        .select(['action', 'actor_id'])
        .where('entity', '=', 'ticket')
        .where('record_id', '=', ticket.id)
        .orderBy('id')
        .execute();
      expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'start', 'update']);

      const current = (await ops.get(admin, 'ticket', ticket.id)).record;
      await ops.delete(admin, 'ticket', ticket.id, current.version);
      const deleted = await store.db
        .selectFrom('nf_audit')
        .select(['action', 'changes'])
        .where('record_id', '=', ticket.id)
        .where('action', '=', 'delete')
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(deleted.changes)).toContain('History');
    });

    it('pages newest first with a cursor, and is never written for a refused change', async () => {
      let ticket = await ops.create(agent, 'ticket', { subject: 'Paged', requester: caller.userId });
      for (let i = 0; i < 4; i++) ticket = await ops.update(agent, 'ticket', ticket.id, { subject: `Paged ${i}` }, ticket.version);
      await ninefoldError(ops.update(agent, 'ticket', ticket.id, { subject: 'x' }, ticket.version));
      const first = await ops.history(agent, 'ticket', ticket.id, { limit: 3 });
      expect(first.entries.map((e) => e.changes.subject?.to)).toEqual(['Paged 3', 'Paged 2', 'Paged 1']);
      const second = await ops.history(agent, 'ticket', ticket.id, { limit: 3, cursor: first.nextCursor! });
      expect(second.entries.map((e) => e.changes.subject?.to)).toEqual(['Paged 0', 'Paged']);
      expect(second.nextCursor).toBeNull();
      expect((await ninefoldError(ops.history(agent, 'ticket', ticket.id, { cursor: 'abc' }))).code).toBe('VALIDATION_FAILED');
    });

    it('names a nameless actor by id, never by email', async () => {
      const nameless = await createActor(store.db, ['agent'], 'Nameless Agent');
      await store.db.updateTable('nf_user').set({ name: '' }).where('id', '=', nameless.userId).execute();
      const ticket = await ops.create(nameless, 'ticket', { subject: 'Who did this', requester: caller.userId });
      const [created] = (await ops.history(agent, 'ticket', ticket.id)).entries;
      expect(created!.actor).toEqual({ id: nameless.userId, name: `User #${nameless.userId}` });
      expect(JSON.stringify(created)).not.toContain(nameless.email);
    });

    it('rolls back with the change: a write that fails after its history row leaves neither', async () => {
      const ticket = await ops.create(agent, 'ticket', { subject: 'Atomic', requester: caller.userId });
      const count = async () =>
        Number((await sql<{ n: string }>`select count(*) as n from nf_audit where record_id = ${ticket.id}`.execute(store.db)).rows[0]!.n);
      const before = await count();
      await ninefoldError(ops.update(agent, 'ticket', ticket.id, { subject: 'ok', priority: 'urgent', assignee: null }, ticket.version));
      expect(await count()).toBe(before);
    });
  });
});
