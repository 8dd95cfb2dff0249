import { sql } from 'kysely';
import { introspectSchema } from '../store/schema/introspect';
import { quoteIdent, quoteLiteral } from '../store/schema/sql';
import type { DatabaseKind, DynamicDatabase } from '../store/types';
import {
  BACKUP_FORMAT,
  type BackupEndLine,
  type BackupHeader,
  type BackupSectionLine,
  type BackupSequence,
  type BackupTable,
} from './format';
import { copiedTables, rowsAtOnce, SKIPPED_TABLES, type CopiedTable } from './tables';
import { rowExpression, TEXT_SETTINGS } from './values';

/*
 * The backup's writer. An administrator's tool that works below ops: it copies the database as
 * it is (every record, history row and account, password hashes included) without asking who
 * may read what, so it belongs to whoever holds the database itself, never to a door.
 */

/** Rows per keyset page: the memory held is one page, whatever the size of the table. */
const PAGE_ROWS = 1000;

export interface ExportProgress {
  readonly table: string;
  /** Rows written so far, of this table and of all. */
  readonly done: number;
  readonly total: number;
  readonly allDone: number;
  readonly allTotal: number;
}

export interface ExportOptions {
  readonly kind: DatabaseKind;
  readonly onProgress?: (progress: ExportProgress) => void;
  /** The time written in the header (tests fix it). */
  readonly now?: () => Date;
}

interface Snapshot {
  readonly trx: DynamicDatabase;
  end(): Promise<void>;
}

/**
 * A read-only repeatable-read transaction held open while the generator runs: every table is
 * read as of one moment, even while a server on the same PostgreSQL keeps writing.
 */
function openSnapshot(db: DynamicDatabase): Promise<Snapshot> {
  return new Promise((resolve, reject) => {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const done: Promise<void> = db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        resolve({
          trx,
          end: async () => {
            release();
            await done;
          },
        });
        await released;
      });
    done.catch(reject);
  });
}

async function sequenceOf(trx: DynamicDatabase, table: CopiedTable): Promise<BackupSequence | undefined> {
  if (!table.identity) return undefined;
  const { rows } = await sql<{
    name: string | null;
  }>`select pg_get_serial_sequence(${quoteIdent(table.name)}, ${table.identity}) as name`.execute(trx);
  const name = rows[0]?.name;
  if (!name) return undefined;
  const state = await sql<{
    last_value: string;
    is_called: boolean;
  }>`select last_value::text as last_value, is_called from ${sql.raw(name)}`.execute(trx);
  const row = state.rows[0];
  return row ? { column: table.identity, lastValue: row.last_value, isCalled: row.is_called } : undefined;
}

async function countRows(trx: DynamicDatabase, table: string): Promise<number> {
  const { rows } = await sql<{ n: string | number }>`select count(*) as n from ${sql.raw(quoteIdent(table))}`.execute(trx);
  return Number(rows[0]?.n ?? 0);
}

/** The rows of a table, one JSON array per line, in primary-key order, a page at a time. */
async function* tableLines(trx: DynamicDatabase, table: CopiedTable): AsyncGenerator<string[]> {
  const keyTypes = table.primaryKey.map((k) => table.columns.find((c) => c.name === k)?.type ?? 'text');
  const keys = table.primaryKey.map(quoteIdent);
  const keyText = keys.map((k, i) => `${k}::text as ${quoteIdent(`k${i}`)}`).join(', ');
  const base = `select ${keyText}, (${rowExpression(table.columns)})::text as line from ${quoteIdent(table.name)}`;
  const pageRows = rowsAtOnce(table.name, PAGE_ROWS);
  const order = `order by ${keys.join(', ')} limit ${pageRows}`;
  let after: string[] | null = null;
  for (;;) {
    // Keyset: the next page starts after the last key read, so each page costs the same.
    const where: string =
      after === null ? '' : `where (${keys.join(', ')}) > (${after.map((v, i) => `${quoteLiteral(v)}::${keyTypes[i]}`).join(', ')})`;
    const { rows } = await sql<PageRow>`${sql.raw(`${base} ${where} ${order}`)}`.execute(trx);
    const last = rows.at(-1);
    if (last === undefined) return;
    yield rows.map((r) => r.line);
    if (rows.length < pageRows) return;
    after = table.primaryKey.map((_, i) => pageKey(last, i));
  }
}

/** A row of a page: its line of JSON, and its primary key as text in the columns k0, k1, … */
type PageRow = { readonly line: string } & Readonly<Record<string, string>>;

/** The i-th key column of a page row (the page query selects one per primary-key column). */
function pageKey(row: PageRow, i: number): string {
  const value = row[`k${i}`];
  if (value === undefined) throw new Error(`The backup's page query returned no key column k${i}.`);
  return value;
}

/**
 * Every row of every table the backup copies, as lines of JSON (format.ts), without newlines.
 * Streams: one page of rows is in memory at a time.
 */
export async function* exportBackup(db: DynamicDatabase, options: ExportOptions): AsyncGenerator<string> {
  const snapshot = await openSnapshot(db);
  try {
    const { trx } = snapshot;
    for (const statement of TEXT_SETTINGS) await sql.raw(statement).execute(trx);
    const catalogue = await introspectSchema(trx);
    const tables = copiedTables(catalogue.tables);
    const described: BackupTable[] = [];
    const sections: { readonly table: CopiedTable; readonly total: number }[] = [];
    for (const table of tables) {
      const sequence = await sequenceOf(trx, table);
      const rows = await countRows(trx, table.name);
      described.push({
        name: table.name,
        columns: table.columns.map((c) => c.name),
        types: table.columns.map((c) => c.type),
        rows,
        ...(sequence ? { sequence } : {}),
      });
      sections.push({ table, total: rows });
    }
    const present = new Set(catalogue.tables.map((t) => t.name));
    const header: BackupHeader = {
      ninefold: 'backup',
      format: BACKUP_FORMAT,
      spec: catalogue.meta?.specName ?? null,
      fingerprint: catalogue.meta?.fingerprint ?? null,
      database: options.kind,
      exportedAt: (options.now?.() ?? new Date()).toISOString(),
      tables: described,
      skipped: Object.fromEntries(Object.entries(SKIPPED_TABLES).filter(([name]) => present.has(name))),
    };
    yield JSON.stringify(header);

    const allTotal = described.reduce((sum, t) => sum + t.rows, 0);
    let allDone = 0;
    let written = 0;
    for (const { table, total } of sections) {
      yield JSON.stringify({ table: table.name } satisfies BackupSectionLine);
      let done = 0;
      options.onProgress?.({ table: table.name, done, total, allDone, allTotal });
      for await (const page of tableLines(trx, table)) {
        for (const line of page) yield line;
        done += page.length;
        allDone += page.length;
        options.onProgress?.({ table: table.name, done, total, allDone, allTotal });
      }
      written += done;
    }
    yield JSON.stringify({ end: true, rows: written } satisfies BackupEndLine);
  } finally {
    await snapshot.end();
  }
}
