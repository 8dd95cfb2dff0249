import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';
import { createActor } from '@testing/engine/ops';
import { deskModel } from '@testing/engine/notify';
import type { Actor } from '../ground/actor';
import type { StoreOptions } from '../store/types';
import { INBOX_TABLE, MAIL_TABLE } from '../store/schema/notify-tables';
import { dispatchOutbox } from './dispatch';

/*
 * The outbox across a real crash: a child process assigns tickets and dispatches their
 * notifications at once, and is killed with SIGKILL at a random moment, three times over. What
 * it acknowledged is there, and every assignment that committed (acknowledged or not) reaches its
 * assignee exactly once per channel, whether the dead process delivered it or the next one did.
 */
const FIXTURE = 'src/engine/notify/fixtures/outbox-writer.ts';
const ROUNDS = 3;

/** Runs the writer until it has acknowledged `acks` assignments (and a few ms more), then kills it with -9. */
async function runAndKill(options: StoreOptions, agent: Actor, assignee: Actor, acks: number): Promise<number[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, JSON.stringify({ store: options, agent, assignee })], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? `code ${code}`)));
  const acked: number[] = [];
  const lines = createInterface({ input: child.stdout });
  await new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => {
      const id = /^ack (\d+)$/.exec(line)?.[1];
      if (id) acked.push(Number(id));
      if (acked.length === acks) setTimeout(resolve, Math.random() * 20);
    });
    void exited.then((how) => reject(new Error(`the writer exited (${how}) after ${acked.length} acks: ${stderr.slice(-2000)}`)));
  });
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  lines.close();
  return acked;
}

forEachDatabase('notifications: the outbox across kill -9', (database) => {
  it('a process killed with -9 while it writes and dispatches loses no notification and delivers none twice', async () => {
    const setup = await database.openSynced(deskModel);
    const agent = await createActor(setup.db, ['agent'], 'Ada Agent');
    const assignee = await createActor(setup.db, ['agent'], 'Otto Agent');
    await setup.close();

    const acked: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      acked.push(...(await runAndKill(await database.options(), agent, assignee, 15 + Math.floor(Math.random() * 25))));
    }

    const store = await database.open();
    const mailer = { send: async () => {} };
    let left = 0;
    for (let run = await dispatchOutbox({ model: deskModel, db: store.db }, { mailer }, Date.now() + 30_000); run.dispatched > 0;) {
      left += run.dispatched;
      run = await dispatchOutbox({ model: deskModel, db: store.db }, { mailer }, Date.now() + 30_000);
    }

    const assigned = (
      await sql<{ id: number }>`select id from ticket where assignee = ${assignee.userId} order by id`.execute(store.db)
    ).rows.map((row) => Number(row.id));
    // Nothing acknowledged is lost (the committed but unacknowledged are in `assigned` too).
    expect(assigned).toEqual(expect.arrayContaining(acked));
    expect(acked.length).toBeGreaterThanOrEqual(ROUNDS * 15);

    const deliveries = async (table: string) =>
      (
        await sql<{ record_id: number; n: number }>`
            select record_id, count(*)::int as n from ${sql.table(table)}
            where user_id = ${assignee.userId} and kind = 'ticketAssigned' group by record_id order by record_id`.execute(store.db)
      ).rows.map((row) => ({ record: Number(row.record_id), n: Number(row.n) }));
    const once = assigned.map((record) => ({ record, n: 1 }));
    expect(await deliveries(INBOX_TABLE)).toEqual(once);
    expect(await deliveries(MAIL_TABLE)).toEqual(once);
    expect(
      Number((await sql<{ n: number }>`select count(*)::int as n from nf_outbox where done_at is null`.execute(store.db)).rows[0]!.n),
    ).toBe(0);
    // Logged so a run shows how much the dead processes left to the next one.
    console.info(`${database.kind}: ${acked.length} acknowledged, ${assigned.length} committed, ${left} delivered after the kills`);
    await store.close();
  }, 180_000);
});
