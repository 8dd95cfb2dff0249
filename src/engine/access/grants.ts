import type { RecordAction } from './record-actions';
import type { Actor } from '../ground/actor';
import type { EntityModel } from '../spec/model';
import type { Scope } from '../spec/types';
import { writesThroughDoor } from './call-door';
import { rolesOf, type RolePolicy } from './policy';
import { PUBLIC_ROLE } from './visitor';

/** A role's compiled grant with the scope it gives for one action (or transition). */
export type ScopedGrant = RolePolicy & { readonly scope: Scope };

/** The grants of the actor's roles that allow the action (with the scope each gives). */
export function grantsFor(entity: EntityModel, actor: Actor, action: RecordAction): readonly ScopedGrant[] {
  // The write grants of an entity only calls write hold through its calls alone.
  if (!writesThroughDoor(entity, actor, action)) return [];
  return rolesOf(entity, actor).flatMap((g) => {
    const scope = g.scopes[action];
    return scope === undefined ? [] : [{ ...g, scope }];
  });
}

/**
 * Whether a role of the actor may create any record of the entity (`create: true`), rather than
 * only those its condition admits (a customer's own tickets): staff, for the limits that are
 * lower for everyone else (the rows of one import). The public's grant, which everyone holds,
 * makes no one staff.
 */
export function createsAnyRecord(entity: EntityModel, actor: Actor): boolean {
  return rolesOf(entity, actor).some((g) => g.role !== PUBLIC_ROLE && g.scopes.create === true);
}

/**
 * The user field by which the actor lists only their own records, when every list grant of theirs
 * is exactly `{ own: field }` on that one field; null otherwise (the running totals keep counts per
 * such owner).
 */
export function ownListField(entity: EntityModel, actor: Actor): string | null {
  const owns = new Set<string>();
  for (const { scope } of grantsFor(entity, actor, 'list')) {
    if (typeof scope !== 'object' || Object.keys(scope).length !== 1 || typeof scope.own !== 'string') return null;
    owns.add(scope.own);
  }
  const [field] = owns;
  return owns.size === 1 && field !== undefined ? field : null;
}

/** The grants of the actor's roles that allow the workflow transition `name`. */
export function transitionGrantsFor(entity: EntityModel, actor: Actor, name: string): readonly ScopedGrant[] {
  return rolesOf(entity, actor).flatMap((g) => {
    const scope = Object.hasOwn(g.transitions, name) ? g.transitions[name] : undefined;
    return scope === undefined ? [] : [{ ...g, scope }];
  });
}
