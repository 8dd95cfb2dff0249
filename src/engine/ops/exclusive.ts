import { sql } from 'kysely';
import { NinefoldError } from '../errors/ninefold-error';
import type { RecordLike } from '../condition/evaluate';
import type { AppModel, EntityModel, ExclusiveModel } from '../spec/model';
import { literalPredicateSql, predicateColumn } from '../condition/literal-sql';
import { exclusiveRangeSql } from '../store/schema/exclusive-constraints';
import { quoteIdent } from '../store/schema/sql';
import type { DynamicDatabase } from '../store/types';
import { holds } from './unique-when';
import { valuesToRow } from './records';

/** The cast of a range end's parameter, by the range's type. */
const END_TYPE: Readonly<Record<ExclusiveModel['rangeType'], string>> = { daterange: 'date', tstzrange: 'timestamptz' };

/**
 * The refusal of a write whose range overlaps another record's: the rule's message on its start
 * field, as VALIDATION_FAILED or as the rule's own code of the catalogue (with its status).
 */
export function exclusiveViolation(rule: ExclusiveModel): NinefoldError {
  const fieldErrors = [{ field: rule.start, code: 'overlap', message: rule.message }];
  if (rule.code === 'VALIDATION_FAILED') return new NinefoldError('VALIDATION_FAILED', undefined, { fieldErrors });
  return new NinefoldError(rule.code, rule.message, {
    ...(rule.own ? { status: rule.own.status, title: rule.own.title } : {}),
    fieldErrors,
  });
}

/**
 * Refuses a write after which the record's range would overlap another's among those an
 * `exclusive` rule selects with the same key: creates, updates and transitions alike (a
 * transition out of "cancelled" may bring a visit back onto the time line). Read in the
 * writer's transaction; two writers racing both pass this check, and the exclusion constraint
 * refuses the second (db-errors.ts maps that to the same refusal). A range that ends before it
 * starts is refused on its end field first: no range can hold it.
 * The record as it will be stored is what is checked. An end `after` does not hold (one the
 * database fills, such as a column it computes) is not known here: the constraint alone judges
 * that write, with the same refusal.
 */
export async function checkExclusive(
  model: AppModel,
  trx: DynamicDatabase,
  entity: EntityModel,
  before: RecordLike | null,
  after: RecordLike,
): Promise<void> {
  for (const rule of entity.exclusive) {
    if (!takesTime(model, entity, rule, after)) continue;
    if (after[rule.end] === undefined) continue;
    const start = after[rule.start];
    const end = after[rule.end] ?? null;
    if (end !== null && comparable(end) < comparable(start)) throw endsBeforeStart(entity, rule);
    const keys = rule.per.map((name) => after[name] ?? null);
    // An empty key is equal to nothing, as `=` in the constraint: no overlap to find.
    if (keys.some((v) => v === null)) continue;
    // Unchanged and already held: the constraint has kept it apart all along.
    if (
      before &&
      takesTime(model, entity, rule, before) &&
      [rule.start, rule.end, ...rule.per].every((name) => same(before[name], after[name]))
    )
      continue;
    const row = valuesToRow(entity, Object.fromEntries([rule.start, rule.end, ...rule.per].map((name) => [name, after[name] ?? null])));
    const column = (name: string) => predicateColumn(entity, name);
    const cast = sql.raw(END_TYPE[rule.rangeType]);
    const theirs = sql.raw(exclusiveRangeSql(rule.rangeType, quoteIdent(column(rule.start)), quoteIdent(column(rule.end))));
    const ours = sql`${sql.raw(rule.rangeType)}(${row[column(rule.start)]}::${cast}, ${row[column(rule.end)]}::${cast}, '[)')`;
    let others = trx
      .selectFrom(entity.table)
      .select('id')
      .where(column(rule.start), 'is not', null)
      .where(sql<boolean>`${theirs} && ${ours}`)
      .limit(1);
    if (rule.where) others = others.where(sql.raw<boolean>(literalPredicateSql(entity, model.conditions.of(rule.where))));
    for (const name of rule.per) others = others.where(column(name), '=', row[column(name)]);
    if (typeof after.id === 'number') others = others.where('id', '<>', after.id);
    if (await others.executeTakeFirst()) throw exclusiveViolation(rule);
  }
}

/**
 * The rule whose range a write ended before its start, when the database found it (22000 from
 * the constraint's range, for an end ops did not know). The error does not say which rule: the
 * entity's first.
 */
export function exclusiveOfBadRange(entity: EntityModel, message: string | undefined): ExclusiveModel | undefined {
  return message?.includes('range lower bound must be less than or equal to range upper bound') ? entity.exclusive[0] : undefined;
}

/** The rule whose constraint an exclusion violation (23P01) names, if any. */
export function exclusiveOfConstraint(entity: EntityModel, constraint: string | undefined): ExclusiveModel | undefined {
  return constraint === undefined ? undefined : entity.exclusive.find((rule) => rule.constraint === constraint);
}

/** Whether the rule holds the record: selected by its condition (as the constraint's predicate reads it) and with a start. */
export function takesTime(model: AppModel, entity: EntityModel, rule: ExclusiveModel, record: RecordLike): boolean {
  const start = record[rule.start];
  if (start === null || start === undefined) return false;
  return !rule.where || holds(model, entity, rule.where, record) === true;
}

export function endsBeforeStart(entity: EntityModel, rule: ExclusiveModel): NinefoldError {
  const label = (name: string) => entity.fieldsByName[name]?.label ?? name;
  return new NinefoldError('VALIDATION_FAILED', undefined, {
    fieldErrors: [{ field: rule.end, code: 'range', message: `${label(rule.end)} cannot be before ${label(rule.start)}.` }],
  });
}

/** Datetimes as instants, dates (`YYYY-MM-DD`) as their text, which sorts the same. */
export function comparable(value: unknown): number | string {
  if (value instanceof Date) return value.getTime();
  return typeof value === 'number' ? value : String(value);
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return (a ?? null) === (b ?? null);
}
