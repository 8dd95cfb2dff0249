import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { conditionToSql } from '../condition/bound-sql';
import { timeOf } from '../condition/compare';
import type { DueFilter } from '../rules/overdue';
import { dueHours, type DueModel } from '../spec/due';
import type { AppModel, EntityModel, FieldModel } from '../spec/model';
import { conditionFields } from '../condition/fields';
import { columnFor, isNullableSortColumn } from './records';
import type { Actor } from '../ground/actor';

/*
 * Computed due times (`DateTimeField.due`): written by ops in the same statement as the record,
 * on create and whenever the time it counts from or the value that picks its hours changes
 * (updates, and transitions whose effects touch them). Lists sort and filter by the stored column.
 */

type DueFieldModel = FieldModel & { readonly due: DueModel };

function dueFields(entity: EntityModel): DueFieldModel[] {
  return entity.fields.filter((f): f is DueFieldModel => f.due !== undefined);
}

const SECONDS_PER_HOUR = 3600;

/** The due time a record as it would be stored has: `from` + the hours, or null when either is empty. */
function dueTime(due: DueModel, record: Readonly<Record<string, unknown>>): Date | null {
  const hours = dueHours(due, record);
  const from = timeOf(record[due.from]);
  return hours === null || from === null ? null : new Date(from.getTime() + hours * SECONDS_PER_HOUR * 1000);
}

/**
 * The stored value: `from` + the hours, or empty when either is. A system column as `from`
 * is read by the database, which sets it in this very statement (now() for a new record).
 */
function dueValue(due: DueModel, record: Readonly<Record<string, unknown>>, creating: boolean): RawBuilder<unknown> | Date | null {
  const hours = dueHours(due, record);
  if (hours === null) return null;
  if (due.from === 'updatedAt' || (creating && due.from === 'createdAt')) {
    return sql`now() + make_interval(secs => ${hours * SECONDS_PER_HOUR})`;
  }
  return dueTime(due, record);
}

/** The due columns of a new record (its values as given), to insert with it. */
export function dueOnCreate(entity: EntityModel, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const field of dueFields(entity)) row[field.column] = dueValue(field.due, values, true);
  return row;
}

function changed(before: unknown, after: unknown): boolean {
  const a = timeOf(before);
  const b = timeOf(after);
  if (a && b && (before instanceof Date || after instanceof Date)) return a.getTime() !== b.getTime();
  return (before ?? null) !== (after ?? null);
}

/** Whether writing `changes` to `current` moves a due time: its `from` or `by` takes a new value (updatedAt always does). */
function moves(due: DueModel, current: Readonly<Record<string, unknown>>, changes: Readonly<Record<string, unknown>>): boolean {
  const { from, by } = due;
  return (
    from === 'updatedAt' ||
    [from, by].some((name) => name !== null && Object.hasOwn(changes, name) && changed(current[name], changes[name]))
  );
}

/**
 * The due columns to rewrite when `changes` are written to `current`: those whose `from` or
 * `by` takes a new value (a due time counted from updatedAt moves with every write).
 */
export function dueOnUpdate(
  entity: EntityModel,
  current: Readonly<Record<string, unknown>>,
  changes: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  const after = { ...current, ...changes };
  for (const field of dueFields(entity)) {
    if (moves(field.due, current, changes)) row[field.column] = dueValue(field.due, after, false);
  }
  return row;
}

/**
 * The record as a write would store it, with the due times that write gives it, for the checks
 * that read it first (rules and limits): on create every due time, on an update (or a
 * transition) those that `changes` move, each from the record's own values. `record` carries the
 * times the write sets (createdAt and updatedAt: now), so a due time counted from them is the
 * one the statement stores, but for the milliseconds between this clock and the database's.
 */
export function withDueTimes<R extends Readonly<Record<string, unknown>>>(
  entity: EntityModel,
  record: R,
  current: Readonly<Record<string, unknown>> | null,
  changes: Readonly<Record<string, unknown>> = {},
): R {
  const moved = dueFields(entity).filter((field) => current === null || moves(field.due, current, changes));
  if (moved.length === 0) return record;
  return { ...record, ...Object.fromEntries(moved.map((field) => [field.name, dueTime(field.due, record)])) };
}

/**
 * `?<due field>=overdue`: the time has passed and `doneWhen` does not hold; `due24h`: it falls
 * within the next 24 hours, not done. A range of the due column's index either way.
 */
export function dueFilterSql(
  model: AppModel,
  entity: EntityModel,
  field: FieldModel,
  filter: DueFilter,
  actor: Actor,
): RawBuilder<SqlBool> {
  const column = sql.ref(columnFor(entity, field.name));
  const window =
    filter === 'overdue' ? sql<SqlBool>`${column} < now()` : sql<SqlBool>`${column} >= now() and ${column} < now() + interval '24 hours'`;
  const doneWhen = field.due?.doneWhen;
  if (!doneWhen) return sql<SqlBool>`(${window})`;
  const done = conditionToSql(model, entity, doneWhen, actor);
  // A comparison with an empty value is not done (as evaluateCondition has it). Over columns that
  // are never empty (the state) the plain negation says the same and is what the partial due-queue
  // indexes are declared with (schema/due-indexes.ts), so the planner can use them.
  const mayBeEmpty = conditionFields(model.conditions.of(doneWhen), { paths: 'head', operands: true }).some((name) =>
    isNullableSortColumn(entity, name),
  );
  return mayBeEmpty ? sql<SqlBool>`(${window} and not coalesce(${done}, false))` : sql<SqlBool>`(${window} and not (${done}))`;
}
