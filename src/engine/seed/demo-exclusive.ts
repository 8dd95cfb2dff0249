import { sql } from 'kysely';
import { comparable, takesTime } from '../ops/exclusive';
import type { EntityModel, ExclusiveModel } from '../spec/model';
import { literalPredicateSql, predicateColumn } from '../condition/literal-sql';
import type { DynamicDatabase } from '../store/types';
import type { SeedRun } from './seed-run';
import type { Values } from './workflow-walk';

/*
 * The entity's `exclusive` in the demo: each rule's exclusion constraint would refuse a record
 * whose range overlaps another's with the same key, so the seeder keeps, per rule and key, the
 * ranges taken by the records it made (and those an earlier run left) and makes no overlapping one.
 */

type Bound = number | string;
interface Taken {
  readonly start: Bound;
  /** null: open-ended. */
  readonly end: Bound | null;
}

/** Ranges taken per rule (by its constraint's name), then per key. */
const takenByRun = new WeakMap<SeedRun, Map<string, Map<string, Taken[]>>>();

function takenOf(run: SeedRun, rule: ExclusiveModel, key: string): Taken[] {
  let byRule = takenByRun.get(run);
  if (!byRule) takenByRun.set(run, (byRule = new Map()));
  let byKey = byRule.get(rule.constraint);
  if (!byKey) byRule.set(rule.constraint, (byKey = new Map()));
  let taken = byKey.get(key);
  if (!taken) byKey.set(key, (taken = []));
  return taken;
}

/** The key as text (ids read back are strings), or null when a part is empty: it is equal to nothing. */
function keyOf(rule: ExclusiveModel, record: Values): string | null {
  const values = rule.per.map((name) => record[name]);
  if (values.some((v) => v === null || v === undefined)) return null;
  return JSON.stringify(values.map((v) => (v instanceof Date ? String(v.getTime()) : String(v))));
}

function rangeOf(rule: ExclusiveModel, record: Values): Taken {
  const end = record[rule.end];
  return { start: comparable(record[rule.start]), end: end === null || end === undefined ? null : comparable(end) };
}

/** Half-open ranges overlap when each starts before the other ends. */
function overlap(a: Taken, b: Taken): boolean {
  return (a.end === null || b.start < a.end) && (b.end === null || a.start < b.end);
}

/** The rules the record would break: its range ends before it starts, or overlaps one taken with its key. */
export function exclusiveCollisions(run: SeedRun, entity: EntityModel, record: Values): ExclusiveModel[] {
  return entity.exclusive.filter((rule) => {
    if (!takesTime(run.model, entity, rule, record)) return false;
    const range = rangeOf(rule, record);
    if (range.end !== null && range.end < range.start) return true;
    const key = keyOf(rule, record);
    return key !== null && takenOf(run, rule, key).some((taken) => overlap(taken, range));
  });
}

/** Takes the record's ranges, once it is made. */
export function takeExclusive(run: SeedRun, entity: EntityModel, record: Values): void {
  for (const rule of entity.exclusive) {
    const key = keyOf(rule, record);
    if (key !== null && takesTime(run.model, entity, rule, record)) takenOf(run, rule, key).push(rangeOf(rule, record));
  }
}

/** What an earlier run left under each rule: its records' ranges are taken too. */
export async function rememberExclusive(run: SeedRun, db: DynamicDatabase, entity: EntityModel): Promise<void> {
  for (const rule of entity.exclusive) {
    const names = [rule.start, rule.end, ...rule.per];
    const columns = names.map((name) => ({ name, column: predicateColumn(entity, name) }));
    let rows = db
      .selectFrom(entity.table)
      .select(columns.map((c) => c.column))
      .where(predicateColumn(entity, rule.start), 'is not', null);
    if (rule.where) rows = rows.where(sql.raw<boolean>(literalPredicateSql(entity, run.model.conditions.of(rule.where))));
    for (const row of await rows.execute()) {
      const record = Object.fromEntries(columns.map(({ name, column }) => [name, row[column]]));
      const key = keyOf(rule, record);
      if (key !== null) takenOf(run, rule, key).push(rangeOf(rule, record));
    }
  }
}
