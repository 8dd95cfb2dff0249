import 'server-only';
import type { Actor } from '@/engine/ops/types';
import type { EntityModel, FieldModel } from '@/engine/spec/model';
import type { GrantSpec } from '@/engine/spec/types';

/*
 * What to OFFER in the UI, read from the permissions of the spec: which buttons to show and
 * which fields a form asks for. It never decides anything: ops checks every call and has the
 * last word (row scopes included). A role's grants are combined generously (any grant allows),
 * so the UI may offer something ops then refuses with a clear message, never the reverse.
 */

function grantsOf(entity: EntityModel, actor: Actor): readonly GrantSpec[] {
  return actor.roles.map((role) => entity.permissions[role]).filter((grant): grant is GrantSpec => grant !== undefined);
}

/** Whether to offer an action; when the spec declares no permissions for the entity, ops alone decides. */
export function mayOffer(entity: EntityModel, actor: Actor, action: 'list' | 'create' | 'update' | 'delete'): boolean {
  if (Object.keys(entity.permissions).length === 0) return true;
  return grantsOf(entity, actor).some((grant) => Boolean(grant[action]));
}

function isHidden(field: string, grants: readonly GrantSpec[]): boolean {
  return grants.length > 0 && grants.every((grant) => grant.hiddenFields?.includes(field));
}

function isWritable(field: string, grants: readonly GrantSpec[]): boolean {
  if (grants.length === 0) return true;
  return grants.some(
    (grant) =>
      !grant.hiddenFields?.includes(field) &&
      !grant.readOnlyFields?.includes(field) &&
      (grant.writableFields === undefined || grant.writableFields.includes(field)),
  );
}

/** The fields a create or edit form asks for: not read-only, not the workflow state (only transitions change it). */
export function formFieldsFor(entity: EntityModel, actor: Actor): readonly FieldModel[] {
  const grants = grantsOf(entity, actor);
  return entity.fields.filter(
    (field) => !field.readOnly && field.name !== entity.workflow?.field && isWritable(field.name, grants),
  );
}

/** The fields a detail page shows, hiding those every role of the actor is denied. */
export function visibleFieldsFor(entity: EntityModel, actor: Actor): readonly FieldModel[] {
  const grants = grantsOf(entity, actor);
  return entity.fields.filter((field) => !isHidden(field.name, grants));
}
