import { sql } from 'kysely';
import { z } from 'zod';
import type { AppModel } from '../spec/model';
import { introspectSchema } from '../store/schema/introspect';
import { identList, quoteIdent } from '../store/schema/sql';
import { installTallies } from '../store/schema/tally';
import type { CatalogueColumn, CatalogueTable } from '../store/schema/types';
import type { DynamicDatabase } from '../store/types';
import { BackupRefused } from './backup-refused';
import { BACKUP_FORMAT, BACKUP_MARK, BATCH_ROWS, type BackupHeader, type BackupTable } from './format';
import { copiedTables, isSkipped, rowsAtOnce } from './tables';
import { importExpression, TEXT_SETTINGS } from './values';

/*
 * The backup's reader. Like the export, an administrator's tool below ops: it writes rows as they
 * were (ids, versions, authors, times, password hashes) into an empty database whose schema was
 * synced for the same spec, in one transaction, streaming the file a batch at a time.
 */

export interface ImportProgress {
  readonly table: string;
  readonly done: number;
  readonly total: number;
  readonly allDone: number;
  readonly allTotal: number;
}

export interface ImportOptions {
  /** The spec the database was synced with: a backup of another spec is refused. */
  readonly model: AppModel;
  /** Called with the header once it is checked, before any row is written. */
  readonly onHeader?: (header: BackupHeader) => void;
  readonly onProgress?: (progress: ImportProgress) => void;
  /** Rows per INSERT (default BATCH_ROWS). */
  readonly batchRows?: number;
}

export interface ImportReport {
  readonly tables: readonly { readonly name: string; readonly rows: number }[];
  readonly rows: number;
}

const headerSchema = z.object({
  ninefold: z.literal('backup'),
  format: z.number().int(),
  spec: z.string().nullable(),
  fingerprint: z.string().nullable(),
  database: z.enum(['pglite', 'postgres']),
  exportedAt: z.string(),
  tables: z.array(
    z.object({
      name: z.string().min(1),
      columns: z.array(z.string().min(1)),
      types: z.array(z.string()),
      rows: z.number().int().min(0),
      sequence: z.object({ column: z.string(), lastValue: z.string().regex(/^-?\d+$/), isCalled: z.boolean() }).optional(),
    }),
  ),
  skipped: z.record(z.string(), z.string()),
});

const sectionSchema = z.object({ table: z.string() }).strict();
const endSchema = z.object({ end: z.literal(true), rows: z.number().int().min(0) }).strict();

/** Numbers the lines, skipping blank ones (a trailing newline, a CRLF file). */
async function* numbered(lines: AsyncIterable<string>): AsyncGenerator<{ text: string; line: number }> {
  let line = 0;
  for await (const raw of lines) {
    line += 1;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim() !== '') yield { text, line };
  }
}

function parseJson(text: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BackupRefused(`This is not valid JSON (${error instanceof Error ? error.message : String(error)}).`, line);
  }
}

function parseHeader(text: string | undefined): BackupHeader {
  if (text === undefined) throw new BackupRefused('The file is empty: it is not a Ninefold backup.');
  const value = parseJson(text, 1);
  if (typeof value !== 'object' || value === null || (value as Record<string, unknown>)[BACKUP_MARK] !== 'backup') {
    throw new BackupRefused(
      'This is not a Ninefold backup (its first line is not a backup header; `npm run ninefold -- export` makes one).',
      1,
    );
  }
  const parsed = headerSchema.safeParse(value);
  if (!parsed.success)
    throw new BackupRefused(
      `The backup header is damaged: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}.`,
      1,
    );
  if (parsed.data.format !== BACKUP_FORMAT) {
    throw new BackupRefused(`The backup has format ${parsed.data.format}; this version of Ninefold reads format ${BACKUP_FORMAT}.`, 1);
  }
  return parsed.data as BackupHeader;
}

/** A table of the backup, matched against the database: how to insert its rows. */
interface TablePlan {
  readonly backup: BackupTable;
  readonly target: CatalogueTable;
  /** `insert ... select <values> from jsonb_array_elements(` — the batch (a JSON array of rows) follows. */
  readonly insertPrefix: string;
}

function planTables(header: BackupHeader, catalogue: readonly CatalogueTable[]): TablePlan[] {
  const byName = new Map(catalogue.map((t) => [t.name, t]));
  const problems: string[] = [];
  const plans: TablePlan[] = [];
  const seen = new Set<string>();
  for (const backup of header.tables) {
    if (seen.has(backup.name)) problems.push(`the table ${backup.name} is listed twice`);
    seen.add(backup.name);
    const target = byName.get(backup.name);
    if (!target || isSkipped(backup.name)) {
      problems.push(`the backup has a table ${backup.name} that this database ${target ? 'does not restore' : 'does not have'}`);
      continue;
    }
    const columns = new Map(target.columns.map((c) => [c.name, c]));
    const chosen: CatalogueColumn[] = [];
    for (const name of backup.columns) {
      const column = columns.get(name);
      if (!column) problems.push(`the backup has a column ${backup.name}.${name} that this database does not have`);
      else if (column.generated !== null)
        problems.push(`the column ${backup.name}.${name} is computed by this database and cannot be restored`);
      else chosen.push(column);
    }
    if (new Set(backup.columns).size !== backup.columns.length) problems.push(`the table ${backup.name} lists a column twice`);
    for (const column of target.columns) {
      const filled = column.nullable || column.default !== null || column.identity || column.generated !== null;
      if (!filled && !backup.columns.includes(column.name))
        problems.push(`the column ${backup.name}.${column.name} is required here, and the backup has no values for it`);
    }
    if (chosen.length !== backup.columns.length) continue;
    const identity = target.columns.some((c) => c.identity) ? ' overriding system value' : '';
    const values = chosen.map((c, i) => importExpression(c, 'x.e', i)).join(', ');
    plans.push({
      backup,
      target,
      insertPrefix: `insert into ${quoteIdent(backup.name)} (${identList(backup.columns)})${identity} select ${values} from jsonb_array_elements(`,
    });
  }
  if (problems.length > 0) {
    throw new BackupRefused(
      `The backup does not fit this database, whose schema follows the spec it was opened with: ${problems.join('; ')}. Is NINEFOLD_SPEC the spec of the backup?`,
    );
  }
  return plans;
}

async function refuseUnlessEmpty(trx: DynamicDatabase, catalogue: readonly CatalogueTable[]): Promise<void> {
  for (const table of copiedTables(catalogue)) {
    const { rows } = await sql<{ found: boolean }>`select exists (select 1 from ${sql.raw(quoteIdent(table.name))}) as found`.execute(trx);
    if (rows[0]?.found) {
      throw new BackupRefused(
        `The database is not empty (the table ${table.name} has rows). A backup is imported into an empty database only: use a new DATA_DIR, or a new PostgreSQL database in DATABASE_URL.`,
      );
    }
  }
}

/**
 * Foreign keys that point at a table not yet complete when a row arrives (a table that refers to
 * itself, or a cycle) cannot be checked row by row: they are made deferrable for this
 * transaction, checked once all rows are in, and set back as they were.
 */
async function deferForwardReferences(trx: DynamicDatabase, plans: readonly TablePlan[]): Promise<() => Promise<void>> {
  const position = new Map(plans.map((p, i) => [p.backup.name, i]));
  const deferred: { table: string; name: string }[] = [];
  for (const [index, plan] of plans.entries()) {
    for (const constraint of plan.target.constraints) {
      if (constraint.kind !== 'foreign' || !constraint.references) continue;
      const at = position.get(constraint.references.table);
      if (at !== undefined && at >= index) deferred.push({ table: plan.backup.name, name: constraint.name });
    }
  }
  for (const c of deferred) {
    await sql.raw(`alter table ${quoteIdent(c.table)} alter constraint ${quoteIdent(c.name)} deferrable initially deferred`).execute(trx);
  }
  return async () => {
    if (deferred.length === 0) return;
    try {
      await sql.raw('set constraints all immediate').execute(trx);
    } catch (error) {
      throw new BackupRefused(`A row refers to a row that the backup does not have (${describeDatabaseError(error)}).`, null, {
        cause: error,
      });
    }
    for (const c of deferred)
      await sql.raw(`alter table ${quoteIdent(c.table)} alter constraint ${quoteIdent(c.name)} not deferrable`).execute(trx);
  };
}

function describeDatabaseError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const detail = (error as { detail?: unknown }).detail;
  return typeof detail === 'string' && detail ? `${error.message}: ${detail}` : error.message;
}

interface PendingRow {
  readonly text: string;
  readonly line: number;
}

/**
 * Inserts a batch under a savepoint; when the database refuses it, the rows are tried one by one
 * to name the line at fault (the transaction is abandoned either way).
 */
async function insertBatch(trx: DynamicDatabase, plan: TablePlan, rows: readonly PendingRow[]): Promise<void> {
  const insert = (batch: readonly PendingRow[]) =>
    sql`${sql.raw(plan.insertPrefix)}${`[${batch.map((r) => r.text).join(',')}]`}::jsonb) as x(e)`.execute(trx);
  await sql.raw('savepoint nf_backup_batch').execute(trx);
  try {
    await insert(rows);
    await sql.raw('release savepoint nf_backup_batch').execute(trx);
    return;
  } catch (error) {
    await sql.raw('rollback to savepoint nf_backup_batch').execute(trx);
    for (const row of rows) {
      try {
        await insert([row]);
      } catch (rowError) {
        throw new BackupRefused(
          `The row of ${plan.backup.name} was refused by the database (${describeDatabaseError(rowError)}).`,
          row.line,
          { cause: rowError },
        );
      }
    }
    throw new BackupRefused(
      `A batch of ${plan.backup.name} was refused by the database (${describeDatabaseError(error)}).`,
      rows[0]?.line ?? null,
      { cause: error },
    );
  }
}

/**
 * The running totals' insert triggers would update the same few nf_tally rows once per batch,
 * and in one long transaction each update leaves a row version that the next must step over:
 * a 100,000-record table took minutes. Dropped here (inside the transaction, so a refused import
 * keeps them), and `installTallies` recreates them and counts everything once at the end.
 */
async function pauseTallies(trx: DynamicDatabase, model: AppModel): Promise<void> {
  for (const entity of model.entities) await sql.raw(`drop trigger if exists nf_tally_insert on ${quoteIdent(entity.table)}`).execute(trx);
}

/** Each identity sequence continues after the source's (so ids of deleted rows stay unused) and after the largest id. */
async function continueSequences(trx: DynamicDatabase, plans: readonly TablePlan[]): Promise<void> {
  for (const plan of plans) {
    const identity = plan.target.columns.find((c) => c.identity);
    if (!identity) continue;
    const seq = plan.backup.sequence;
    const sourceNext = seq && seq.column === identity.name ? BigInt(seq.lastValue) + (seq.isCalled ? 1n : 0n) : 1n;
    const table = quoteIdent(plan.backup.name);
    const column = quoteIdent(identity.name);
    // setval(n, true) when an id was handed out, as the source's sequence says, so that a
    // second export of the restored database reads the same.
    await sql`
      select case when next > 1 then setval(seq::regclass, next - 1, true) else setval(seq::regclass, 1, false) end
      from (select pg_get_serial_sequence(${table}, ${identity.name}) as seq,
                   greatest(${sourceNext.toString()}::bigint, coalesce((select max(${sql.raw(column)}) from ${sql.raw(table)}), 0) + 1) as next) s`.execute(
      trx,
    );
  }
}

/**
 * Restores a backup (lines of format.ts, e.g. a file read line by line) into this empty
 * database, all or nothing. Refused with BackupRefused, naming the line when there is one:
 * another spec, a table or column this database lacks, rows already present, a damaged or
 * incomplete file.
 */
export async function importBackup(db: DynamicDatabase, lines: AsyncIterable<string>, options: ImportOptions): Promise<ImportReport> {
  const reader = numbered(lines)[Symbol.asyncIterator]();
  const first = await reader.next();
  const header = parseHeader(first.done ? undefined : first.value.text);
  const specName = options.model.name;
  if (header.spec !== null && header.spec !== specName) {
    throw new BackupRefused(
      `The backup is of the spec "${header.spec}", and this database serves "${specName}". Set NINEFOLD_SPEC to the spec of the backup.`,
    );
  }

  const batchRows = options.batchRows ?? BATCH_ROWS;
  return db.transaction().execute(async (trx) => {
    for (const statement of TEXT_SETTINGS) await sql.raw(statement).execute(trx);
    const catalogue = (await introspectSchema(trx)).tables;
    await refuseUnlessEmpty(trx, catalogue);
    const plans = planTables(header, catalogue);
    options.onHeader?.(header);
    const restoreChecks = await deferForwardReferences(trx, plans);
    await pauseTallies(trx, options.model);

    const allTotal = header.tables.reduce((sum, t) => sum + t.rows, 0);
    let allDone = 0;
    let current: { plan: TablePlan; done: number } | null = null;
    let next = 0;
    let pending: PendingRow[] = [];
    const flush = async () => {
      if (!current || pending.length === 0) return;
      await insertBatch(trx, current.plan, pending);
      current.done += pending.length;
      allDone += pending.length;
      pending = [];
      options.onProgress?.({ table: current.plan.backup.name, done: current.done, total: current.plan.backup.rows, allDone, allTotal });
    };
    const finishTable = (line: number) => {
      if (current && current.done + pending.length !== current.plan.backup.rows) {
        throw new BackupRefused(
          `The table ${current.plan.backup.name} has ${current.done + pending.length} rows, and the header says ${current.plan.backup.rows}: the backup is damaged.`,
          line,
        );
      }
    };

    let ended: number | null = null;
    let lastLine = 1;
    for (;;) {
      const item = await reader.next();
      if (item.done) break;
      const { text, line } = item.value;
      lastLine = line;
      if (ended !== null) throw new BackupRefused('There is more after the end of the backup.', line);
      const value = parseJson(text, line);
      if (Array.isArray(value)) {
        if (!current) throw new BackupRefused('A row comes before the line that names its table.', line);
        const expected = current.plan.backup.columns.length;
        if (value.length !== expected)
          throw new BackupRefused(
            `The row has ${value.length} values, and the table ${current.plan.backup.name} has ${expected} columns in this backup.`,
            line,
          );
        pending.push({ text, line });
        if (pending.length >= rowsAtOnce(current.plan.backup.name, batchRows)) await flush();
        continue;
      }
      const section = sectionSchema.safeParse(value);
      if (section.success) {
        await flush();
        finishTable(line);
        const plan = plans[next];
        if (!plan || plan.backup.name !== section.data.table) {
          throw new BackupRefused(
            `The table ${section.data.table} is not where the header says (${plan ? `expected ${plan.backup.name}` : 'no more tables expected'}).`,
            line,
          );
        }
        next += 1;
        current = { plan, done: 0 };
        options.onProgress?.({ table: plan.backup.name, done: 0, total: plan.backup.rows, allDone, allTotal });
        continue;
      }
      const end = endSchema.safeParse(value);
      if (!end.success) throw new BackupRefused('This line is neither a row (a JSON array), a table line nor the end line.', line);
      await flush();
      finishTable(line);
      const missing = plans[next];
      if (missing) throw new BackupRefused(`The backup ends before the table ${missing.backup.name}: it is damaged.`, line);
      if (end.data.rows !== allDone)
        throw new BackupRefused(`The end line counts ${end.data.rows} rows, and the backup has ${allDone}: it is damaged.`, line);
      ended = line;
    }
    if (ended === null)
      throw new BackupRefused(
        `The backup stops at line ${lastLine} without its end line: the file is incomplete (was the export interrupted?).`,
      );

    await restoreChecks();
    // Puts the triggers back and counts the totals once, from the rows.
    await installTallies(trx, options.model);
    await continueSequences(trx, plans);
    return { tables: plans.map((p) => ({ name: p.backup.name, rows: p.backup.rows })), rows: allDone };
  });
}
