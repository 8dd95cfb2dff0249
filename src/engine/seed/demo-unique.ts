import type { EntityModel, FieldModel } from '../spec/model';
import type { DynamicDatabase } from '../store/types';
import type { SeedRun } from './seed-run';
import type { Values } from './workflow-walk';
import { declaredField } from '../ops/declared';

/*
 * The entity's unique fields and `uniqueTogether` groups in the demo: whatever their type (a
 * text, a date, a user, a reference, an order's product), the database refuses a second record
 * with the same values, so the seeder keeps, per key, the value tuples taken by the records it
 * made (and those an earlier run left), picks values that are still free, and never writes a
 * record that takes a tuple twice.
 */

/** The field names of one unique key: a unique field alone, or a `uniqueTogether` group. */
type UniqueKey = readonly string[];

const keysOf = new WeakMap<EntityModel, readonly UniqueKey[]>();

/** The entity's unique keys, as the schema's unique constraints have them. */
export function uniqueKeys(entity: EntityModel): readonly UniqueKey[] {
  let keys = keysOf.get(entity);
  if (!keys) keysOf.set(entity, (keys = [...entity.fields.filter((f) => f.unique).map((f) => [f.name]), ...entity.uniqueTogether]));
  return keys;
}

const keyName = (entity: EntityModel, key: UniqueKey) => `${entity.name}:${key.join('+')}`;

/**
 * The key's values as one text, or null when one is empty (NULLs never collide). Text in lower
 * case, so that demo values differ by more than case; times by their time; ids as text, so that
 * a record made here and a row read back agree.
 */
function tupleOf(key: UniqueKey, record: Values): string | null {
  const values = key.map((name) => record[name]);
  if (values.some((v) => v === null || v === undefined)) return null;
  return JSON.stringify(values.map((v) => (v instanceof Date ? String(v.getTime()) : String(v).toLowerCase())));
}

function takenOf(run: SeedRun, entity: EntityModel, key: UniqueKey): Set<string> {
  const name = keyName(entity, key);
  let taken = run.uniqueTaken.get(name);
  if (!taken) run.uniqueTaken.set(name, (taken = new Set()));
  return taken;
}

/**
 * Whether `field` may take a value in this record without taking a tuple twice, for the keys
 * whose other fields the record already has (the rest are checked when it is made).
 */
export function freeFor(run: SeedRun, entity: EntityModel, field: FieldModel, record: Values): (value: unknown) => boolean {
  const keys = uniqueKeys(entity).filter((key) => key.includes(field.name));
  if (keys.length === 0) return () => true;
  return (value) =>
    keys.every((key) => {
      const tuple = tupleOf(key, { ...record, [field.name]: value });
      return tuple === null || !takenOf(run, entity, key).has(tuple);
    });
}

/** Whether the field is part of a unique key (its values must be picked free). */
export function isUniquePart(entity: EntityModel, field: FieldModel): boolean {
  return uniqueKeys(entity).some((key) => key.includes(field.name));
}

/** The keys whose tuple the record would take a second time, by their field names. */
export function uniqueCollisions(run: SeedRun, entity: EntityModel, record: Values): string[] {
  return uniqueKeys(entity).flatMap((key) => {
    const tuple = tupleOf(key, record);
    return tuple !== null && takenOf(run, entity, key).has(tuple) ? [key.join(' + ')] : [];
  });
}

/** Takes the record's tuples, once it is made. */
export function takeUnique(run: SeedRun, entity: EntityModel, record: Values): void {
  for (const key of uniqueKeys(entity)) {
    const tuple = tupleOf(key, record);
    if (tuple !== null) takenOf(run, entity, key).add(tuple);
  }
}

/** What an earlier run (or anyone) left: the tuples of the records already stored are taken too. */
export async function rememberUnique(run: SeedRun, db: DynamicDatabase, entity: EntityModel): Promise<void> {
  for (const key of uniqueKeys(entity)) {
    const fields = key.map((name) => declaredField(entity, name));
    let query = db.selectFrom(entity.table).select(fields.map((f) => f.column));
    for (const field of fields) query = query.where(field.column, 'is not', null);
    const taken = takenOf(run, entity, key);
    for (const row of await query.execute()) {
      const tuple = tupleOf(key, Object.fromEntries(fields.map((f) => [f.name, row[f.column]])));
      if (tuple !== null) taken.add(tuple);
    }
  }
}
