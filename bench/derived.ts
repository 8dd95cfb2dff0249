/**
 * Derived fields (a maintained column kept by triggers, store/schema/derived.ts) against the
 * alternative, an indexed correlated subquery per row: the helpdesk with T tickets and C
 * comments (C/T per ticket, one in four internal), on a fresh PGlite (or PostgreSQL with
 * BENCH_POSTGRES_URL and --db postgres):
 *
 *   npx tsx bench/derived.ts [--tickets 1000] [--comments 100000] [--db pglite|postgres]
 *
 * Prints a Markdown table; nothing is asserted.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { sql } from 'kysely';
import { loadSpecFile } from '../src/engine/spec/load-file';
import { openStore } from '../src/engine/store/open-store';
import { syncSchema } from '../src/engine/store/schema/sync';
import { createOps } from '../src/engine/ops/create-ops';
import { createIdentity } from '../src/engine/identity/identity';
import { SYSTEM_ACTOR } from '../src/engine/identity/system-actor';

const { values } = parseArgs({
  options: {
    tickets: { type: 'string', default: '1000' },
    comments: { type: 'string', default: '100000' },
    db: { type: 'string', default: 'pglite' },
  },
});
const TICKETS = Number(values.tickets);
const COMMENTS = Number(values.comments);
const POSTGRES = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function timed(runs: number, run: () => Promise<unknown>): Promise<number> {
  await run();
  const start = performance.now();
  for (let i = 0; i < runs; i++) await run();
  return (performance.now() - start) / runs;
}

async function main(): Promise<void> {
  const model = await loadSpecFile('examples/helpdesk/ninefold.spec.ts');
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'nf-bench-derived-'));
  let databaseUrl: string | undefined;
  const name = `nf_bench_derived_${randomBytes(4).toString('hex')}`;
  if (values.db === 'postgres') {
    const admin = new pg.Client({ connectionString: POSTGRES });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(POSTGRES);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  const store = await openStore({ dataDir, ...(databaseUrl ? { databaseUrl } : {}) });
  const figures: [string, string][] = [];
  try {
    await syncSchema(store, model);
    const identity = createIdentity(store.db, ['admin', 'agent', 'customer']);
    const account = await identity.createUser(SYSTEM_ACTOR, {
      email: 'bench@example.com',
      password: 'correct horse battery',
      name: 'Bench',
      roles: ['agent'],
    });
    const agent = { userId: account.id, email: account.email, name: account.name, roles: account.roles };
    const ops = createOps({ model, db: store.db });

    // The data, in statements of 5,000 rows: each comment statement recounts the tickets it touched.
    await sql`insert into ticket (subject, priority, requester, state, sla_due_at)
      select 'Ticket ' || g, 'normal', ${account.id}, 'open', now() from generate_series(1, ${TICKETS}::int) g`.execute(store.db);
    const load = performance.now();
    for (let done = 0; done < COMMENTS; done += 5000) {
      const n = Math.min(5000, COMMENTS - done);
      await sql`insert into comment (ticket, body, internal)
        select (select min(id) from ticket) + (g % ${TICKETS}::int), 'Comment ' || g, g % 4 = 0
        from generate_series(${done + 1}::int, ${done + n}::int) g`.execute(store.db);
    }
    figures.push([
      `load ${COMMENTS} comments in statements of 5,000 (triggers keeping reply_count)`,
      `${(performance.now() - load).toFixed(0)} ms`,
    ]);

    const page = await timed(20, () => ops.list(agent, 'ticket', { sort: '-replyCount', limit: 50 }));
    figures.push(['ops.list tickets sorted by -replyCount, 50 rows (maintained column)', `${page.toFixed(1)} ms`]);
    const first = await ops.list(agent, 'ticket', { sort: '-replyCount', limit: 50 });
    const next = first.nextCursor;
    if (next) {
      const second = await timed(20, () => ops.list(agent, 'ticket', { sort: '-replyCount', limit: 50, cursor: next }));
      figures.push(['  its second page (keyset)', `${second.toFixed(1)} ms`]);
    }
    const subquery = await timed(20, () =>
      sql`select t.id, (select count(*) from comment c where c.ticket = t.id and c.internal = false) as n
          from ticket t order by n desc, t.id desc limit 50`.execute(store.db),
    );
    figures.push(['raw SQL: the same page by a correlated subquery per ticket (the alternative)', `${subquery.toFixed(1)} ms`]);

    const ticketId = Number(first.rows[0]?.id);
    let i = 0;
    const write = await timed(30, () => ops.create(agent, 'comment', { ticket: ticketId, body: `Bench reply ${++i}` }));
    figures.push([
      'ops.create a comment on a ticket with ~' + Math.round(COMMENTS / TICKETS) + ' comments (recount in the same transaction)',
      `${write.toFixed(1)} ms`,
    ]);
    const internal = await timed(30, () => ops.create(agent, 'comment', { ticket: ticketId, body: `Bench note ${++i}`, internal: true }));
    figures.push(['ops.create an internal comment (not counted, same recount)', `${internal.toFixed(1)} ms`]);
  } finally {
    await store.close();
    await fs.rm(dataDir, { recursive: true, force: true });
    if (databaseUrl) {
      const admin = new pg.Client({ connectionString: POSTGRES });
      await admin.connect();
      await admin.query(`drop database if exists ${name}`);
      await admin.end();
    }
  }
  console.log(`| ${values.db}: ${TICKETS} tickets, ${COMMENTS} comments | time |\n| --- | --- |`);
  for (const [what, time] of figures) console.log(`| ${what} | ${time} |`);
}

await main();
