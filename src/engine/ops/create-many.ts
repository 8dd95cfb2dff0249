import { authorizeScope, type RowScope } from '../access/authorize';
import { asNinefoldError, NinefoldError, type FieldError } from '../errors/ninefold-error';
import type { ParsedValues } from '../rules/record-input';
import { capitalize } from '../spec/naming';
import type { AppModel, EntityModel } from '../spec/model';
import { sectionsShowing } from '../spec/screens/details';
import type { DynamicDatabase } from '../store/types';
import { entityOf, type OpsContext } from './context';
import { uniqueViolation } from './db-errors';
import { writeHistories } from './history';
import { recordColumns, rowToRecord } from './records';
import { givenSets, insertReferenceSets } from './reference-sets';
import { missingReferences } from './references-exist';
import { inTransaction } from './transaction';
import type { RecordInput } from './types';
import type { Actor } from '../ground/actor';
import { hasPaths } from '../rules/entity-rules';
import { checkCreateInput, insertChecked, newRow, outOfCreateScope } from './write';
import { ownRecordDefaults } from './own-record-defaults';
import { translating } from './write-kit';
import { EventLoopTurns } from '../event-loop-turns';
import { rowsCapFor, tooManyRows } from './rows-cap';
import { declaredField } from './declared';

/*
 * Many records created at once (a CSV import): every row is checked exactly as `create` checks
 * one — the same functions, in the same order — then the rows are inserted in multi-row
 * statements inside one transaction, with their audit rows in batches too. The running totals
 * and live-page notifications are statement-level triggers, so they stay right for batches.
 */

export interface CreateManyOptions {
  /**
   * Write the rows that pass and leave out the others. Default: nothing is written unless every
   * row passes (the whole import is one transaction).
   */
  readonly goodRows?: boolean;
  /**
   * Errors the caller already found in some rows (a value it could not read, such as a title that
   * names no record): those rows are checked for everything else and never written.
   */
  readonly knownErrors?: ReadonlyMap<number, readonly FieldError[]>;
  /** How a row is named in a message about another row ("line 12"); default "row <n>", from 1. */
  readonly rowName?: (index: number) => string;
  /** Called as the rows are checked, then as they are written. */
  readonly onProgress?: (progress: CreateManyProgress) => void;
}

export interface CreateManyProgress {
  readonly phase: 'checking' | 'writing';
  /** Rows done in this phase, of `total`. */
  readonly done: number;
  readonly total: number;
}

/** One row refused, by its index in the input, with what `create` would have said. */
export interface RowRefusal {
  readonly index: number;
  readonly code: string;
  readonly message: string;
  readonly fieldErrors: readonly FieldError[];
}

export interface CreateManyResult {
  /** Rows written: all of them, none (a refusal without `goodRows`), or the good ones. */
  readonly created: number;
  /** The first refused rows (at most REFUSED_ROWS_LISTED), in input order. */
  readonly refused: readonly RowRefusal[];
  /** Every refused row, listed or not. */
  readonly refusedRows: number;
}

/**
 * Refused rows described in full: whatever the input, what a refusal costs stays bounded (the
 * others are counted). Enough for a report to list and to offer as a file of rows to fix.
 */
export const REFUSED_ROWS_LISTED = 1000;
/** Rows between two progress reports. */
const ROWS_PER_PROGRESS = 1000;
/** Parameters per INSERT, well under PostgreSQL's 65,535. */
const PARAMETERS_PER_INSERT = 30_000;
const MAX_ROWS_PER_INSERT = 1000;

/** Thrown inside the transaction to undo it when a refusal means nothing may be written. */
class NothingWritten extends Error {}
/** Thrown inside a batch's savepoint: these rows fell outside the actor's create scope. */
class OutsideScope extends Error {
  constructor(readonly indexes: readonly number[]) {
    super('rows outside the create scope');
  }
}

interface CheckedRow {
  readonly index: number;
  readonly values: ParsedValues;
}

/**
 * The refused rows: each index once (the first refusal names the problem), the lowest
 * REFUSED_ROWS_LISTED described in full, the others only counted.
 */
class Refusals {
  readonly #indexes = new Set<number>();
  #listed: RowRefusal[] = [];

  has(index: number): boolean {
    return this.#indexes.has(index);
  }

  get count(): number {
    return this.#indexes.size;
  }

  add(refusal: RowRefusal): void {
    this.#indexes.add(refusal.index);
    this.#listed.push(refusal);
    // Trimmed now and then rather than kept sorted: rows are refused mostly, not always, in order.
    if (this.#listed.length >= 2 * REFUSED_ROWS_LISTED) this.#listed = this.list();
  }

  list(): RowRefusal[] {
    return this.#listed.sort((a, b) => a.index - b.index).slice(0, REFUSED_ROWS_LISTED);
  }
}

export async function createManyRecords(
  ctx: OpsContext,
  actor: Actor,
  entityName: string,
  inputs: readonly RecordInput[],
  options: CreateManyOptions = {},
): Promise<CreateManyResult> {
  const entity = entityOf(ctx.model, entityName);
  const scope = authorizeScope(ctx.model, entity, actor, 'create');
  const cap = rowsCapFor(ctx.model, entity, actor);
  if (inputs.length > cap.max) throw tooManyRows(entity, cap);
  const known = options.knownErrors ?? new Map<number, readonly FieldError[]>();
  const rowName = options.rowName ?? ((index: number) => `row ${index + 1}`);
  const total = inputs.length;
  const progress = (phase: CreateManyProgress['phase'], done: number) => options.onProgress?.({ phase, done, total });
  const refusals = new Refusals();
  const refuse = (index: number, error: NinefoldError) => {
    if (refusals.has(index)) return;
    // The caller's errors first; ours on the same fields follow from them (a value left out is "required").
    const given = known.get(index) ?? [];
    const fields = new Set(given.map((e) => e.field));
    const fieldErrors = [...given, ...error.fieldErrors.filter((e) => !fields.has(e.field))];
    refusals.add({ index, code: error.code, message: error.message, fieldErrors });
  };

  const now = new Date();
  const resolvedDefaults = await ownRecordDefaults(ctx, entity, actor);
  const turns = new EventLoopTurns();
  const checked: CheckedRow[] = [];
  for (const [index, input] of inputs.entries()) {
    try {
      const values = checkCreateInput(ctx.model, entity, actor, input, now, resolvedDefaults);
      if (known.has(index)) refuse(index, new NinefoldError('VALIDATION_FAILED'));
      else checked.push({ index, values });
    } catch (error) {
      refuse(index, asNinefoldErrorOrThrow(error));
    }
    if ((index + 1) % ROWS_PER_PROGRESS === 0) progress('checking', index + 1);
    await turns.take();
  }
  progress('checking', total);
  const distinct = await refuseRepeatedValues(entity, checked, rowName, refuse, turns);

  let created = 0;
  try {
    await inTransaction(ctx.db, async (trx) => {
      const missing = await missingReferences(
        ctx.model,
        trx,
        entity,
        distinct.map((row) => row.values),
        actor,
      );
      const rows: CheckedRow[] = [];
      for (const [i, row] of distinct.entries()) {
        const errors = missing.get(i);
        if (errors) refuse(row.index, new NinefoldError('VALIDATION_FAILED', undefined, { fieldErrors: errors }));
        else rows.push(row);
        await turns.take();
      }
      const writer = new Writer(ctx, trx, actor, entity, scope, now, refuse);
      let done = total - rows.length;
      progress('writing', done);
      const size = oneByOne(ctx.model, entity, actor) ? 1 : rowsPerInsert(entity, actor, rows[0]?.values);
      for (let start = 0; start < rows.length; start += size) {
        const batch = rows.slice(start, start + size);
        if (size === 1) for (const row of batch) created += await writer.one(row);
        else created += await writer.batch(batch);
        done += batch.length;
        if (size > 1 || done % ROWS_PER_PROGRESS === 0) progress('writing', done);
        await turns.take();
      }
      progress('writing', total);
      if (refusals.count > 0 && !options.goodRows) throw new NothingWritten();
    });
  } catch (error) {
    if (!(error instanceof NothingWritten)) throw error;
    created = 0;
  }
  return { created, refused: refusals.list(), refusedRows: refusals.count };
}

function asNinefoldErrorOrThrow(error: unknown): NinefoldError {
  const known = asNinefoldError(error);
  if (!known) throw error;
  return known;
}

/**
 * Rows must be written one at a time, each seeing the ones before, where a row's checks read
 * what earlier rows change: a limit that counts the actor's records (a customer's open tickets),
 * or a reply that takes a transition of the record it answers (a comment reopening its ticket);
 * and where a rule follows a path, which insertChecked reads for each row; where ranges may not
 * overlap; and where a create has effects on referenced records (`onCreate`), which insertChecked takes.
 */
function oneByOne(model: AppModel, entity: EntityModel, actor: Actor): boolean {
  const limited = Object.values(entity.limits).some((limit) => !limit.exempt?.some((role) => actor.roles.includes(role)));
  const answers = entity.fields.some(
    (f) => f.type === 'reference' && sectionsShowing(model.entities, entity.name, f.name).some((s) => s.parent.workflow),
  );
  // A rule through a path (`team.open`) reads another record: checked row by row in insertChecked.
  const throughPaths = Object.values(entity.rules).some(hasPaths);
  // Ranges that may not overlap (`exclusive`): each row's check sees the rows before it, and a
  // range ending before its start is refused on its row, not by the INSERT of a whole batch.
  const ranged = entity.exclusive.length > 0;
  // A slug is numbered against the records written before it (ops/slugs.ts).
  const slugs = entity.fields.some((f) => f.computed?.kind === 'slug');
  // A reference `within` another reads the record it names (ops/within.ts), in insertChecked.
  const within = entity.fields.some((f) => f.within);
  return limited || answers || throughPaths || ranged || slugs || within || entity.onCreate.length > 0;
}

function rowsPerInsert(entity: EntityModel, actor: Actor, sample: ParsedValues | undefined): number {
  const columns = sample ? Object.keys(newRow(entity, actor, sample)).length : 1;
  return Math.max(1, Math.min(MAX_ROWS_PER_INSERT, Math.floor(PARAMETERS_PER_INSERT / columns)));
}

/**
 * A value of a unique field (or combination) that an earlier row of the input already has: the
 * later row is refused, naming the earlier one. Empty values never collide, as in the database.
 * Returns the rows left.
 */
async function refuseRepeatedValues(
  entity: EntityModel,
  rows: readonly CheckedRow[],
  rowName: (index: number) => string,
  refuse: (index: number, error: NinefoldError) => void,
  turns: EventLoopTurns,
): Promise<CheckedRow[]> {
  // Rows with the same title get numbered slugs when written, so a base slug repeated is no clash.
  const keys = [...entity.fields.filter((f) => f.unique && f.computed?.kind !== 'slug').map((f) => [f.name]), ...entity.uniqueTogether];
  if (keys.length === 0) return [...rows];
  // Per key: the first row seen with each of its values.
  const seen = keys.map((names) => ({ names, firsts: new Map<string, number>() }));
  const distinct: CheckedRow[] = [];
  rows: for (const row of rows) {
    await turns.take();
    for (const { names, firsts } of seen) {
      const parts = names.map((name) => row.values[name]);
      if (parts.some((v) => v === null || v === undefined)) continue;
      const key = JSON.stringify(parts.map((v) => (v instanceof Date ? v.getTime() : v)));
      const first = firsts.get(key);
      if (first === undefined) {
        firsts.set(key, row.index);
        continue;
      }
      const fields = names.map((name) => declaredField(entity, name));
      refuse(row.index, uniqueViolation(entity, fields, ` ${capitalize(rowName(first))} of this import has it too.`));
      continue rows;
    }
    distinct.push(row);
  }
  return distinct;
}

/** Writes checked rows inside the import's transaction, refusing those the database or the scope refuses. */
class Writer {
  constructor(
    private readonly ctx: OpsContext,
    private readonly trx: DynamicDatabase,
    private readonly actor: Actor,
    private readonly entity: EntityModel,
    private readonly scope: RowScope,
    private readonly now: Date,
    private readonly refuse: (index: number, error: NinefoldError) => void,
  ) {}

  /** One row exactly as `create` writes it, under a savepoint that its refusal rolls back. */
  async one(row: CheckedRow): Promise<number> {
    try {
      await translating(this.ctx.model, this.entity, () =>
        inTransaction(this.trx, (sp) => insertChecked(this.ctx, sp, this.actor, this.entity, this.scope, row.values, this.now)),
      );
      return 1;
    } catch (error) {
      this.refuse(row.index, asNinefoldErrorOrThrow(error));
      return 0;
    }
  }

  /**
   * Rows in one INSERT, their scope checked in one query and their history in one more, under a
   * savepoint. Rows outside the scope are refused and the rest written again; a constraint the
   * database reports (a unique value taken meanwhile) sends the batch row by row, so that the
   * refusal names its row.
   */
  async batch(rows: readonly CheckedRow[]): Promise<number> {
    if (rows.length === 0) return 0;
    const { entity, actor } = this;
    try {
      return await translating(this.ctx.model, entity, () =>
        inTransaction(this.trx, async (sp) => {
          const inserted = await sp
            .insertInto(entity.table)
            .values(rows.map((row) => newRow(entity, actor, row.values)))
            .returning(recordColumns(entity))
            .execute();
          // PostgreSQL returns the rows of INSERT ... VALUES in the order given.
          const written = inserted.map((stored, i) => {
            const row = rows[i];
            if (!row) throw new Error(`An INSERT of ${rows.length} rows returned ${inserted.length}`);
            return { row, id: Number(stored.id), record: { ...rowToRecord(entity, stored), ...givenSets(entity, row.values) } };
          });
          await insertReferenceSets(
            sp,
            entity,
            this.actor,
            written.map(({ row, id }) => ({ id, values: row.values })),
          );
          const records = written.map(({ record }) => record);
          if (!this.scope.all) {
            const ids = records.map((r) => r.id);
            const kept = new Set(
              (await sp.selectFrom(entity.table).select('id').where('id', 'in', ids).where(this.scope.sql).execute()).map((r) =>
                Number(r.id),
              ),
            );
            const outside = written.flatMap(({ row, record }) => (kept.has(record.id) ? [] : [row.index]));
            if (outside.length > 0) throw new OutsideScope(outside);
          }
          await writeHistories(
            sp,
            entity,
            actor,
            records.map((record) => ({ action: 'create' as const, recordId: record.id, before: null, after: record })),
          );
          return records.length;
        }),
      );
    } catch (error) {
      if (error instanceof OutsideScope) {
        const outside = new Set(error.indexes);
        for (const index of outside) this.refuse(index, outOfCreateScope(actor, entity));
        return this.batch(rows.filter((row) => !outside.has(row.index)));
      }
      asNinefoldErrorOrThrow(error);
      let written = 0;
      for (const row of rows) written += await this.one(row);
      return written;
    }
  }
}
