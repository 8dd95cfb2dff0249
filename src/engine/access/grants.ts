import type { RecordAction } from './record-actions';
import type { Actor } from '../ground/actor';
import type { EntityModel } from '../spec/model';
import type { GrantSpec, Scope } from '../spec/types';
import { writesThroughDoor } from './call-door';
import { PUBLIC_ROLE } from './visitor';

/**
 * The built-in role of the bootstrap administrator (the first user, and every user of a spec
 * that declares no roles). It has no special power on an entity whose permissions the spec
 * declares; an entity whose spec declares no permissions at all is open to it alone.
 */
export const ADMIN_ROLE = 'admin';

/** A role's grant, with the role it belongs to (for messages and logs). */
export interface RoleGrant {
  readonly role: string;
  readonly grant: GrantSpec;
}

const adminGrants = new WeakMap<EntityModel, GrantSpec>();

/** Everything on an entity, every transition of its workflow included. */
function fullGrant(entity: EntityModel): GrantSpec {
  let grant = adminGrants.get(entity);
  if (!grant) {
    const transitions: Record<string, Scope> = {};
    for (const t of entity.workflow?.transitions ?? []) transitions[t.name] = true;
    grant = { list: true, read: true, create: true, update: true, delete: true, transitions };
    adminGrants.set(entity, grant);
  }
  return grant;
}

/**
 * The grants of the actor's roles (and of `public`, which everyone holds) on the entity. Deny by default: a role without a grant has
 * none, and an entity whose spec declares no permissions at all is open to `admin` only.
 */
export function grantsOf(entity: EntityModel, actor: Actor): readonly RoleGrant[] {
  const declared = entity.permissions;
  if (Object.keys(declared).length === 0) {
    return actor.roles.includes(ADMIN_ROLE) ? [{ role: ADMIN_ROLE, grant: fullGrant(entity) }] : [];
  }
  const grants: RoleGrant[] = [];
  // Everyone, signed in or not, holds what the public is granted.
  for (const role of new Set([...actor.roles, PUBLIC_ROLE])) {
    if (Object.hasOwn(declared, role)) grants.push({ role, grant: declared[role] });
  }
  return grants;
}

/** The grants of the actor's roles that allow the action (with the scope each gives). */
export function grantsFor(entity: EntityModel, actor: Actor, action: RecordAction): readonly (RoleGrant & { readonly scope: Scope })[] {
  // The write grants of an entity only calls write hold through its calls alone.
  if (!writesThroughDoor(entity, actor, action)) return [];
  return grantsOf(entity, actor).flatMap((g) => {
    const scope = g.grant[action];
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
  return grantsOf(entity, actor).some((g) => g.role !== PUBLIC_ROLE && g.grant.create === true);
}

/** The grants of the actor's roles that allow the workflow transition `name`. */
export function transitionGrantsFor(entity: EntityModel, actor: Actor, name: string): readonly (RoleGrant & { readonly scope: Scope })[] {
  return grantsOf(entity, actor).flatMap((g) => {
    const scope = g.grant.transitions && Object.hasOwn(g.grant.transitions, name) ? g.grant.transitions[name] : undefined;
    return scope === undefined ? [] : [{ ...g, scope }];
  });
}
