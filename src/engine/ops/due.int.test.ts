import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { createActor, ninefoldError, openSyncedQuickly, testModel as model } from '@testing/engine/ops';
import type { RecordData } from './types';
import type { Actor } from '../ground/actor';

const HOUR_MS = 3_600_000;
const SLA = { urgent: 4, high: 8, normal: 24, low: 72 } as const;

const time = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).getTime();
const hoursAfterCreation = (ticket: RecordData) => (time(ticket.slaDueAt) - time(ticket.createdAt)) / HOUR_MS;

forEachDatabase('ops: computed due times (the SLA)', (database) => {
  let store: Store;
  let ops: Ops;
  let agent: Actor;
  let customer: Actor;
  let other: Actor;

  /** Moves a ticket's creation (and so its due time) into the past, as if it had waited that long. */
  async function age(id: number, hours: number): Promise<void> {
    await store.db
      .updateTable('ticket')
      .set({
        created_at: sql`created_at - make_interval(hours => ${hours})`,
        sla_due_at: sql`sla_due_at - make_interval(hours => ${hours})`,
      })
      .where('id', '=', id)
      .execute();
  }

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    agent = await createActor(store.db, ['agent'], 'Dana Agent');
    customer = await createActor(store.db, ['customer'], 'Cleo Customer');
    other = await createActor(store.db, ['customer'], 'Otto Other');
  });

  describe('writes', () => {
    it('sets the due time on create: creation + the hours of the priority, in the same statement', async () => {
      const normal = await ops.create(customer, 'ticket', { subject: 'Default priority' });
      expect(hoursAfterCreation(normal)).toBe(SLA.normal);
      const urgent = await ops.create(agent, 'ticket', {
        subject: 'Site down',
        requester: customer.userId,
        priority: 'urgent',
        assignee: agent.userId,
      });
      expect(hoursAfterCreation(urgent)).toBe(SLA.urgent);
      const stored = await store.db
        .selectFrom('ticket')
        .select(['created_at', 'sla_due_at'])
        .where('id', '=', urgent.id)
        .executeTakeFirstOrThrow();
      expect(time(stored.sla_due_at) - time(stored.created_at)).toBe(SLA.urgent * HOUR_MS);
    });

    it('recomputes it when the priority changes, and not otherwise', async () => {
      let ticket = await ops.create(agent, 'ticket', { subject: 'Slow laptop', requester: customer.userId, priority: 'low' });
      const first = time(ticket.slaDueAt);
      ticket = await ops.update(agent, 'ticket', ticket.id, { subject: 'Very slow laptop', priority: 'low' }, ticket.version);
      expect(time(ticket.slaDueAt)).toBe(first);
      ticket = await ops.update(agent, 'ticket', ticket.id, { priority: 'high' }, ticket.version);
      expect(hoursAfterCreation(ticket)).toBe(SLA.high);
      ticket = await ops.transition(agent, 'ticket', ticket.id, 'start', { version: ticket.version, input: { assignee: agent.userId } });
      expect(hoursAfterCreation(ticket)).toBe(SLA.high);
      // A transition that gives the priority with its input moves the time too.
      ticket = await ops.transition(agent, 'ticket', ticket.id, 'wait', { version: ticket.version, input: { priority: 'urgent' } });
      expect(hoursAfterCreation(ticket)).toBe(SLA.urgent);
    });

    it('is read-only: nobody gives it a value', async () => {
      const error = await ninefoldError(
        ops.create(agent, 'ticket', { subject: 'Set my own SLA', requester: customer.userId, slaDueAt: '2030-01-01T00:00:00Z' }),
      );
      expect(error.code).toBe('FORBIDDEN_FIELD');
      const ticket = await ops.create(agent, 'ticket', { subject: 'Fine as it is', requester: customer.userId });
      expect((await ninefoldError(ops.update(agent, 'ticket', ticket.id, { slaDueAt: null }, ticket.version))).code).toBe(
        'FORBIDDEN_FIELD',
      );
    });
  });

  describe('lists', () => {
    let late: RecordData;
    let lateButResolved: RecordData;
    let soon: RecordData;
    let othersLate: RecordData;

    /** A ticket opened by the agent for `requester`. */
    const open = (requester: Actor, subject: string, priority: keyof typeof SLA) =>
      ops.create(agent, 'ticket', { subject, priority, requester: requester.userId, assignee: agent.userId });

    beforeAll(async () => {
      await store.db.deleteFrom('ticket').execute();
      late = await open(customer, 'Late and still open', 'high');
      await age(late.id, 10);
      lateButResolved = await open(customer, 'Late but resolved', 'high');
      lateButResolved = await ops.transition(agent, 'ticket', lateButResolved.id, 'start', { version: lateButResolved.version });
      lateButResolved = await ops.transition(agent, 'ticket', lateButResolved.id, 'resolve', { version: lateButResolved.version });
      await age(lateButResolved.id, 10);
      soon = await open(other, 'Due within the day', 'urgent');
      othersLate = await open(other, "Someone else's late ticket", 'low');
      await age(othersLate.id, 100);
      await open(customer, 'Plenty of time', 'low');
    });

    const ids = (page: { rows: readonly RecordData[] }) => page.rows.map((r) => r.id);

    it('filter overdue records: past their due time while doneWhen does not hold', async () => {
      expect(ids(await ops.list(agent, 'ticket', { filters: { slaDueAt: 'overdue' }, sort: 'id' }))).toEqual([late.id, othersLate.id]);
      expect(ids(await ops.list(agent, 'ticket', { filters: { slaDueAt: 'due24h' } }))).toEqual([soon.id]);
    });

    it("count them within the viewer's scope", async () => {
      expect(await ops.count(agent, 'ticket', { filters: { slaDueAt: 'overdue' } })).toEqual({ count: 2, more: false });
      expect(await ops.count(customer, 'ticket', { filters: { slaDueAt: 'overdue' } })).toEqual({ count: 1, more: false });
      expect(await ops.count(customer, 'ticket', {})).toEqual({ count: 3, more: false });
      expect(await ops.count(agent, 'ticket', { filters: { slaDueAt: 'overdue' } }, 1)).toEqual({ count: 1, more: true });
      // The whole list past the cap: counted exactly from the running totals, as the home counts it.
      expect(await ops.count(agent, 'ticket', {}, 2)).toEqual({ count: (await ops.groupTotals(agent, 'ticket')).total, more: false });
    });

    it('refuse an unknown due filter with the values it takes', async () => {
      const error = await ninefoldError(ops.list(agent, 'ticket', { filters: { slaDueAt: 'yesterday' } }));
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.fieldErrors[0]).toMatchObject({
        field: 'slaDueAt',
        code: 'invalid_filter',
        message: 'SLA due can be filtered by: overdue, due24h.',
      });
    });

    it('sort by the due time, oldest first, across keyset pages', async () => {
      const all = await ops.list(agent, 'ticket', { sort: 'slaDueAt', limit: 100 });
      const times = all.rows.map((r) => time(r.slaDueAt));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(all.rows[0]!.id).toBe(othersLate.id);

      const seen: number[] = [];
      let cursor: string | undefined;
      do {
        const page = await ops.list(agent, 'ticket', { sort: 'slaDueAt', limit: 2, ...(cursor ? { cursor } : {}) });
        seen.push(...ids(page));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(ids(all));

      const descending = await ops.list(agent, 'ticket', { sort: '-slaDueAt', limit: 100 });
      expect(ids(descending)).toEqual(ids(all).reverse());
    });
  });
});
