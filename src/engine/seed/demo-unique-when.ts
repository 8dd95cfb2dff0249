import { sql } from 'kysely';
import { holds } from '../ops/unique-when';
import type { EntityModel, UniqueWhenModel } from '../spec/model';
import { literalPredicateSql, predicateColumn } from '../condition/literal-sql';
import { conditionFields } from '../condition/fields';
import { conditionShape } from '../condition/compile';
import type { DynamicDatabase } from '../store/types';
import type { SeedRun } from './seed-run';
import type { Values } from './workflow-walk';

/*
 * The entity's `uniqueWhen` in the demo: each rule's partial unique index would refuse a second
 * record with the same values among those its condition selects (one featured article per
 * section, one active loan per item), so the seeder tracks, per rule, the value tuples taken by
 * the records it made (and those an earlier run left) and never makes a colliding one.
 */

/** Value tuples taken per rule, by the rule's index name. */
const takenByRun = new WeakMap<SeedRun, Map<string, Set<string>>>();

function takenOf(run: SeedRun, rule: UniqueWhenModel): Set<string> {
  let byRule = takenByRun.get(run);
  if (!byRule) takenByRun.set(run, (byRule = new Map()));
  let taken = byRule.get(rule.index);
  if (!taken) byRule.set(rule.index, (taken = new Set()));
  return taken;
}

/**
 * The rule's values as the index compares them, or null when one is empty: NULLs never collide.
 * As text, so that a record made here and a row read back (ids as strings) agree.
 */
function tupleOf(rule: UniqueWhenModel, record: Values): string | null {
  const values = rule.fields.map((name) => record[name]);
  if (values.some((v) => v === null || v === undefined)) return null;
  return JSON.stringify(values.map((v) => (v instanceof Date ? String(v.getTime()) : String(v))));
}

/** The rule's tuple when the record falls under it (its condition holds as the index predicate reads it). */
function selectedTuple(run: SeedRun, entity: EntityModel, rule: UniqueWhenModel, record: Values): string | null {
  return holds(run.model, entity, rule.where, record) === true ? tupleOf(rule, record) : null;
}

/**
 * The rules the record would break: it falls under them with values another record holds.
 * `fixedOnly`: only rules with no field the seeder may give another value (one active loan per
 * item), which only the workflow gets a record out of.
 */
export function uniqueWhenCollisions(run: SeedRun, entity: EntityModel, record: Values, fixedOnly = false): UniqueWhenModel[] {
  return entity.uniqueWhen.filter((rule) => {
    if (fixedOnly && uniqueWhenFreeFields(entity, [rule]).length > 0) return false;
    const tuple = selectedTuple(run, entity, rule, record);
    return tuple !== null && takenOf(run, rule).has(tuple);
  });
}

/** Takes the record's tuples, once it is made. */
export function takeUniqueWhen(run: SeedRun, entity: EntityModel, record: Values): void {
  for (const rule of entity.uniqueWhen) {
    const tuple = selectedTuple(run, entity, rule, record);
    if (tuple !== null) takenOf(run, rule).add(tuple);
  }
}

/**
 * The fields the seeder may give other values to get a record out of a collision: the rule's
 * own fields and those its condition reads, except the workflow state (the record's history
 * walked there), references (chosen to agree with each other), read-only fields and paths.
 */
export function uniqueWhenFreeFields(entity: EntityModel, rules: readonly UniqueWhenModel[]): string[] {
  const names = new Set(
    rules.flatMap((rule) => [...rule.fields, ...conditionFields(conditionShape(rule.where), { paths: 'whole', operands: false })]),
  );
  return [...names].filter((name) => {
    const field = entity.fieldsByName[name];
    return (
      field !== undefined &&
      name !== entity.workflow?.field &&
      !field.readOnly &&
      !field.due &&
      field.type !== 'reference' &&
      field.type !== 'references'
    );
  });
}

/** What an earlier run left under each rule: its records' tuples are taken too. */
export async function rememberUniqueWhen(run: SeedRun, db: DynamicDatabase, entity: EntityModel): Promise<void> {
  for (const rule of entity.uniqueWhen) {
    const columns = rule.fields.map((name) => ({ name, column: predicateColumn(entity, name) }));
    const rows = await db
      .selectFrom(entity.table)
      .select(columns.map((c) => c.column))
      .where(sql.raw<boolean>(literalPredicateSql(entity, run.model.conditions.of(rule.where))))
      .execute();
    for (const row of rows) {
      const record = Object.fromEntries(columns.map(({ name, column }) => [name, row[column]]));
      const tuple = tupleOf(rule, record);
      if (tuple !== null) takenOf(run, rule).add(tuple);
    }
  }
}
