import { sql, type AliasedRawBuilder } from 'kysely';
import { JOIN_RECORD, JOIN_TARGET, joinFields } from '../spec/join-fields';
import type { EntityModel, FieldModel } from '../spec/model';
import type { RecordData } from './types';
import type { RecordValue } from '../ground/record-value';

/** The SQL column of a field, system column or the workflow state, by its spec name. */
export function columnFor(entity: EntityModel, name: string): string {
  const field = entity.fieldsByName[name];
  if (field) return field.column;
  const system = entity.systemColumns.find((c) => c.name === name);
  if (system) return system.column;
  if (entity.workflow && entity.workflow.field === name) return entity.workflow.column;
  throw new Error(`${entity.name} has no column for "${name}"`);
}

/**
 * Every column a record is read with (never the generated search vector). A references field
 * is read from its join table by a subquery of the same statement (by the join table's primary
 * key), so a page of records costs one statement however many fields and rows it has.
 */
export function recordColumns(entity: EntityModel): (string | AliasedRawBuilder<readonly number[], string>)[] {
  const joined = new Set(joinFields(entity).map((f) => f.name));
  return [
    ...entity.systemColumns.map((c) => c.column),
    ...(entity.workflow ? [entity.workflow.column] : []),
    ...entity.fields.map((f) => (joined.has(f.name) ? referenceIdsColumn(entity, f) : f.column)),
  ];
}

/** The ids a references field holds, ascending, as a column named after the field's column. */
function referenceIdsColumn(entity: EntityModel, field: FieldModel): AliasedRawBuilder<readonly number[], string> {
  const join = sql.table(field.joinTable!);
  return sql<
    readonly number[]
  >`coalesce((select array_agg(j.${sql.ref(JOIN_TARGET)} order by j.${sql.ref(JOIN_TARGET)}) from ${join} j where j.${sql.ref(JOIN_RECORD)} = ${sql.table(entity.table)}.id), '{}'::bigint[])`.as(
    field.column,
  );
}

/** A database row (snake_case columns) as a record (spec names). */
export function rowToRecord(entity: EntityModel, row: Record<string, unknown>): RecordData {
  const record: Record<string, RecordValue> = {};
  for (const c of entity.systemColumns) record[c.name] = row[c.column] as RecordValue;
  if (entity.workflow) record[entity.workflow.field] = row[entity.workflow.column] as RecordValue;
  for (const f of entity.fields) record[f.name] = (row[f.column] ?? null) as RecordValue;
  return record as unknown as RecordData;
}

/** Field values (spec names) as a row to write (snake_case columns). */
export function valuesToRow(entity: EntityModel, values: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    // A references field is written to its join table (ops/reference-sets.ts), not to a column.
    if (entity.fieldsByName[name]?.joinTable === undefined) row[columnFor(entity, name)] = value;
  }
  return row;
}

export function isNullableSortColumn(entity: EntityModel, name: string): boolean {
  const field: FieldModel | undefined = entity.fieldsByName[name];
  if (field) return !field.required;
  return name === 'createdBy' || name === 'updatedBy';
}
