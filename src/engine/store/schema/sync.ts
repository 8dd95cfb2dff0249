import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { AppModel } from '../../spec/model';
import type { DynamicDatabase, Store } from '../types';
import { desiredSchema, META_TABLE } from './desired';
import { introspectSchema, readRecordedMeta } from './introspect';
import { planSchema } from './plan';
import { backfillComputedColumns } from './backfill-computed';
import { quoteIdent } from './sql';
import { fileTriggersFingerprint, installFileTriggers } from '../../files/pair-triggers';
import { installLiveTriggers, liveTriggersFingerprint } from '../../live/triggers';
import { installTallies, tallyFingerprint } from './tally';
import { exclusionStepFailure } from './exclusive-constraints';
import { derivedFingerprint, installDerived } from './derived';
import { installWorkingDays, workingDaysFingerprint } from './working-days';
import type { CatalogueSchema, SchemaMeta, SchemaPlan, SchemaStep, TableDef } from './types';

export const ALLOW_DESTRUCTIVE_HINT =
  'Run `npm run ninefold -- migrate --allow-destructive` to apply them (their data is lost), or restore the spec.';

/** Thrown when the spec asks for changes that would lose data and they were not allowed. Nothing was applied. */
export class SchemaChangeRefused extends Error {
  readonly changes: readonly SchemaStep[];

  constructor(changes: readonly SchemaStep[], note?: string) {
    super(
      [
        `The spec asks for ${changes.length === 1 ? 'a database change' : `${changes.length} database changes`} that would lose data, so the schema was not changed at all:`,
        ...changes.map((c) => `  - ${c.description}`),
        ...(note ? [note] : []),
        ALLOW_DESTRUCTIVE_HINT,
      ].join('\n'),
    );
    this.name = 'SchemaChangeRefused';
    this.changes = changes;
  }
}

export interface SyncOptions {
  /** Apply changes that lose data (drop a table or column, narrow a type) instead of refusing. */
  readonly allowDestructive?: boolean;
  /**
   * Take nf_meta's record of the last sync as the truth when it matches the spec: two small
   * queries instead of the catalogue comparison (which costs ~150 ms on a freshly opened PGlite,
   * on every start). The record is written in the same transaction as the changes it describes,
   * so only a schema changed by hand escapes; `migrate` compares the catalogue in full and
   * repairs that.
   */
  readonly trustRecorded?: boolean;
}

export interface SyncReport {
  /** False when the database already matched the spec (nothing was written). */
  readonly changed: boolean;
  /** Every step applied, in order, destructive ones included. */
  readonly applied: readonly SchemaStep[];
  /** The destructive steps among them (only ever non-empty with allowDestructive). */
  readonly destructive: readonly SchemaStep[];
}

function fingerprintOf(desired: readonly TableDef[], tallies: string): string {
  return createHash('sha256').update(JSON.stringify(desired)).update(tallies).digest('hex');
}

function desiredMeta(model: AppModel, desired: readonly TableDef[]): SchemaMeta {
  const managedTables: Record<string, string> = {};
  for (const table of desired) if (table.entity) managedTables[table.name] = table.entity;
  return {
    specName: model.name,
    fingerprint: fingerprintOf(
      desired,
      tallyFingerprint(model) +
        liveTriggersFingerprint(model) +
        derivedFingerprint(model) +
        workingDaysFingerprint() +
        fileTriggersFingerprint(model),
    ),
    managedTables,
  };
}

function sameMeta(a: SchemaMeta | null, b: SchemaMeta): boolean {
  if (!a || a.specName !== b.specName || a.fingerprint !== b.fingerprint) return false;
  const entries = (m: SchemaMeta) => JSON.stringify(Object.entries(m.managedTables).sort(([x], [y]) => x.localeCompare(y)));
  return entries(a) === entries(b);
}

const isEmptyPlan = (plan: SchemaPlan) => plan.additive.length === 0 && plan.destructive.length === 0;

/**
 * Brings the database schema in line with the spec. Changes that lose nothing are applied;
 * changes that lose (or may lose) data are refused with `SchemaChangeRefused` unless allowed,
 * and then nothing at all is applied. Everything runs in one transaction (DDL is transactional
 * in Postgres), under an advisory lock so that two servers starting at once do not both migrate.
 * An unchanged schema costs two catalogue queries and no transaction.
 */
export async function syncSchema(store: Store, model: AppModel, options: SyncOptions = {}): Promise<SyncReport> {
  const allowDestructive = options.allowDestructive ?? false;
  const desired = desiredSchema(model);
  const meta = desiredMeta(model, desired);

  if (options.trustRecorded && sameMeta(await readRecordedMeta(store.db), meta)) {
    return { changed: false, applied: [], destructive: [] };
  }

  const first = await introspectSchema(store.db);
  if (isEmptyPlan(planSchema(desired, first)) && sameMeta(first.meta, meta)) {
    return { changed: false, applied: [], destructive: [] };
  }

  return store.db.transaction().execute(async (trx) => {
    if (store.kind === 'postgres') {
      await sql`select pg_advisory_xact_lock(hashtext('ninefold schema sync'))`.execute(trx);
    }
    // Again under the lock: another server may have synced in the meantime.
    const current = await introspectSchema(trx);
    const plan = await resolveEmptyTableChanges(trx, planSchema(desired, current));
    if (isEmptyPlan(plan) && sameMeta(current.meta, meta)) return { changed: false, applied: [], destructive: [] };

    if (plan.destructive.length > 0 && !allowDestructive) {
      throw new SchemaChangeRefused(plan.destructive, otherSpecNote(current, model));
    }
    const steps = [...plan.additive, ...(allowDestructive ? plan.destructive : [])]
      .map((step, index) => ({ step, index }))
      .sort((a, b) => a.step.phase - b.step.phase || a.index - b.index)
      .map((x) => x.step);
    // Conditions and the scheduler may count working days in SQL (before any backfill or trigger reads them).
    await installWorkingDays(trx);
    for (const step of steps) await applyStep(trx, step);
    // Rows already there get the computed fields just added, before the totals below count them.
    await backfillComputedColumns(trx, model, steps);
    // The running totals' triggers live on the entity tables: they follow the tables.
    await installTallies(trx, model);
    // So do the derived fields' (kept from the related records), recounted when they change.
    await installDerived(trx, model);
    // So do the change feed's (live pages): they notify which rows each statement wrote.
    await installLiveTriggers(trx, model);
    // A file goes with its record (engine/files/pair-triggers.ts).
    await installFileTriggers(trx, model);
    await recordMeta(trx, meta);
    return { changed: true, applied: steps, destructive: allowDestructive ? plan.destructive : [] };
  });
}

function otherSpecNote(current: CatalogueSchema, model: AppModel): string | undefined {
  const previous = current.meta?.specName;
  if (!previous || previous === model.name) return undefined;
  return `(This database was last synced with the spec "${previous}", not "${model.name}": is DATA_DIR or DATABASE_URL the right one?)`;
}

/** A NOT NULL column without a value for existing rows loses nothing when there are no rows. */
async function resolveEmptyTableChanges(db: DynamicDatabase, plan: SchemaPlan): Promise<SchemaPlan> {
  const conditional = plan.destructive.filter((s) => s.safeWhenEmpty);
  if (conditional.length === 0) return plan;
  const empty = new Set<string>();
  for (const table of new Set(conditional.map((s) => s.table))) {
    const { rows } = await sql<{ found: boolean }>`select exists (select 1 from ${sql.raw(quoteIdent(table))}) as found`.execute(db);
    if (!rows[0]?.found) empty.add(table);
  }
  const safe = (s: SchemaStep) => s.safeWhenEmpty === true && empty.has(s.table);
  return {
    additive: [...plan.additive, ...plan.destructive.filter(safe)].sort((a, b) => a.phase - b.phase),
    destructive: plan.destructive.filter((s) => !safe(s)),
  };
}

async function applyStep(db: DynamicDatabase, step: SchemaStep): Promise<void> {
  for (const statement of step.sql) {
    try {
      await sql.raw(statement).execute(db);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const code = (error as { code?: unknown }).code;
      // 23505 unique_violation: records already there break a uniqueWhen rule; say which, in the spec's words.
      // An exclusive rule says what the records (or the database) lack in its own (exclusive-constraints.ts).
      const exclusive = exclusionStepFailure(step, error);
      const failure =
        code === '23505' && step.uniqueRule
          ? new Error(uniqueRuleBroken(step, error), { cause: error })
          : exclusive
            ? new Error(exclusive, { cause: error })
            : new Error(`Could not apply the schema change "${step.description}": ${reason}. Nothing was changed.`, { cause: error });
      throw typeof code === 'string' ? Object.assign(failure, { code }) : failure;
    }
  }
}

/** Which rule, and which values (Postgres's detail: `Key (section)=(news) is duplicated.`) break it. */
function uniqueRuleBroken(step: SchemaStep, error: unknown): string {
  const detail = (error as { detail?: unknown }).detail;
  const values = typeof detail === 'string' ? /^Key \((.*)\)=\((.*)\) is duplicated\.?$/.exec(detail) : null;
  return [
    `Records already in ${step.table} break the rule "${step.uniqueRule}"`,
    values ? ` (more than one has ${values[1]} = ${values[2]})` : '',
    ', so its unique index could not be built. Change those records, or the rule, and start again. Nothing was changed.',
  ].join('');
}

async function recordMeta(db: DynamicDatabase, meta: SchemaMeta): Promise<void> {
  const entries: [string, unknown][] = [
    ['spec', { name: meta.specName }],
    ['schema', { fingerprint: meta.fingerprint, managedTables: meta.managedTables, syncedAt: new Date().toISOString() }],
  ];
  for (const [key, value] of entries) {
    await db
      .insertInto(META_TABLE)
      .values({ key, value: JSON.stringify(value) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: sql.ref('excluded.value') }))
      .execute();
  }
}
