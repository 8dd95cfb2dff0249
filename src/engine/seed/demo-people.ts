import { isAdmin, roleOn } from '../access/policy';
import { PUBLIC_ROLE } from '../access/visitor';
import { evaluateCondition } from '../condition/evaluate';
import { readsActor } from '../rules/condition-paths';
import { readsRecord } from './demo-scopes';
import { seedActor, withSeedPaths } from './demo-user-fields';
import type { EntityModel, FieldModel, LimitModel, TransitionModel } from '../spec/model';
import type { LimitSpec, Scope } from '../spec/types';
import { pickFrom, type SeedRun } from './seed-run';
import { ownersIn } from '../access/own';
import { holdsUsers } from '../spec/join-fields';
import { creatorRoles, readScope, rolesForUserField, transitionRoles } from './user-pools';
import type { Values } from './workflow-walk';

/*
 * The people a demo record names: users of the roles the spec's access ties to each part of it
 * (see user-pools.ts), its creator within a create scope, and who takes each of its transitions.
 */

function usersOf(run: SeedRun, roles: readonly string[]): number[] {
  return [...new Set(roles.flatMap((role) => run.users.byRole.get(role) ?? []))];
}

function hasRole(run: SeedRun, user: unknown, role: string): user is number {
  return typeof user === 'number' && (run.users.rolesOf.get(user)?.includes(role) ?? false);
}

function poolOf(run: SeedRun, entity: EntityModel, field: FieldModel): readonly number[] {
  const key = `${entity.name}.${field.name}`;
  let pool = run.pools.get(key);
  if (!pool) {
    pool = usersOf(run, rolesForUserField(run.model, entity, field.name));
    run.pools.set(key, pool);
  }
  return pool;
}

/** The key of an owner's count towards a limit in SeedRun.limitCounts. */
export function limitKey(entity: EntityModel, name: string, owner: unknown): string {
  return `${entity.name}:${name}:${String(owner)}`;
}

/**
 * The most records an owner gets in the demo data: one fewer than the limit, so that every demo
 * user can still make one (a demo customer opens a ticket on day one); a limit of one stays one.
 * A maximum held by the referenced record (`max: { field: 'event.capacity' }`) is not followed
 * here: the seeder does not read the owner's value, so such a limit does not hold back the demo data.
 */
export function seedLimitMax(limit: LimitModel): number {
  if (limit.maxValue === null) return Number.POSITIVE_INFINITY;
  return limit.maxValue > 1 ? limit.maxValue - 1 : limit.maxValue;
}

export function countsTowards(run: SeedRun, limit: LimitSpec, record: Values): boolean {
  const owner = record[limit.per];
  return owner !== null && owner !== undefined && (!limit.where || evaluateCondition(run.model, limit.where, record, run.now));
}

/**
 * A user for a user field: one of the roles that fit it, preferring owners below their limits;
 * only users `free` accepts (a unique field: those no record names yet), null when there is none.
 */
export function userFor(run: SeedRun, entity: EntityModel, field: FieldModel, free: (user: number) => boolean = () => true): number | null {
  const all = poolOf(run, entity, field);
  let pool = all;
  const limited = Object.entries(entity.limits).filter(([, limit]) => limit.per === field.name);
  for (let attempt = 0; attempt < 20; attempt++) {
    const user = pickFrom(run.faker, pool);
    if (user === null) return null;
    if (!free(user)) {
      // Most users are taken once a unique field has named most of them: pick among the others.
      if (attempt === 3 && pool === all) pool = all.filter(free);
      continue;
    }
    if (limited.every(([name, limit]) => (run.limitCounts.get(limitKey(entity, name, user)) ?? 0) < seedLimitMax(limit))) return user;
  }
  return pickFrom(run.faker, pool === all ? all.filter(free) : pool);
}

/**
 * A few users for a users field (a set: an event's organizers), from the same pool as a user
 * field's (its `roles`, else the roles the access ties to it); none sometimes unless required.
 */
export function usersFor(run: SeedRun, entity: EntityModel, field: FieldModel, most: number): number[] {
  const pool = poolOf(run, entity, field);
  const cap = Math.min(most, field.maxItems ?? most, pool.length);
  const count = run.faker.number.int({ min: field.required && cap > 0 ? 1 : 0, max: cap });
  return [...new Set(run.faker.helpers.arrayElements(pool, count))].sort((a, b) => a - b);
}

/** Who among the role's users may read the record described by `facts`: everyone, some, or none. */
function readersOf(run: SeedRun, entity: EntityModel, role: string, facts: Values): 'all' | number[] {
  const scope = readScope(entity, role);
  if (scope === undefined) return [];
  if (scope === true) return 'all';
  if (scope.where && readsActor(scope.where)) {
    // A condition on the user (their own, their organization's): of the users the record names, those it admits.
    if (scope.via) return [];
    const named = entity.fields.filter(holdsUsers).flatMap((f) => ownersIn(facts[f.name]));
    const where = scope.where;
    return [...new Set(named)].filter(
      (user): user is number =>
        hasRole(run, user, role) &&
        (!scope.own || facts[scope.own] === user) &&
        evaluateCondition(run.model, where, withSeedPaths(run, entity, where, facts), run.now, seedActor(run, user)),
    );
  }
  if (scope.where && !evaluateCondition(run.model, scope.where, facts, run.now)) return [];
  // Two hops of `via` are not followed: the creator is then picked from another role.
  if (scope.via) return [];
  if (scope.own) return ownersIn(facts[scope.own]).filter((user) => hasRole(run, user, role));
  return 'all';
}

/** A user of the role who may create this record within the scope, or null when none may. */
function creatorInScope(
  run: SeedRun,
  entity: EntityModel,
  role: string,
  scope: Scope,
  record: Values,
  parents: Record<string, Values>,
  at: Date,
): number | null {
  const roleUsers = run.users.byRole.get(role) ?? [];
  if (scope === true) return pickFrom(run.faker, roleUsers);
  let user: number | null = null;
  if (scope.own) {
    // A user field's user, or one of a users field's.
    user = pickFrom(
      run.faker,
      ownersIn(record[scope.own]).filter((owner) => hasRole(run, owner, role)),
    );
    if (user === null) return null;
  }
  if (scope.via) {
    const parent = parents[scope.via];
    const parentEntity = run.model.entitiesByName[entity.fieldsByName[scope.via]?.referenceTo ?? ''];
    if (!parent || !parentEntity) return null;
    const readers = readersOf(run, parentEntity, role, parent);
    if (readers !== 'all') {
      if (user !== null && !readers.includes(user)) return null;
      user ??= pickFrom(run.faker, readers);
    }
  }
  user ??= pickFrom(run.faker, roleUsers);
  if (user === null) return null;
  if (
    scope.where &&
    !evaluateCondition(run.model, scope.where, withSeedPaths(run, entity, scope.where, record, parents), at, seedActor(run, user))
  )
    return null;
  return user;
}

/**
 * Who created the record: the user a field defaulting to the actor names (a ticket's requester),
 * or a user of a role whose create scope admits the record as it is (a customer comments only
 * on their own tickets and never internally), staff roles before the built-in admin.
 */
export function creatorOf(run: SeedRun, entity: EntityModel, record: Values, parents: Record<string, Values>, at: Date): number | null {
  for (const field of entity.fields) {
    if (field.spec.type === 'user' && field.spec.default === 'actor' && typeof record[field.name] === 'number')
      return record[field.name] as number;
  }
  const roles = creatorRoles(run.model, entity);
  // Made by a visitor (a contact form) when the public may create it and no role with an account
  // is granted that of its own (they hold the public's grants too): nobody signed in.
  if (roleOn(entity, PUBLIC_ROLE)?.scopes.create !== undefined && roles.every((r) => roleOn(entity, r.role)?.scopes.create === undefined))
    return null;
  const ordered = [...run.faker.helpers.shuffle(roles.filter((r) => !isAdmin(r.role))), ...roles.filter((r) => isAdmin(r.role))];
  for (const { role, scope } of ordered) {
    const user = creatorInScope(run, entity, role, scope, record, parents, at);
    if (user !== null) return user;
  }
  return (
    pickFrom(
      run.faker,
      usersOf(
        run,
        roles.map((r) => r.role),
      ),
    ) ?? pickFrom(run.faker, [...run.users.rolesOf.keys()])
  );
}

/** Who takes a transition: the owner it names, else a person the record names who may, else anyone who may. */
export function transitionActor(run: SeedRun, entity: EntityModel, transition: TransitionModel, record: Values, at: Date): number | null {
  for (const allowed of transition.allow) {
    if (typeof allowed === 'string') continue;
    const owner = pickFrom(run.faker, ownersIn(record[allowed.owner]));
    if (
      owner !== null &&
      (!allowed.when ||
        evaluateCondition(run.model, allowed.when, withSeedPaths(run, entity, allowed.when, record), at, seedActor(run, owner)))
    )
      return owner;
  }
  const roles = transitionRoles(run.model, entity, transition);
  const staff = roles.some((r) => !isAdmin(r)) ? roles.filter((r) => !isAdmin(r)) : roles;
  const named = entity.fields
    .filter(holdsUsers)
    .flatMap((f) => ownersIn(record[f.name]))
    .filter((u) => staff.some((role) => hasRole(run, u, role)));
  // Someone who sees the record (an editor of its team), when anyone does.
  const all = usersOf(run, staff);
  const seeing = all.filter((user) => readsRecord(run, entity, user, record));
  return (pickFrom(run.faker, named) as number | null) ?? pickFrom(run.faker, seeing.length > 0 ? seeing : all);
}
