import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';
import { createActor } from '@testing/engine/ops';
import { deskModel } from '@testing/engine/notify';
import crm from '../../../examples/crm/ninefold.spec';
import { buildModel } from '../spec/build';
import { createOps } from '../ops/create-ops';
import type { Ops } from '../ops/ops';
import type { Store } from '../store/types';
import type { Actor } from '../ground/actor';
import { INBOX_TABLE, REMINDER_TABLE } from '../store/schema/notify-tables';
import { createScheduler } from '../scheduler/scheduler';
import { dispatchOutbox } from './dispatch';
import { takeDueReminders } from './reminders';

const soon = () => Date.now() + 10_000;
const at = (time: string) => new Date(`2031-03-04T${time}:00Z`);

forEachDatabase('notifications: reminders on the scheduler', (database) => {
  let store: Store;
  let ops: Ops;
  let agent: Actor;
  let assignee: Actor;

  beforeAll(async () => {
    store = await database.openSynced(deskModel);
    ops = createOps({ model: deskModel, db: store.db });
    agent = await createActor(store.db, ['agent'], 'Ada Agent');
    assignee = await createActor(store.db, ['agent'], 'Otto Assignee');
  });
  afterAll(() => store.close());

  const ctx = () => ({ model: deskModel, db: store.db });
  const remindersOf = async (id: number) =>
    (
      await store.db
        .selectFrom(INBOX_TABLE)
        .selectAll()
        .where('user_id', '=', assignee.userId)
        .where('kind', '=', 'dueSoon')
        .where('record_id', '=', id)
        .execute()
    ).length;
  const remind = async (now: Date) => {
    const run = await takeDueReminders(ctx(), now, soon());
    await dispatchOutbox(ctx(), {}, soon());
    return run.taken;
  };

  /** A ticket assigned to `assignee` (its assignment told and read away), due at `dueAt`. */
  async function dueTicket(subject: string, dueAt: Date) {
    const ticket = await ops.create(agent, 'ticket', { subject, assignee: assignee.userId, dueAt });
    await dispatchOutbox(ctx(), {}, soon());
    return ticket;
  }

  it('tells the assignee once, an hour before, as the clock moves; a moved time is a new reminder, never two for one value', async () => {
    await remind(at('00:00'));
    const ticket = await dueTicket('Server room too warm', at('12:00'));
    expect(await remind(at('10:30'))).toBe(0);
    expect(await remind(at('11:05'))).toBe(1);
    expect(await remindersOf(ticket.id)).toBe(1);
    const [told] = await store.db
      .selectFrom(INBOX_TABLE)
      .selectAll()
      .where('record_id', '=', ticket.id)
      .where('kind', '=', 'dueSoon')
      .execute();
    expect(told).toMatchObject({ title: 'Server room too warm is due soon', entity: 'ticket' });
    expect(await remind(at('11:10'))).toBe(0);
    expect(await remindersOf(ticket.id)).toBe(1);

    // Moved later: a new reminder at the new time, not before.
    await ops.update(agent, 'ticket', ticket.id, { dueAt: at('14:00') }, ticket.version);
    expect(await remind(at('11:30'))).toBe(0);
    expect(await remind(at('13:01'))).toBe(1);
    expect(await remindersOf(ticket.id)).toBe(2);
    // Moved away and back to a value already reminded of: nothing more.
    const away = await ops.update(
      agent,
      'ticket',
      ticket.id,
      { dueAt: at('16:00') },
      (await ops.get(agent, 'ticket', ticket.id)).record.version,
    );
    await ops.update(agent, 'ticket', ticket.id, { dueAt: at('14:00') }, away.version);
    expect(await remind(at('13:30'))).toBe(0);
    expect(await remindersOf(ticket.id)).toBe(2);
  });

  it('only while `when` holds (in SQL), never once the time itself has passed, never for an empty time', async () => {
    const resolved = await dueTicket('Resolved before', at('18:00'));
    await ops.transition(agent, 'ticket', resolved.id, 'resolve', { version: resolved.version });
    const overdue = await dueTicket('Long overdue', at('15:00'));
    const undated = await ops.create(agent, 'ticket', { subject: 'No due time', assignee: assignee.userId });
    expect(await remind(at('17:30'))).toBe(0);
    for (const ticket of [resolved, overdue, undated]) expect(await remindersOf(ticket.id)).toBe(0);
  });

  it("runs on the scheduler's loop, at the scheduler's clock", async () => {
    const ticket = await dueTicket('On the loop', at('20:00'));
    const scheduler = createScheduler(ctx(), { intervalSeconds: 3600 });
    await scheduler.runOnce(at('18:30'));
    expect(await remindersOf(ticket.id)).toBe(0);
    await scheduler.runOnce(at('19:15'));
    expect(await remindersOf(ticket.id)).toBe(1);
    await scheduler.runOnce(at('19:16'));
    expect(await remindersOf(ticket.id)).toBe(1);
  });

  if (database.kind === 'postgres') {
    it('two processes taking reminders at once take each once', async () => {
      const tickets = [];
      for (let i = 0; i < 60; i += 1) tickets.push(await dueTicket(`Race ${i}`, new Date(at('23:00').getTime() + i * 1000)));
      const second = await database.open();
      try {
        const now = at('22:30');
        const runs = await Promise.all([
          takeDueReminders(ctx(), now, soon()),
          takeDueReminders({ model: deskModel, db: second.db }, now, soon()),
          takeDueReminders(ctx(), now, soon()),
          takeDueReminders({ model: deskModel, db: second.db }, now, soon()),
        ]);
        expect(runs.reduce((sum, run) => sum + run.taken, 0)).toBe(60);
        const ids = tickets.map((t) => t.id);
        const claimed = await store.db.selectFrom(REMINDER_TABLE).select('record_id').where('record_id', 'in', ids).execute();
        expect(claimed).toHaveLength(60);
        const outbox = await sql<{
          n: number;
        }>`select count(*)::int as n from nf_outbox where kind = 'time' and record_id = any(${ids})`.execute(store.db);
        expect(outbox.rows[0]!.n).toBe(60);
        await dispatchOutbox(ctx(), {}, soon());
        for (const ticket of tickets) expect(await remindersOf(ticket.id)).toBe(1);
      } finally {
        await second.close();
      }
    });
  }
});

forEachDatabase('notifications: the CRM tells the owner of a quiet deal', (database) => {
  const model = buildModel(crm);
  let store: Store;

  beforeAll(async () => {
    store = await database.openSynced(model);
  });
  afterAll(() => store.close());

  it('once per quiet spell: an update starts the wait again, a won deal tells nobody', async () => {
    const ctx = { model, db: store.db };
    const ops = createOps(ctx);
    const manager = await createActor(store.db, ['manager'], 'Mona Manager');
    const owner = await createActor(store.db, ['sales'], 'Sam Sales');
    const company = await ops.create(manager, 'company', { name: 'Acme' });
    const deal = await ops.create(manager, 'deal', { title: 'Forty seats', company: company.id, owner: owner.userId, value: 100 });
    const quiet = async (now: Date) => {
      await takeDueReminders(ctx, now, soon());
      await dispatchOutbox(ctx, {}, soon());
      return store.db.selectFrom(INBOX_TABLE).selectAll().where('user_id', '=', owner.userId).where('kind', '=', 'dealStale').execute();
    };
    const updated = new Date(deal.updatedAt).getTime();
    const days = (n: number) => new Date(updated + n * 86_400_000);
    expect(await quiet(days(13))).toHaveLength(0);
    const told = await quiet(days(14.1));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ title: '"Forty seats" has gone quiet' });
    expect(Number(told[0]!.record_id)).toBe(deal.id);
    expect(await quiet(days(30))).toHaveLength(1);
    // A change: the wait starts again from it (the real clock's now), and so does the reminder.
    const touched = await ops.update(manager, 'deal', deal.id, { value: 200 }, deal.version);
    const again = new Date(touched.updatedAt).getTime() + 15 * 86_400_000;
    expect(await quiet(new Date(again))).toHaveLength(2);
    await ops.transition(manager, 'deal', deal.id, 'lose', { version: touched.version, comment: 'Went elsewhere' });
    expect(await quiet(new Date(again + 30 * 86_400_000))).toHaveLength(2);
  });
});
