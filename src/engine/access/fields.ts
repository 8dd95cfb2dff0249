import type { FieldError } from '../errors/ninefold-error';
import type { Actor } from '../ground/actor';
import { AUTHOR_COLUMNS } from '../spec/author-columns';
import type { EntityModel, FieldModel } from '../spec/model';
import { callsOnlyFieldMessage, fieldWritableThroughDoor, isThroughCall } from './call-door';
import { capitalize, indefinite } from '../spec/naming';
import { grantsFor } from './grants';
import { rolesOf, type RolePolicy } from './policy';
import { forbiddenField, type RefusedAction } from './refusal';

/*
 * Field rules of the grants (hiddenFields, readOnlyFields, writableFields), combined over the
 * actor's roles generously: a field is readable when any role that lets the actor see records
 * of the entity (list or read) does not hide it; writable when any role that grants the write
 * does not hide it, does not make it read-only, and (when it names them) lists it among its
 * writable fields. A field the spec itself makes read-only is never writable, whatever the role;
 * one only calls write (`writtenBy: 'calls'`) is writable through a call whose actor's role grants
 * the write, and through no other door.
 * Who created a record and who changed it last (createdBy, updatedBy) are read like fields: a
 * grant may hide them, and the `public` role hides them by default (visitors read what is
 * published, not who on the staff wrote or changed it). The other system columns and the workflow
 * state are readable by whoever may see the record.
 */

/** The grants through which the actor sees records: those that grant list or read. */
function seeingGrants(entity: EntityModel, actor: Actor): readonly RolePolicy[] {
  return rolesOf(entity, actor).filter((g) => g.sees);
}

/** The declared fields the actor may read, in spec order, then the author columns they may read. */
export function readableFields(entity: EntityModel, actor: Actor): readonly string[] {
  const grants = seeingGrants(entity, actor);
  return [...entity.fields.map((f) => f.name), ...AUTHOR_COLUMNS].filter((name) => grants.some((g) => !g.hidden.has(name)));
}

/** The declared fields the actor may write with `action`, in spec order. */
export function writableFields(entity: EntityModel, actor: Actor, action: 'create' | 'update'): readonly string[] {
  const grants = grantsFor(entity, actor, action);
  if (grants.length === 0) return [];
  // A field only calls write is the call's to set, not the user's: the roles' field lists are about the other doors.
  const writable = (f: FieldModel) =>
    fieldWritableThroughDoor(f, actor) && (f.writtenBy === 'calls' || grants.some((g) => g.writes.has(f.name)));
  return entity.fields.filter(writable).map((f) => f.name);
}

/** Names a list may always use: the system columns but the authors, and the workflow state. */
function isAlwaysReadable(entity: EntityModel, name: string): boolean {
  return (!AUTHOR_COLUMNS.includes(name) && entity.systemColumns.some((c) => c.name === name)) || entity.workflow?.field === name;
}

/** Whether field rules decide who reads the name: a declared field, or an author column. */
function isRuled(entity: EntityModel, name: string): boolean {
  return Object.hasOwn(entity.fieldsByName, name) || AUTHOR_COLUMNS.includes(name);
}

/** Whether the actor may read this field, system column or state of the entity. */
export function isReadable(entity: EntityModel, readable: ReadonlySet<string>, name: string): boolean {
  return isAlwaysReadable(entity, name) || readable.has(name);
}

/**
 * Refuses, with FORBIDDEN_FIELD naming them, the fields of `input` the actor may not write with
 * `action`: read-only ones, the workflow state, and those no granting role lets the actor write.
 * Names that are not fields are left to validation.
 */
export function checkWritable(entity: EntityModel, actor: Actor, action: 'create' | 'update', input: unknown): void {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return;
  const writable = new Set(writableFields(entity, actor, action));
  const errors: FieldError[] = [];
  for (const key of Object.keys(input)) {
    if (entity.workflow && key === entity.workflow.field) {
      errors.push({ field: key, code: 'forbidden_field', message: 'The state changes only through transitions.' });
      continue;
    }
    const field = Object.hasOwn(entity.fieldsByName, key) ? entity.fieldsByName[key] : undefined;
    if (!field || writable.has(key)) continue;
    const message = field.derived
      ? `${field.label} is derived from the ${field.derived.entity} records that refer to it: nobody writes it.`
      : field.readOnly
        ? `${field.label} is read-only.`
        : !isThroughCall(actor) && (field.writtenBy === 'calls' || entity.writtenBy === 'calls')
          ? callsOnlyFieldMessage(field)
          : `You are not allowed to ${action === 'create' ? 'set' : 'change'} ${field.label}.`;
    errors.push({ field: key, code: 'forbidden_field', message });
  }
  if (errors.length > 0) throw forbiddenField(actor, entity, action, errors);
}

/** Whether none of `names` is a field the actor may not read (what checkQueryable refuses, without refusing). */
export function queryableBy(entity: EntityModel, readable: ReadonlySet<string>, names: readonly string[]): boolean {
  return names.every((name) => !isRuled(entity, name) || readable.has(name));
}

/**
 * Refuses with FORBIDDEN_FIELD a list that filters, sorts or searches by what the actor may not
 * read: the answer would tell the hidden values apart. A search is refused when any searchable
 * field is hidden, since the search covers them all.
 */
export function checkQueryable(
  entity: EntityModel,
  actor: Actor,
  readable: ReadonlySet<string>,
  used: { readonly filters: readonly string[]; readonly sort: readonly string[]; readonly search: boolean },
  action: RefusedAction = 'list',
): void {
  const errors: FieldError[] = [];
  const refuse = (field: string, message: string) => {
    if (!errors.some((e) => e.field === field)) errors.push({ field, code: 'forbidden_field', message });
  };
  // Names that are not fields are left to the list's own checks (invalid_filter, invalid_sort).
  const hidden = (name: string) => isRuled(entity, name) && !readable.has(name);
  for (const name of used.filters) {
    if (hidden(name)) refuse(name, `${capitalize(indefinite(entity.label))} list cannot be filtered by "${name}" for you.`);
  }
  for (const name of used.sort) {
    if (hidden(name)) refuse(name, `${capitalize(indefinite(entity.label))} list cannot be sorted by "${name}" for you.`);
  }
  if (used.search) {
    const covered = entity.searchFields.find(hidden);
    if (covered) refuse(covered, `${entity.pluralLabel} cannot be searched for you: the search covers "${covered}".`);
  }
  if (errors.length > 0) throw forbiddenField(actor, entity, action, errors);
}
