/**
 * How long a CSV import of N tickets takes, per phase, on a fresh PGlite and a fresh PostgreSQL
 * database (BENCH_POSTGRES_URL), then the export of those N tickets as the list's CSV (every
 * page, read as the file is consumed) with the most the heap grew meanwhile:
 *
 *   npx tsx bench/csv-import.ts [--rows 100000] [--db pglite|postgres|both]
 *
 * The file is what people import: subject, priority by label, a two-line description with a
 * comma, a due date. Prints a Markdown table; nothing is asserted.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { importCsv, type ImportProgress } from '../src/engine/csv/import-csv';
import { openEngine } from '../src/engine/open-engine';
import { settingsFromEnv } from '../src/engine/settings';
import { listCsv } from '../src/server/csv/export-csv';
import { listColumns } from '../src/ui/columns';
import { knownEntity } from '../src/ui/known-names';
import { SYSTEM_ACTOR } from '../src/engine/identity/system-actor';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '100000' }, db: { type: 'string', default: 'both' } } });
const rows = Number(values.rows);
const POSTGRES = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const CUSTOMER_EMAIL = 'customer@example.com';

function csvFile(n: number): Uint8Array {
  const priorities = ['low', 'Normal', 'High'];
  // Filed for a customer, by email: a helpdesk ticket's requester is a customer.
  const lines = ['Subject,Priority,Requester,Description,Due'];
  for (let i = 0; i < n; i++) {
    lines.push(
      `Imported ticket number ${i},${priorities[i % 3]},${CUSTOMER_EMAIL},"Something about item ${i}, with a comma\nand a second line",2031-01-${String((i % 28) + 1).padStart(2, '0')}`,
    );
  }
  return new TextEncoder().encode(`${lines.join('\r\n')}\r\n`);
}

async function measure(kind: 'pglite' | 'postgres', file: Uint8Array): Promise<Record<string, number | string>> {
  const name = `nf_bench_csv_${randomBytes(4).toString('hex')}`;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'nf-bench-csv-'));
  let databaseUrl: string | undefined;
  if (kind === 'postgres') {
    const admin = new pg.Client({ connectionString: POSTGRES });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(POSTGRES);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  const engine = await openEngine({ ...settingsFromEnv({ ...process.env, DATA_DIR: dataDir }), databaseUrl });
  try {
    const user = await engine.identity.createUser(SYSTEM_ACTOR, {
      email: 'bench@example.com',
      password: 'a long password',
      roles: ['admin'],
    });
    await engine.identity.createUser(SYSTEM_ACTOR, { email: CUSTOMER_EMAIL, password: 'a long password', roles: ['customer'] });
    const actor = { userId: user.id, email: user.email, name: user.name, roles: user.roles };
    const started = performance.now();
    const phases = new Map<ImportProgress['phase'], number>();
    const report = await importCsv(engine.ops, engine.model, actor, 'ticket', file, {
      maxBytes: file.length,
      onProgress: (p) => {
        if (!phases.has(p.phase)) phases.set(p.phase, performance.now());
      },
    });
    const done = performance.now();
    // The export, consumed chunk by chunk (as a download is); the heap sampled at every chunk.
    const entity = knownEntity(engine.model, 'ticket');
    const { columns } = listColumns(engine.model, entity, new Set(engine.ops.access(actor, 'ticket').readable));
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    let bytes = 0;
    const exportStart = performance.now();
    const reader = (await listCsv(engine.ops, actor, entity, {}, columns)).getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      bytes += chunk.value.byteLength;
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }
    const exportDone = performance.now();
    const at = (phase: ImportProgress['phase']) => phases.get(phase) ?? done;
    const seconds = (ms: number) => Number((ms / 1000).toFixed(1));
    return {
      database: kind,
      rows: report.rows,
      created: report.created,
      'read + look up (s)': seconds(at('checking') - started),
      'check (s)': seconds(at('writing') - at('checking')),
      'write (s)': seconds(done - at('writing')),
      'total (s)': seconds(done - started),
      'rows/s': Math.round(report.created / ((done - started) / 1000)),
      'RSS after (MB)': Math.round(process.memoryUsage().rss / 1024 / 1024),
      'export (s)': seconds(exportDone - exportStart),
      'export (MB)': Number((bytes / 1024 / 1024).toFixed(1)),
      'export heap growth, peak (MB)': Math.round((heapPeak - heapBefore) / 1024 / 1024),
    };
  } finally {
    await engine.close();
    await fs.rm(dataDir, { recursive: true, force: true });
    if (kind === 'postgres') {
      const admin = new pg.Client({ connectionString: POSTGRES });
      await admin.connect();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }
}

const file = csvFile(rows);
const kinds = values.db === 'both' ? (['pglite', 'postgres'] as const) : [values.db as 'pglite' | 'postgres'];
const results = [];
for (const kind of kinds) results.push(await measure(kind, file));
const columns = Object.keys(results[0] ?? {});
console.log(
  `\nCSV import of ${rows.toLocaleString('en-US')} tickets (${(file.length / 1024 / 1024).toFixed(1)} MB), ${os.cpus().length} CPUs\n`,
);
console.log(`| ${columns.join(' | ')} |\n| ${columns.map(() => '---').join(' | ')} |`);
for (const r of results) console.log(`| ${columns.map((c) => r[c]).join(' | ')} |`);
