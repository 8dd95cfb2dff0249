import { faker } from '@faker-js/faker';
import { sql } from 'kysely';
import { conditionToSql } from '../condition/bound-sql';
import { JOIN_RECORD, JOIN_TARGET, joinFields } from '../spec/join-fields';
import type { AppModel, EntityModel } from '../spec/model';
import { AUDIT_TABLE, USER_TABLE } from '../store/schema/desired';
import type { DynamicDatabase } from '../store/types';
import { limitKey } from './demo-people';
import { demoRecord, type DemoRecord } from './demo-record';
import { createdAgo, type SeededRecords, type SeedRun } from './seed-run';
import { ensureDemoUsers } from './demo-users';
import { assignUserFields } from './demo-user-fields';
import { rememberUnique, uniqueKeys } from './demo-unique';
import { rememberUniqueWhen } from './demo-unique-when';
import { rememberExclusive } from './demo-exclusive';
import { rolesForUserField } from './user-pools';
import { declaredField, referencedEntity } from '../ops/declared';
import { diskFileStore } from '../files/disk-file-store';
import type { FileStore } from '../files/file-store';
import { postgresFileStore } from '../files/postgres-file-store';
import { createdWithFiles, demoFileKinds, seedDemoFiles } from './demo-files';

export { DEMO_PASSWORD } from './demo-users';

export interface SeedProgress {
  start(total: number): void;
  advance(rows: number): void;
  stop(): void;
}

export interface SeedResult {
  /** Records per entity (their history rows are not counted). */
  readonly rows: Readonly<Record<string, number>>;
  /**
   * Entities that got fewer records than planned, and why: their unique values ran out (a
   * holiday per day within two years), or what they must refer to did.
   */
  readonly short: readonly { entity: string; planned: number; reason: string }[];
  readonly users: readonly { email: string; roles: readonly string[] }[];
  readonly seconds: number;
}

/** A seed that failed: nothing of it was written (the whole seed is one transaction). */
export class SeedFailed extends Error {}

const BATCH_ROWS = 1000;
/** History rows per insert: six columns each, well under PostgreSQL's 65,535 parameters. */
const HISTORY_BATCH_ROWS = 5000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The main records are created over the last four months, so 30-day charts and queues look lived-in. */
const MAIN_SPAN_MS = 120 * DAY_MS;
/** Records the main ones refer to (organizations, companies) existed before: over the year before. */
const REFERENCED_FROM_MS = 365 * DAY_MS;

interface PlanStep {
  readonly entity: EntityModel;
  readonly rows: number;
  /** How long ago the first and last of these records were created. */
  readonly from: number;
  readonly to: number;
}

/**
 * Order entities so that referenced ones are filled first; the first entity of the navigation
 * (the app's main record) gets `count` rows, the entities it refers to one per fifty (four times
 * that for those that refer to another of them: a company's contacts), the others half as many.
 */
function plan(model: AppModel, count: number): PlanStep[] {
  const main = model.navigation[0] ?? model.entities[0];
  const referencedByMain = new Set(main?.fields.filter((f) => f.referenceTo && f.referenceTo !== main.name).map((f) => f.referenceTo!));
  const ordered: EntityModel[] = [];
  const visit = (e: EntityModel, path: Set<string>) => {
    if (ordered.includes(e) || path.has(e.name)) return;
    path.add(e.name);
    for (const f of e.fields) if (f.referenceTo && f.referenceTo !== e.name) visit(referencedEntity(model, f), path);
    ordered.push(e);
  };
  for (const e of model.entities) visit(e, new Set());
  const few = Math.max(5, Math.ceil(count / 50));
  return ordered.map((entity) => {
    if (!referencedByMain.has(entity.name))
      return { entity, rows: entity === main ? count : Math.ceil(count / 2), from: MAIN_SPAN_MS, to: 0 };
    const refersToAnother = entity.fields.some(
      (f) => f.referenceTo && f.referenceTo !== entity.name && referencedByMain.has(f.referenceTo),
    );
    return { entity, rows: refersToAnother ? few * 4 : few, from: REFERENCED_FROM_MS, to: MAIN_SPAN_MS };
  });
}

/**
 * Per role, how many records will name one of its users in a unique user field (a practitioner's
 * account): each needs a user of its own.
 */
function namedByUniqueUserFields(model: AppModel, steps: readonly PlanStep[]): Map<string, number> {
  const named = new Map<string, number>();
  for (const { entity, rows } of steps) {
    for (const key of uniqueKeys(entity)) {
      const [name, ...others] = key;
      if (name === undefined || others.length > 0) continue;
      const field = declaredField(entity, name);
      if (field.type !== 'user') continue;
      const roles = rolesForUserField(model, entity, field.name);
      for (const role of roles) named.set(role, (named.get(role) ?? 0) + Math.ceil(rows / roles.length));
    }
  }
  return named;
}

/** What an earlier run left that this one must respect: unique values taken, owners' records counted by limits. */
async function rememberEarlierRun(run: SeedRun, db: DynamicDatabase, entity: EntityModel): Promise<void> {
  await rememberUnique(run, db, entity);
  await rememberUniqueWhen(run, db, entity);
  await rememberExclusive(run, db, entity);
  const nobody = { userId: 0, email: '', name: '', roles: [] };
  for (const [name, limit] of Object.entries(entity.limits)) {
    const column = declaredField(entity, limit.per).column;
    let counted = db
      .selectFrom(entity.table)
      .select([column, (eb) => eb.fn.countAll<string | number>().as('n')])
      .where(column, 'is not', null)
      .groupBy(column);
    if (limit.where) counted = counted.where(conditionToSql(run.model, entity, limit.where, nobody));
    for (const row of await counted.execute()) run.limitCounts.set(limitKey(entity, name, row[column]), Number(row.n));
  }
}

/**
 * Fills every entity of the spec with coherent demo data (see demoRecord), users included, in one
 * transaction: a seed that fails writes nothing. Records go in as multi-row inserts of BATCH_ROWS
 * with their history. An entity whose unique values run out gets fewer records (`short`).
 */
export async function seedDemoData(
  model: AppModel,
  db: DynamicDatabase,
  count: number,
  progress: SeedProgress,
  /** NINEFOLD_FILES_DIR: where the demo files' bytes go (else PostgreSQL's chunks, in the seed's transaction). */
  options: { readonly filesDir?: string } = {},
): Promise<SeedResult> {
  const started = performance.now();
  faker.seed(count);
  const steps = plan(model, count);
  progress.start(steps.reduce((sum, s) => sum + s.rows, 0));
  let result: Omit<SeedResult, 'seconds'>;
  try {
    result = await db
      .transaction()
      .execute((trx) =>
        seedIn(model, trx, count, steps, progress, options.filesDir ? diskFileStore(options.filesDir) : postgresFileStore(trx)),
      );
  } catch (error) {
    throw new SeedFailed(`Seeding failed and wrote nothing: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    progress.stop();
  }
  // Fresh statistics after a bulk load: without them the planner combines filter indexes and
  // sorts tens of thousands of rows instead of walking the sort index (PGlite has no autovacuum).
  for (const table of [...steps.map((s) => s.entity.table), USER_TABLE, AUDIT_TABLE]) await sql`analyze ${sql.table(table)}`.execute(db);
  return { ...result, seconds: (performance.now() - started) / 1000 };
}

async function seedIn(
  model: AppModel,
  trx: DynamicDatabase,
  count: number,
  steps: readonly PlanStep[],
  progress: SeedProgress,
  fileStore: FileStore,
): Promise<Omit<SeedResult, 'seconds'>> {
  const users = await ensureDemoUsers(model, trx, faker, count, namedByUniqueUserFields(model, steps));
  const now = new Date();
  const run: SeedRun = {
    model,
    faker,
    now,
    spanMs: MAIN_SPAN_MS,
    users,
    userFields: new Map(),
    seeded: new Map(),
    limitCounts: new Map(),
    pools: new Map(),
    indexes: new Map(),
    uniqueTaken: new Map(),
  };

  const rows: Record<string, number> = {};
  const short: { entity: string; planned: number; reason: string }[] = [];
  const fileKinds = demoFileKinds();
  const filesSeeded = new Map<string, number>();
  for (const { entity, rows: total, from, to } of steps) {
    const start = Number((await trx.selectFrom(entity.table).select(trx.fn.max('id').as('max')).executeTakeFirst())?.max ?? 0);
    const seeded: SeededRecords = { ids: [], facts: [] };
    if (start > 0) await rememberEarlierRun(run, trx, entity);
    let noRoom: string | null = null;
    for (let done = 0; done < total && noRoom === null; done += BATCH_ROWS) {
      const made: DemoRecord[] = [];
      for (let i = 0; i < Math.min(BATCH_ROWS, total - done); i++) {
        const ago = createdAgo((done + i + faker.number.float()) / total, from, to);
        const record = demoRecord(run, entity, new Date(now.getTime() - ago), start + done + i + 1);
        if ('noRoom' in record) {
          noRoom = record.noRoom;
          break;
        }
        made.push(record);
      }
      if (made.length > 0) {
        const inserted = await trx
          .insertInto(entity.table)
          .values(made.map((m) => m.row))
          .returning('id')
          .execute();
        // PostgreSQL returns the rows of INSERT ... VALUES in the order given.
        const stored = inserted.map((r, i) => {
          const record = made[i];
          if (!record) throw new Error(`An INSERT of ${made.length} rows returned ${inserted.length}`);
          return { id: Number(r.id), record };
        });
        const authored = stored.map(({ id, record }) => ({ id, author: record.row.created_by }));
        const files = await seedDemoFiles(trx, fileStore, faker, fileKinds, entity, authored, filesSeeded);
        const history = stored.flatMap(({ id, record }) =>
          record.history.map((h) => {
            const attached = h.action === 'create' ? files.get(id) : undefined;
            return { ...h, ...(attached ? { changes: createdWithFiles(h.changes, attached) } : {}), entity: entity.name, record_id: id };
          }),
        );
        for (let h = 0; h < history.length; h += HISTORY_BATCH_ROWS)
          await trx
            .insertInto(AUDIT_TABLE)
            .values(history.slice(h, h + HISTORY_BATCH_ROWS))
            .execute();
        for (const field of joinFields(entity)) {
          const pairs = stored.flatMap(({ id, record }) =>
            (record.sets[field.name] ?? []).map((target) => ({ [JOIN_RECORD]: id, [JOIN_TARGET]: target })),
          );
          if (pairs.length > 0) await trx.insertInto(field.joinTable).values(pairs).execute();
        }
        for (const { id, record } of stored) {
          seeded.ids.push(id);
          seeded.facts.push(record.facts);
        }
      }
      progress.advance(noRoom === null ? made.length : total - done);
    }
    if (noRoom !== null) short.push({ entity: entity.name, planned: total, reason: noRoom });
    run.seeded.set(entity.name, seeded);
    rows[entity.name] = seeded.ids.length;
    // Users whose scopes read a user field referring to these records get one (a customer's organization).
    await assignUserFields(run, trx, entity);
  }
  return { rows, short, users: users.created };
}
