import { sql } from 'kysely';
import type { NinefoldError } from '../errors/ninefold-error';
import { fieldRefusal } from '../errors/field-refusal';
import type { RecordLike } from '../condition/evaluate';
import type { AppModel, EntityModel, UniqueWhenModel } from '../spec/model';
import type { Condition } from '../spec/types';
import { compiledOf, type ConditionSource } from '../condition/book';
import { literalPredicateSql, predicateColumn } from '../condition/literal-sql';
import { holdsThreeValued } from '../condition/three-valued';
import type { DynamicDatabase } from '../store/types';
import { valuesToRow } from './records';

/** The rule's code (VALIDATION_FAILED unless it names its own) with its message on its first field: what a refused write reads. */
export function uniqueWhenViolation(errors: AppModel['errors'], rule: UniqueWhenModel): NinefoldError {
  const [field] = rule.fields;
  if (field === undefined) throw new Error(`The uniqueWhen rule ${rule.index} has no field, though the spec's validation checks it`);
  return fieldRefusal(errors, rule.code, [{ field, code: 'unique', message: rule.message }]);
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
      .where(sql.raw<boolean>(literalPredicateSql(entity, model.conditions.of(rule.where))))
      .limit(1);
    for (const name of rule.fields) {
      const column = predicateColumn(entity, name);
      others = others.where(column, '=', row[column]);
    }
    if (typeof after.id === 'number') others = others.where('id', '<>', after.id);
    if (await others.executeTakeFirst()) throw uniqueWhenViolation(model.errors, rule);
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
export function holds(model: ConditionSource, entity: EntityModel, condition: Condition, record: RecordLike): boolean | null {
  return holdsThreeValued(compiledOf(model, condition), record);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return a === b;
}
