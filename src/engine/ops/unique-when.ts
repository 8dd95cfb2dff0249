import { sql } from 'kysely';
import { NinefoldError } from '../errors/ninefold-error';
import type { RecordLike } from '../rules/condition-eval';
import type { AppModel, EntityModel, UniqueWhenModel } from '../spec/model';
import type { Condition } from '../spec/types';
import { literalPredicateSql, predicateColumn, predicateValue, predicateValues, type PredicateLiteral } from '../store/schema/predicate';
import type { DynamicDatabase } from '../store/types';
import { valuesToRow } from './records';

/** VALIDATION_FAILED with the rule's message, on its first field: what a refused write reads. */
export function uniqueWhenViolation(rule: UniqueWhenModel): NinefoldError {
  return new NinefoldError('VALIDATION_FAILED', undefined, {
    fieldErrors: [{ field: rule.fields[0], code: 'unique', message: rule.message }],
  });
}

/**
 * Refuses (VALIDATION_FAILED, the rule's message) a write after which the record would fall
 * under a `uniqueWhen` rule while another record it selects has the same values: creates,
 * updates and transitions alike (a transition into the state the rule names is such a write).
 * Read in the writer's transaction; two writers racing both pass this check, and the partial
 * unique index refuses the second (db-errors.ts maps that to the same error).
 */
export async function checkUniqueWhen(
  model: AppModel,
  trx: DynamicDatabase,
  entity: EntityModel,
  before: RecordLike | null,
  after: RecordLike,
): Promise<void> {
  for (const rule of entity.uniqueWhen) {
    if (holds(model, entity, rule.where, after) !== true) continue;
    const values = rule.fields.map((name) => after[name]);
    // Empty values never collide, as in the index (NULLs are distinct).
    if (values.some((v) => v === null || v === undefined)) continue;
    // Unchanged and already selected: the index has kept it unique all along.
    if (before && holds(model, entity, rule.where, before) === true && rule.fields.every((name, i) => sameValue(before[name], values[i])))
      continue;
    const row = valuesToRow(entity, Object.fromEntries(rule.fields.map((name, i) => [name, values[i]])));
    let others = trx
      .selectFrom(entity.table)
      .select('id')
      .where(sql.raw<boolean>(literalPredicateSql(entity, rule.where, model.constants)))
      .limit(1);
    for (const name of rule.fields) {
      const column = predicateColumn(entity, name);
      others = others.where(column, '=', row[column]);
    }
    if (typeof after.id === 'number') others = others.where('id', '<>', after.id);
    if (await others.executeTakeFirst()) throw uniqueWhenViolation(rule);
  }
}

/** The rule whose index a unique violation names, if any. */
export function uniqueWhenOfIndex(entity: EntityModel, index: string | undefined): UniqueWhenModel | undefined {
  return index === undefined ? undefined : entity.uniqueWhen.find((rule) => rule.index === index);
}

/**
 * The condition on a record as the index predicate reads it, with SQL's three values: null when
 * a comparison meets an empty value, so that `not` of it does not hold either (a row is in a
 * partial index only when its predicate is true).
 */
export function holds(model: Pick<AppModel, 'constants'>, entity: EntityModel, condition: Condition, record: RecordLike): boolean | null {
  if ('all' in condition) return and(condition.all.map((c) => holds(model, entity, c, record)));
  if ('any' in condition) return or(condition.any.map((c) => holds(model, entity, c, record)));
  if ('not' in condition) {
    const inner = holds(model, entity, condition.not, record);
    return inner === null ? null : !inner;
  }
  const actual = record[condition.field];
  const empty = actual === null || actual === undefined;
  switch (condition.op) {
    case 'present':
      return !empty;
    case 'absent':
      return empty;
    case 'in':
    case 'notIn': {
      const list = predicateValues(condition.value, model.constants);
      if (list.length === 0) return condition.op === 'notIn';
      if (empty) return null;
      if (list.some((v) => v !== null && compare(actual, v) === 0)) return condition.op === 'in';
      if (list.includes(null)) return null;
      return condition.op === 'notIn';
    }
    case 'ne': {
      // `is distinct from`, as conditionToSql and the index predicate read `ne`.
      const value = predicateValue(condition.value as Exclude<typeof condition.value, readonly unknown[]>, model.constants);
      if (empty || value === null) return empty !== (value === null);
      return compare(actual, value) !== 0;
    }
    default: {
      const value = predicateValue(condition.value as Exclude<typeof condition.value, readonly unknown[]>, model.constants);
      if (empty || value === null) return null;
      const order = compare(actual, value);
      if (order === null) return null;
      return { eq: order === 0, lt: order < 0, lte: order <= 0, gt: order > 0, gte: order >= 0 }[condition.op];
    }
  }
}

function and(values: readonly (boolean | null)[]): boolean | null {
  if (values.includes(false)) return false;
  return values.includes(null) ? null : true;
}

function or(values: readonly (boolean | null)[]): boolean | null {
  if (values.includes(true)) return true;
  return values.includes(null) ? null : false;
}

/** A stored value against a literal, as the database compares them: times by time, numbers by number. */
function compare(actual: unknown, literal: Exclude<PredicateLiteral, null>): number | null {
  if (actual instanceof Date) {
    const time = Date.parse(String(literal));
    return Number.isNaN(time) ? null : Math.sign(actual.getTime() - time);
  }
  if (typeof literal === 'number' || typeof actual === 'number') {
    const a = Number(actual);
    const b = Number(literal);
    return Number.isNaN(a) || Number.isNaN(b) ? null : Math.sign(a - b);
  }
  if (typeof literal === 'boolean' || typeof actual === 'boolean') {
    const a = actual === true || actual === 'true';
    const b = literal === true || literal === 'true';
    return a === b ? 0 : a ? 1 : -1;
  }
  const a = String(actual);
  const b = String(literal);
  return a === b ? 0 : a < b ? -1 : 1;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return a === b;
}
