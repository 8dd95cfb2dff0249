import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';
import { createActor, openSyncedQuickly, testModel } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import { createOps } from '../ops/create-ops';
import type { Ops } from '../ops/ops';
import type { Store } from '../store/types';
import type { Actor } from '../ground/actor';
import { captureLog } from '../log';
import { openStore } from '../store/open-store';
import { syncSchema } from '../store/schema/sync';
import { createScheduler } from './scheduler';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const later = (ms: number) => new Date(Date.now() + ms);

/** Events: they remind 24 hours before they start (a time before a field), and end by themselves once over. */
const eventsModel = buildModel({
  name: 'events',
  entities: {
    event: {
      fields: {
        title: { type: 'text', required: true },
        startsAt: { type: 'datetime' },
        room: { type: 'text' },
        approved: { type: 'boolean', default: false },
      },
    },
  },
  workflows: {
    event: {
      states: { planned: { initial: true }, reminded: {}, over: { final: true } },
      transitions: {
        remind: { from: 'planned', to: 'reminded', allow: [], requires: ['room'], auto: { before: 'startsAt', hours: 24 } },
        end: {
          from: ['planned', 'reminded'],
          to: 'over',
          allow: ['organizer'],
          guard: { field: 'approved', op: 'eq', value: true },
          guardMessage: 'Only an approved event ends by itself.',
          auto: { after: 'startsAt', minutes: { $constant: 'eventMinutes' } },
        },
      },
    },
  },
  roles: { organizer: {} },
  permissions: { event: { organizer: { list: true, read: true, create: true, update: true } } },
  constants: { eventMinutes: { value: 90, unit: 'minutes' } },
});

forEachDatabase('scheduler: automatic transitions', (database) => {
  describe('the helpdesk closes resolved tickets after autoCloseDays', () => {
    let store: Store;
    let ops: Ops;
    let agent: Actor;
    /** The customer the agent files the tickets for. */
    let caller: Actor;

    beforeAll(async () => {
      store = await openSyncedQuickly(database, testModel);
      ops = createOps({ model: testModel, db: store.db });
      agent = await createActor(store.db, ['agent'], 'Ada Agent');
      caller = await createActor(store.db, ['customer'], 'Cleo Caller');
    });
    afterAll(() => store.close());

    async function resolvedTicket(subject: string) {
      let ticket = await ops.create(agent, 'ticket', { subject, requester: caller.userId, assignee: agent.userId });
      ticket = await ops.transition(agent, 'ticket', ticket.id, 'start', { version: ticket.version });
      return ops.transition(agent, 'ticket', ticket.id, 'resolve', { version: ticket.version });
    }

    it('leaves it resolved before its time, closes it once the time has come, as the system, and only once', async () => {
      const ticket = await resolvedTicket('Printer on fire');
      const scheduler = createScheduler({ model: testModel, db: store.db });

      expect((await scheduler.runOnce(later(13 * DAY_MS))).taken).toBe(0);
      expect((await ops.get(agent, 'ticket', ticket.id)).record.state).toBe('resolved');

      const run = await scheduler.runOnce(later(14 * DAY_MS + 60_000));
      expect(run.taken).toBeGreaterThanOrEqual(1);
      const { record: closed } = await ops.get(agent, 'ticket', ticket.id);
      expect(closed.state).toBe('closed');
      expect(closed.version).toBe(ticket.version + 1);
      expect(closed.updatedBy).toBeNull();

      const history = await ops.history(agent, 'ticket', ticket.id, {});
      const entry = history.entries[0]!;
      expect(entry.action).toBe('transition');
      expect(entry.actor).toBeNull();
      expect(entry.transition).toMatchObject({
        name: 'close',
        from: 'resolved',
        to: 'closed',
        automatic: true,
        comment: 'Automatically, 14 days after Resolved.',
      });

      // Nothing is due any more: a second run (and the backlog) finds nothing.
      expect((await scheduler.runOnce(later(15 * DAY_MS))).taken).toBe(0);
      expect(scheduler.status()).toMatchObject({ running: false, lastTaken: 0, backlog: 0, lastError: null });
      expect((await ops.history(agent, 'ticket', ticket.id, {})).entries.filter((e) => e.transition?.name === 'close')).toHaveLength(1);
    });

    it('leaves tickets alone whose resolution was undone (reopened): they are no longer in a From state', async () => {
      const ticket = await resolvedTicket('Reopened in time');
      await ops.transition(agent, 'ticket', ticket.id, 'reopen', { version: ticket.version });
      await createScheduler({ model: testModel, db: store.db }).runOnce(later(30 * DAY_MS));
      expect((await ops.get(agent, 'ticket', ticket.id)).record.state).toBe('open');
    });

    it('takes what fell due while no server ran, when one starts again', async () => {
      const ticket = await resolvedTicket('Closed while we were away');
      // As if the server had been down (or killed) for three weeks: nothing was queued, the record itself is due.
      await store.db
        .updateTable('ticket')
        .set({ resolved_at: sql`resolved_at - interval '21 days'` })
        .where('id', '=', ticket.id)
        .execute();
      await store.close();
      store = await database.open();
      ops = createOps({ model: testModel, db: store.db });
      const scheduler = createScheduler({ model: testModel, db: store.db });
      expect(scheduler.status().lastRunAt).toBeNull();
      await scheduler.runOnce();
      expect((await ops.get(agent, 'ticket', ticket.id)).record.state).toBe('closed');
      expect(scheduler.status().lastRunAt).not.toBeNull();
    });

    if (database.kind === 'postgres') {
      it('two processes on one PostgreSQL take each due transition exactly once', async () => {
        const tickets = await Promise.all(Array.from({ length: 60 }, (_, i) => resolvedTicket(`Race ${i}`)));
        const other = await database.open();
        try {
          const at = later(20 * DAY_MS);
          const one = createScheduler({ model: testModel, db: store.db });
          const two = createScheduler({ model: testModel, db: other.db });
          const runs = await Promise.all([one.runOnce(at), two.runOnce(at), one.runOnce(at), two.runOnce(at)]);
          const ids = tickets.map((t) => t.id);
          const closes = await store.db
            .selectFrom('nf_audit')
            .select(['record_id'])
            .where('entity', '=', 'ticket')
            .where('record_id', 'in', ids)
            .where(sql`changes->'transition'->>'name'`, '=', 'close')
            .execute();
          expect(closes).toHaveLength(60);
          expect(new Set(closes.map((c) => Number(c.record_id))).size).toBe(60);
          expect(runs.reduce((sum, run) => sum + run.taken, 0)).toBe(60);
          // Both did some of the work (each claims past the rows the other holds).
          expect(runs[0]!.taken + runs[2]!.taken).toBeGreaterThan(0);
        } finally {
          await other.close();
        }
      });

      it('a process killed while it holds claimed records leaves them to the others (its transaction dies with it)', async () => {
        const ticket = await resolvedTicket('Claimed by a process that died');
        const dying = await database.open();
        const at = later(20 * DAY_MS);
        let backend = 0;
        let locked = false;
        let release = () => {};
        const held = new Promise<void>((resolve) => (release = resolve));
        // The dying process claims the record (as its scheduler would), and is killed before it commits.
        const claimed = dying.db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          backend = rows[0]!.pid;
          await sql`select id from ticket where id = ${ticket.id} for update`.execute(trx);
          locked = true;
          await held;
        });
        await expect.poll(() => locked, { timeout: 10_000 }).toBe(true);
        const scheduler = createScheduler({ model: testModel, db: store.db });
        // While it lives, its claim is skipped, not waited for.
        expect((await scheduler.runOnce(at)).taken).toBe(0);
        await sql`select pg_terminate_backend(${backend})`.execute(store.db);
        // Terminating only signals the backend: its locks go when it has exited.
        await expect
          .poll(
            async () =>
              (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where pid = ${backend}`.execute(store.db)).rows[0]!
                .n,
            {
              timeout: 10_000,
            },
          )
          .toBe(0);
        expect((await scheduler.runOnce(at)).taken).toBe(1);
        expect((await ops.get(agent, 'ticket', ticket.id)).record.state).toBe('closed');
        release();
        await claimed.catch(() => undefined);
        await dying.close().catch(() => undefined);
      });
    }
  });

  describe('before a field, after a constant, requires and guards', () => {
    let store: Store;
    let ops: Ops;
    let organizer: Actor;

    beforeAll(async () => {
      // A database of its own: the helpdesk's suite above has the other one.
      store = await openStore(await database.freshOptions());
      await syncSchema(store, eventsModel);
      ops = createOps({ model: eventsModel, db: store.db });
      organizer = await createActor(store.db, ['organizer'], 'Olga Organizer');
    });
    afterAll(() => store.close());

    it('reminds 24 hours before the start, and not without the room it requires', async () => {
      const startsAt = later(3 * DAY_MS).toISOString();
      const withRoom = await ops.create(organizer, 'event', { title: 'Launch', startsAt, room: 'Blue' });
      const withoutRoom = await ops.create(organizer, 'event', { title: 'Offsite', startsAt });
      const scheduler = createScheduler({ model: eventsModel, db: store.db });

      await scheduler.runOnce(later(DAY_MS));
      expect((await ops.get(organizer, 'event', withRoom.id)).record.state).toBe('planned');
      await scheduler.runOnce(later(2 * DAY_MS + HOUR_MS));
      expect((await ops.get(organizer, 'event', withRoom.id)).record.state).toBe('reminded');
      // Without the room it requires it is not due at all: not taken, not refused, no backlog.
      expect((await ops.get(organizer, 'event', withoutRoom.id)).record.state).toBe('planned');
      expect(scheduler.status().backlog).toBe(0);
    });

    it('keeps a due record whose guard does not hold as it is, says so once in the log, and takes it once the guard holds', async () => {
      const event = await ops.create(organizer, 'event', { title: 'Unapproved', startsAt: later(-3 * HOUR_MS).toISOString() });
      const scheduler = createScheduler({ model: eventsModel, db: store.db });
      const { result: first, lines } = await captureLog(async () => {
        const run = await scheduler.runOnce();
        await scheduler.runOnce();
        return run;
      });
      expect(first.refused).toContainEqual(
        expect.objectContaining({ entity: 'event', transition: 'end', id: event.id, code: 'TRANSITION_NOT_ALLOWED' }),
      );
      expect(lines.filter((line) => line.msg === 'automatic transition refused' && line.id === event.id)).toHaveLength(1);
      // Still due: the backlog says so.
      expect(scheduler.status().backlog).toBeGreaterThanOrEqual(1);
      const { record: unchanged } = await ops.get(organizer, 'event', event.id);
      expect(unchanged).toMatchObject({ state: 'planned', version: event.version });

      const approved = await ops.update(organizer, 'event', event.id, { approved: true }, event.version);
      await scheduler.runOnce();
      expect((await ops.get(organizer, 'event', event.id)).record.state).toBe('over');
      expect(approved.version).toBe(event.version + 1);
    });

    it('an event 60 minutes past its start is not over yet (90 minutes, from the constant)', async () => {
      const event = await ops.create(organizer, 'event', {
        title: 'Long talk',
        startsAt: later(-60 * 60_000).toISOString(),
        approved: true,
      });
      const scheduler = createScheduler({ model: eventsModel, db: store.db });
      await scheduler.runOnce();
      expect((await ops.get(organizer, 'event', event.id)).record.state).toBe('planned');
      await scheduler.runOnce(later(31 * 60_000));
      expect((await ops.get(organizer, 'event', event.id)).record.state).toBe('over');
    });

    it('runs in a loop once started, and stops', async () => {
      const event = await ops.create(organizer, 'event', {
        title: 'Already over',
        startsAt: later(-DAY_MS).toISOString(),
        approved: true,
      });
      const scheduler = createScheduler({ model: eventsModel, db: store.db }, { intervalSeconds: 0.05 });
      scheduler.start();
      expect(scheduler.status().running).toBe(true);
      await expect.poll(async () => (await ops.get(organizer, 'event', event.id)).record.state, { timeout: 5_000 }).toBe('over');
      await scheduler.stop();
      expect(scheduler.status().running).toBe(false);
    });
  });
});
