import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { createDatabase, type BenchDatabase } from '../../bench/lib/databases';
import { onCleanup } from '../../bench/lib/processes';
import { freePort } from '../../bench/lib/server';
import { Api, type Ticket } from '../lib/api';
import { DB_LABEL, type Context, type DatabaseKind } from '../lib/context';
import { fmt, row, type Row } from '../lib/report';
import { ninefold, prepareDatabase } from '../lib/setup';
import { startServer, stopServer } from '../lib/server';
import { oneLine } from './crash';

/**
 * Tables a backup need not carry, decided here and not read from the exporter (which is what is
 * being checked): sign-in state and throttles, a setup code, the schema sync's own record, and
 * running totals that triggers recount. Every other table must come back row for row.
 */
const NOT_COMPARED = new Set(['nf_session', 'nf_sign_in_attempt', 'nf_setup_code', 'nf_meta', 'nf_tally']);

interface Source {
  readonly database: BenchDatabase;
  readonly file: string;
  readonly token: string;
  readonly lines: number;
  readonly tables: Map<string, string[]>;
}

let source: Promise<Source> | null = null;

/** One seeded PGlite database and its export, shared by the imports into each kind of database. */
function exportedSource(ctx: Context): Promise<Source> {
  source ??= (async () => {
    const database = await createDatabase('pglite', ctx.config.postgresUrl);
    const token = await prepareDatabase(ctx.root, database.env, { seed: ctx.config.quick ? 200 : 1000 });
    const dir = mkdtempSync(path.join(tmpdir(), 'nf-soak-backup-'));
    onCleanup(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'backup.jsonl');
    await ninefold(ctx.root, database.env, ['export', '--out', file]);
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
    return { database, file, token, lines, tables: await readTables(database) };
  })();
  return source;
}

/**
 * Backup: export a seeded database (records, history, users, tokens) with the CLI, import it into
 * a fresh database of each kind, and compare every table row for row by reading both databases
 * directly. The copy must also take new writes (its id sequences continue after the copied ids).
 */
export async function backupScenario(ctx: Context, kind: DatabaseKind): Promise<Row> {
  const help = await ninefold(ctx.root, {}, ['help'], true);
  if (!/^\s+export\b/m.test(help.stdout) || !/^\s+import\b.*jsonl|^\s+import <file/m.test(help.stdout)) {
    return row({
      scenario: 'backup (export → import)',
      database: DB_LABEL[kind],
      tried: '-',
      lost: null,
      figures: '',
      result: 'not available',
      problems: ['not available: `npm run ninefold -- help` lists no export / JSON lines import yet'],
    });
  }
  const problems: string[] = [];
  const from = await exportedSource(ctx);
  const target = await createDatabase(kind, ctx.config.postgresUrl);
  try {
    // Restored as the README says: a fresh database synced for the spec, then the backup.
    await ninefold(ctx.root, target.env, ['migrate']);
    const imported = await ninefold(ctx.root, target.env, ['import', from.file], true);
    if (imported.code !== 0) {
      return row({
        scenario: 'backup (export → import)',
        database: DB_LABEL[kind],
        tried: `import of ${fmt(from.lines)} lines`,
        lost: null,
        figures: '',
        problems: [`import failed (exit ${imported.code}): ${oneLine(imported.stderr || imported.stdout).slice(-400)}`],
      });
    }
    const copied = await readTables(target);
    let lost = 0;
    let rows = 0;
    const compared: string[] = [];
    for (const [table, sourceRows] of from.tables) {
      if (NOT_COMPARED.has(table)) continue;
      compared.push(table);
      rows += sourceRows.length;
      const targetRows = copied.get(table);
      if (!targetRows) {
        lost += sourceRows.length;
        problems.push(`table ${table} (${sourceRows.length} rows) is missing from the copy`);
        continue;
      }
      const left = multisetMinus(sourceRows, targetRows);
      const extra = multisetMinus(targetRows, sourceRows);
      lost += left.length;
      if (left.length || extra.length)
        problems.push(
          `${table}: ${left.length} of ${sourceRows.length} rows not found as they were, ${extra.length} rows not in the source; e.g. ${describeDifference(left[0], extra)}`,
        );
    }
    // The copy takes new writes: its ids continue after the copied ones (the source's token was copied too).
    const port = await freePort();
    const api = new Api({ url: `http://127.0.0.1:${port}` }, from.token);
    const { server } = await startServer({ root: ctx.root, port, env: target.env, logFile: ctx.logFile(`backup-${kind}`) });
    let writable = 'no';
    try {
      const maxId = Math.max(0, ...(from.tables.get('ticket') ?? []).map((j) => Number((JSON.parse(j) as { id: number }).id)));
      const created: Ticket = await api.createTicket({ subject: 'Written after the restore' });
      writable = created.id > maxId ? `yes (new ticket #${created.id})` : `id ${created.id} reused`;
      if (created.id <= maxId) problems.push(`a ticket created after the import got id ${created.id}, not after the copied ${maxId}`);
    } catch (error) {
      problems.push(`the copy does not take a new ticket with the copied token: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      await stopServer(server);
    }
    return row({
      scenario: 'backup (export → import)',
      database: DB_LABEL[kind],
      tried: `PGlite seeded → ${fmt(from.lines)} JSON lines → fresh ${DB_LABEL[kind]}: ${compared.length} tables, ${fmt(rows)} rows compared`,
      lost,
      figures: `tables: ${compared.map((t) => `${t} ${fmt(from.tables.get(t)!.length)}`).join(', ')}; writable after: ${writable}`,
      problems,
    });
  } finally {
    await target.remove();
  }
}

/** Every row of every table as canonical JSON (jsonb orders keys), times in UTC. */
async function readTables(database: BenchDatabase): Promise<Map<string, string[]>> {
  const tablesSql = `select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`;
  const rowsSql = (table: string) => `select to_jsonb(t)::text as j from "${table.replace(/"/g, '""')}" t`;
  const out = new Map<string, string[]>();
  if (database.kind === 'pglite') {
    const db = await PGlite.create({ dataDir: database.env.DATA_DIR });
    try {
      await db.exec(`set timezone = 'UTC'`);
      for (const { name } of (await db.query<{ name: string }>(tablesSql)).rows) {
        out.set(name, (await db.query<{ j: string }>(rowsSql(name))).rows.map((r) => r.j).sort());
      }
    } finally {
      await db.close();
    }
    return out;
  }
  const client = new pg.Client({ connectionString: database.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(`set timezone = 'UTC'`);
    for (const { name } of (await client.query<{ name: string }>(tablesSql)).rows) {
      out.set(name, (await client.query<{ j: string }>(rowsSql(name))).rows.map((r) => r.j).sort());
    }
  } finally {
    await client.end();
  }
  return out;
}

function multisetMinus(a: readonly string[], b: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const x of b) counts.set(x, (counts.get(x) ?? 0) + 1);
  const left: string[] = [];
  for (const x of a) {
    const n = counts.get(x) ?? 0;
    if (n > 0) counts.set(x, n - 1);
    else left.push(x);
  }
  return left;
}

/** Which columns of a source row differ in the copy's row with the same id (or that it has none). */
function describeDifference(missing: string | undefined, extra: readonly string[]): string {
  if (!missing) return 'rows that are only in the copy';
  const wanted = JSON.parse(missing) as Record<string, unknown>;
  const twin = extra.map((e) => JSON.parse(e) as Record<string, unknown>).find((e) => e.id !== undefined && e.id === wanted.id);
  if (!twin) return `no row with id ${String(wanted.id)}`;
  const keys = Object.keys(wanted).filter((k) => JSON.stringify(wanted[k]) !== JSON.stringify(twin[k]));
  return `id ${String(wanted.id)} differs in ${keys.map((k) => `${k} (${JSON.stringify(wanted[k])?.slice(0, 40)} → ${JSON.stringify(twin[k])?.slice(0, 40)})`).join(', ')}`;
}
