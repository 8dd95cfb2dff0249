import type { EntityModel, FieldModel } from './model';

/*
 * A references field (many-to-many) has no column of its own: its pairs live in a join table
 * (`FieldModel.joinTable`). Whatever reads or writes columns skips it; what reads or writes
 * the pairs takes it from here.
 */

/** True for a field kept in a column of the entity's table (every field but references). */
export function hasColumn(field: FieldModel): boolean {
  return field.joinTable === undefined;
}

/** The entity's references fields, each with its join table. */
export function joinFields(entity: EntityModel): (FieldModel & { readonly joinTable: string; readonly referenceTo: string })[] {
  return entity.fields.filter(
    (f): f is FieldModel & { joinTable: string; referenceTo: string } => f.joinTable !== undefined && f.referenceTo !== undefined,
  );
}

/** The most ids a references field holds (its `maxItems` may only lower it): a set people pick from. */
export const MAX_REFERENCES = 1000;

/** The join table's column holding the owning record's id. */
export const JOIN_RECORD = 'record_id';
/** The join table's column holding the referenced record's id. */
export const JOIN_TARGET = 'target_id';
