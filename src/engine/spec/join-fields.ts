import type { EntityModel, FieldModel } from './model';

/*
 * A set — a references field (many-to-many) or a users field — has no column of its own: its
 * pairs live in a join table (`FieldModel.joinTable`). Whatever reads or writes columns skips
 * it; what reads or writes the pairs takes it from here. A references field's targets are
 * records of its `to` entity (`referenceTo`); a users field's are accounts (no `referenceTo`).
 */

/** True for a field kept in a column of the entity's table (every field but sets). */
export function hasColumn(field: FieldModel): boolean {
  return field.joinTable === undefined;
}

/** A field kept in a join table. */
export type JoinField = FieldModel & { readonly joinTable: string };

/** The entity's sets (references and users fields), each with its join table. */
export function joinFields(entity: EntityModel): JoinField[] {
  return entity.fields.filter((f): f is JoinField => f.joinTable !== undefined);
}

/** Whether a field is a set (references, users), by its type: a field built alone (a call's input) has no join table. */
export function isSetField(field: Pick<FieldModel, 'type'>): boolean {
  return field.type === 'references' || field.type === 'users';
}

/** Whether a field holds users: one (`user`) or a set of them (`users`). */
export function holdsUsers(field: Pick<FieldModel, 'type'>): boolean {
  return field.type === 'user' || field.type === 'users';
}

/** The most ids a references field holds (its `maxItems` may only lower it): a set people pick from. */
export const MAX_REFERENCES = 1000;

/** The join table's column holding the owning record's id. */
export const JOIN_RECORD = 'record_id';
/** The join table's column holding the referenced record's id. */
export const JOIN_TARGET = 'target_id';
