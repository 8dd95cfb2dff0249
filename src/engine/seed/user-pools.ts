import { ADMIN_ROLE, rolesOf } from '../access/policy';
import { RECORD_ACTIONS } from '../access/record-actions';
import { PUBLIC_ROLE } from '../access/visitor';
import type { AppModel, EntityModel, TransitionModel } from '../spec/model';
import type { Scope } from '../spec/types';

/*
 * Which demo users fit where, read from the spec's access rules (never from field names): the
 * people a record names are the people the spec lets act on it.
 */

/** The roles of the spec users hold (not `public`: visitors have no account), or the built-in admin when it declares none. */
export function specRoles(model: AppModel): string[] {
  const declared = Object.keys(model.roles).filter((role) => role !== PUBLIC_ROLE);
  return declared.length > 0 ? declared : [ADMIN_ROLE];
}

/** A role's grant on the entity, as the access layer reads it (the public's, which everyone holds, when the role has none). */
function grantOf(entity: EntityModel, role: string) {
  return rolesOf(entity, { userId: 0, email: '', name: '', roles: [role] })[0];
}

function scopesOf(entity: EntityModel, role: string): Scope[] {
  const grant = grantOf(entity, role);
  if (!grant) return [];
  return [...RECORD_ACTIONS.map((action) => grant.scopes[action]), ...Object.values(grant.transitions)].filter(
    (s): s is Scope => s !== undefined,
  );
}

/** The records of the entity a role may read: a scope, or undefined for none. */
export function readScope(entity: EntityModel, role: string): Scope | undefined {
  return grantOf(entity, role)?.scopes.read;
}

/** The roles allowed to take the transition: by its `allow` list or a grant's `transitions`. */
export function transitionRoles(model: AppModel, entity: EntityModel, transition: TransitionModel): string[] {
  return specRoles(model).filter(
    (role) => transition.allow.includes(role) || Object.hasOwn(grantOf(entity, role)?.transitions ?? {}, transition.name),
  );
}

/** The roles that may create records of the entity, with the scope each may create in. */
export function creatorRoles(model: AppModel, entity: EntityModel): { role: string; scope: Scope }[] {
  return specRoles(model).flatMap((role) => {
    const scope = grantOf(entity, role)?.scopes.create;
    return scope === undefined ? [] : [{ role, scope }];
  });
}

/** The roles that may update records of the entity. */
function updaterRoles(model: AppModel, entity: EntityModel): string[] {
  return specRoles(model).filter((role) => grantOf(entity, role)?.scopes.update !== undefined);
}

/**
 * The roles whose users fit a user field, by the first rule that names any:
 * 0. the field's `roles` (only they may hold it);
 * 1. roles whose grants scope records by this field (`own`): the field names the record's owner,
 *    who must be one of them to see it (a ticket's requester: customers);
 * 2. roles that may take a transition that `requires` the field: the field names who works the
 *    record (the assignee, needed to start a ticket: agents);
 * 3. for a field that defaults to the actor, the roles that may create the record;
 * 4. the roles that may update the record; 5. every role.
 * The built-in admin role is dropped when another role fits: it holds every right in most specs,
 * so it would fit every field, while the demo should show the people whose work a field names.
 */
export function rolesForUserField(model: AppModel, entity: EntityModel, fieldName: string): string[] {
  const roles = specRoles(model);
  const field = entity.fieldsByName[fieldName];
  const candidates: (() => string[])[] = [
    // The field's own `roles` bound every other rule: no one else may hold it.
    () => (field?.holderRoles ? [...field.holderRoles] : []),
    () => roles.filter((role) => scopesOf(entity, role).some((scope) => scope !== true && scope.own === fieldName)),
    () => [
      ...new Set(
        entity.workflow?.transitions.filter((t) => t.requires.includes(fieldName)).flatMap((t) => transitionRoles(model, entity, t)),
      ),
    ],
    () => (field?.spec.type === 'user' && field.spec.default === 'actor' ? creatorRoles(model, entity).map((c) => c.role) : []),
    () => updaterRoles(model, entity),
    () => roles,
  ];
  for (const candidate of candidates) {
    const found = candidate();
    if (found.length === 0) continue;
    const withoutAdmin = found.filter((role) => role !== ADMIN_ROLE);
    return withoutAdmin.length > 0 ? withoutAdmin : found;
  }
  return roles;
}

/**
 * The roles that own records through some user field (rule 1 above): each of their users has
 * records of their own, so the demo needs more of them as the data grows (customers).
 */
export function owningRoles(model: AppModel): Set<string> {
  const owning = new Set<string>();
  for (const entity of model.entities) {
    for (const field of entity.fields) {
      if (field.type !== 'user' && field.type !== 'users') continue;
      for (const role of specRoles(model)) {
        if (scopesOf(entity, role).some((scope) => scope !== true && scope.own === field.name)) owning.add(role);
      }
    }
  }
  return owning;
}
