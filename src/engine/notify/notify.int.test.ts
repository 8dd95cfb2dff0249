import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';
import { createActor } from '@testing/engine/ops';
import { deskModel } from '@testing/engine/notify';
import { createOps } from '../ops/create-ops';
import { atomically } from '../ops/atomic';
import type { Ops } from '../ops/ops';
import type { Store } from '../store/types';
import type { Actor } from '../ground/actor';
import { INBOX_TABLE, OUTBOX_TABLE, WATCH_TABLE } from '../store/schema/notify-tables';
import { dispatchOutbox } from './dispatch';
import { createScheduler } from '../scheduler/scheduler';

const soon = () => Date.now() + 10_000;

forEachDatabase('notifications: outbox and dispatcher', (database) => {
  let store: Store;
  let ops: Ops;
  let agent: Actor;
  let other: Actor;
  let customer: Actor;

  beforeAll(async () => {
    store = await database.openSynced(deskModel);
    ops = createOps({ model: deskModel, db: store.db });
    agent = await createActor(store.db, ['agent'], 'Ada Agent');
    other = await createActor(store.db, ['agent'], 'Otto Agent');
    customer = await createActor(store.db, ['customer'], 'Cora Customer');
  });
  afterAll(() => store.close());

  const ctx = () => ({ model: deskModel, db: store.db });
  const inbox = (user: Actor) => store.db.selectFrom(INBOX_TABLE).selectAll().where('user_id', '=', user.userId).orderBy('id').execute();
  const pending = async () =>
    Number((await sql<{ n: number }>`select count(*)::int as n from nf_outbox where done_at is null`.execute(store.db)).rows[0]!.n);
  const drain = () => dispatchOutbox(ctx(), {}, soon());

  it('tells the new assignee, not the one who assigned; writes the outbox in the change and nothing for unmatched changes', async () => {
    await drain();
    const before = (await inbox(other)).length;
    const ticket = await ops.create(agent, 'ticket', { subject: 'Printer jam', secret: 'PIN 4711', requester: customer.userId });
    expect(await pending()).toBe(0);
    const assigned = await ops.update(agent, 'ticket', ticket.id, { assignee: other.userId }, ticket.version);
    expect(await pending()).toBe(1);
    await drain();
    const got = (await inbox(other)).slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ title: `Ticket ${ticket.id} was assigned to you`, body: 'Printer jam: PIN 4711', entity: 'ticket' });
    // Assigning oneself tells nobody.
    await ops.update(agent, 'ticket', ticket.id, { assignee: agent.userId }, assigned.version);
    await drain();
    expect(await inbox(agent)).toHaveLength(0);
    expect(await pending()).toBe(0);
  });

  it('a rollback sends none: the outbox row goes with the change', async () => {
    const ticket = await ops.create(agent, 'ticket', { subject: 'Rolled back' });
    const outboxBefore = Number(
      (
        await store.db
          .selectFrom(OUTBOX_TABLE)
          .select(sql<number>`count(*)::int`.as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    await expect(
      atomically(ctx(), async (inTrx) => {
        await inTrx.update(agent, 'ticket', ticket.id, { assignee: other.userId }, ticket.version);
        throw new Error('the call fails after the change');
      }),
    ).rejects.toThrow('the call fails');
    const outboxAfter = Number(
      (
        await store.db
          .selectFrom(OUTBOX_TABLE)
          .select(sql<number>`count(*)::int`.as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(outboxAfter).toBe(outboxBefore);
    await drain();
    expect((await inbox(other)).filter((n) => Number(n.record_id) === ticket.id)).toHaveLength(0);
  });

  it('never carries a field its recipient may not read; a watcher who may read it gets it', async () => {
    const ticket = await ops.create(agent, 'ticket', { subject: 'Leaky roof', secret: 'XYZZY', requester: customer.userId });
    await ops.update(agent, 'ticket', ticket.id, { assignee: other.userId }, ticket.version);
    await store.db
      .insertInto(WATCH_TABLE)
      .values({ user_id: agent.userId, entity: 'ticket', record_id: ticket.id, mode: 'watch' })
      .execute();
    await ops.create(other, 'reply', { ticket: ticket.id, body: 'Fixed it' });
    await ops.create(other, 'reply', { ticket: ticket.id, body: 'Note to self', internal: true });
    const current = await ops.get(agent, 'ticket', ticket.id);
    await ops.transition(other, 'ticket', ticket.id, 'resolve', { version: current.record.version });
    await drain();
    const mine = (await inbox(customer)).filter((n) => Number(n.record_id) === ticket.id || n.entity === 'reply');
    const resolved = mine.find((n) => n.kind === 'ticketResolved')!;
    expect(resolved).toMatchObject({ title: 'Leaky roof was resolved', body: 'Secret: (hidden). Assignee: (hidden).' });
    const replies = mine.filter((n) => n.kind === 'replied');
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ title: 'Reply on Leaky roof', body: 'Fixed it ((hidden))' });
    expect(JSON.stringify(await inbox(customer))).not.toContain('XYZZY');
    const watcher = (await inbox(agent)).filter((n) => n.kind === 'ticketResolved' && Number(n.record_id) === ticket.id);
    expect(watcher[0]).toMatchObject({ body: 'Secret: XYZZY. Assignee: Otto Agent.' });
    expect((await inbox(agent)).filter((n) => n.kind === 'replied' && String(n.body).startsWith('Fixed it'))).toHaveLength(1);
  });

  it('a disabled user, or one who can no longer read the record, gets nothing', async () => {
    const gone = await createActor(store.db, ['agent'], 'Gone Agent');
    const demoted = await createActor(store.db, ['agent'], 'Demoted Agent');
    const ticket = await ops.create(customer, 'ticket', { subject: 'Nobody hears' });
    for (const user of [gone, demoted, other]) {
      await store.db
        .insertInto(WATCH_TABLE)
        .values({ user_id: user.userId, entity: 'ticket', record_id: ticket.id, mode: 'watch' })
        .execute();
    }
    await ops.transition(agent, 'ticket', ticket.id, 'resolve', { version: ticket.version });
    await store.db.updateTable('nf_user').set({ disabled_at: new Date() }).where('id', '=', gone.userId).execute();
    await store.db
      .updateTable('nf_user')
      .set({ roles: sql`'{customer}'::text[]` })
      .where('id', '=', demoted.userId)
      .execute();
    await drain();
    expect(await inbox(gone)).toHaveLength(0);
    expect(await inbox(demoted)).toHaveLength(0);
    expect((await inbox(other)).filter((n) => Number(n.record_id) === ticket.id)).toHaveLength(1);
  });

  it('a muted record tells its user nothing', async () => {
    const ticket = await ops.create(customer, 'ticket', { subject: 'Muted' });
    await store.db
      .insertInto(WATCH_TABLE)
      .values({ user_id: other.userId, entity: 'ticket', record_id: ticket.id, mode: 'mute' })
      .execute();
    await ops.update(agent, 'ticket', ticket.id, { assignee: other.userId }, ticket.version);
    await drain();
    expect((await inbox(other)).filter((n) => Number(n.record_id) === ticket.id)).toHaveLength(0);
  });

  it("a committed change's outbox survives the process: a new one delivers it", async () => {
    const ticket = await ops.create(agent, 'ticket', { subject: 'Across a restart' });
    await ops.update(agent, 'ticket', ticket.id, { assignee: other.userId }, ticket.version);
    await store.close();
    store = await database.open();
    ops = createOps({ model: deskModel, db: store.db });
    expect(await pending()).toBe(1);
    await drain();
    expect((await inbox(other)).filter((n) => Number(n.record_id) === ticket.id)).toHaveLength(1);
  });

  it('the scheduler of a process is nudged by its own commit: no tick needed', async () => {
    const scheduler = createScheduler(ctx(), { intervalSeconds: 3600 });
    scheduler.start();
    try {
      await expect.poll(() => pending(), { timeout: 10_000 }).toBe(0);
      const ticket = await ops.create(agent, 'ticket', { subject: 'Nudged' });
      await ops.update(agent, 'ticket', ticket.id, { assignee: other.userId }, ticket.version);
      await expect
        .poll(async () => (await inbox(other)).filter((n) => Number(n.record_id) === ticket.id).length, { timeout: 10_000 })
        .toBe(1);
    } finally {
      await scheduler.stop();
    }
  });

  if (database.kind === 'postgres') {
    it('two processes dispatching at once deliver each notification once', async () => {
      const tickets = await Promise.all(Array.from({ length: 40 }, (_, i) => ops.create(agent, 'ticket', { subject: `Race ${i}` })));
      await Promise.all(tickets.map((t) => ops.update(agent, 'ticket', t.id, { assignee: other.userId }, t.version)));
      const second = await database.open();
      try {
        const runs = await Promise.all([
          dispatchOutbox(ctx(), {}, soon()),
          dispatchOutbox({ model: deskModel, db: second.db }, {}, soon()),
          dispatchOutbox(ctx(), {}, soon()),
          dispatchOutbox({ model: deskModel, db: second.db }, {}, soon()),
        ]);
        const ids = tickets.map((t) => t.id);
        const got = (await inbox(other)).filter((n) => ids.includes(Number(n.record_id)));
        expect(got).toHaveLength(40);
        expect(new Set(got.map((n) => Number(n.record_id))).size).toBe(40);
        expect(runs.reduce((sum, run) => sum + run.dispatched, 0)).toBe(40);
      } finally {
        await second.close();
      }
    });

    it('a process killed mid-dispatch loses none and sends none twice', async () => {
      const ticket = await ops.create(agent, 'ticket', { subject: 'Dispatcher dies' });
      await ops.update(agent, 'ticket', ticket.id, { assignee: other.userId }, ticket.version);
      const dying = await database.open();
      let backend = 0;
      let written = false;
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      // The dying process claims the row and writes its delivery, and is killed before it commits.
      const claimed = dying.db.transaction().execute(async (trx) => {
        backend = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid;
        const row = (
          await sql<{ id: string }>`select id from nf_outbox where done_at is null order by id limit 1 for update skip locked`.execute(trx)
        ).rows[0]!;
        await trx
          .insertInto(INBOX_TABLE)
          .values({
            user_id: other.userId,
            outbox_id: Number(row.id),
            kind: 'ticketAssigned',
            entity: 'ticket',
            record_id: ticket.id,
            title: 'dying',
          })
          .execute();
        written = true;
        await held;
      });
      await expect.poll(() => written, { timeout: 10_000 }).toBe(true);
      // While it lives, its claim is skipped, not waited for.
      expect((await drain()).dispatched).toBe(0);
      await sql`select pg_terminate_backend(${backend})`.execute(store.db);
      await expect
        .poll(
          async () =>
            (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where pid = ${backend}`.execute(store.db)).rows[0]!.n,
          {
            timeout: 10_000,
          },
        )
        .toBe(0);
      expect((await drain()).dispatched).toBe(1);
      const got = (await inbox(other)).filter((n) => Number(n.record_id) === ticket.id);
      expect(got).toHaveLength(1);
      expect(got[0]!.title).toBe(`Ticket ${ticket.id} was assigned to you`);
      expect((await drain()).dispatched).toBe(0);
      release();
      await claimed.catch(() => undefined);
      await dying.close().catch(() => undefined);
    });
  }
});
