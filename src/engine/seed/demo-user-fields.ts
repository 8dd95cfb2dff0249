import { isAdmin, roleOn, type RolePolicy } from '../access/policy';
import { RECORD_ACTIONS } from '../access/record-actions';
import { conditionPaths, splitPath } from '../rules/condition-paths';
import { conditionLeaves } from '../condition/fold';
import type { EvalContext } from '../condition/evaluate';
import type { AppModel, EntityModel } from '../spec/model';
import type { Condition, Scope } from '../spec/types';
import { USER_TABLE } from '../store/schema/desired';
import type { DynamicDatabase } from '../store/types';
import type { SeedRun } from './seed-run';
import type { Values } from './workflow-walk';

/*
 * The spec's user fields in the demo: users of the roles whose access reads a user field (a
 * customer sees their organization's tickets, a writer drafts for their team) get a value, two
 * by two, so that colleagues share it and the demo shows what such a scope does.
 */

function scopesOf(grant: RolePolicy): Scope[] {
  return [...RECORD_ACTIONS.map((action) => grant.scopes[action]), ...Object.values(grant.transitions)].filter(
    (s): s is Scope => s !== undefined,
  );
}

/** The user fields a role's grants compare (`{ actor: 'team' }`, or a path `requester.team`). */
function userFieldsReadBy(model: AppModel, role: string): Set<string> {
  const names = new Set<string>();
  for (const entity of model.entities) {
    const grant = roleOn(entity, role);
    if (!grant) continue;
    for (const scope of scopesOf(grant)) {
      if (scope === true || !scope.where) continue;
      for (const leaf of conditionLeaves(model.conditions.of(scope.where))) {
        if (leaf.kind === 'compare' && leaf.operand.kind === 'actor' && leaf.operand.name !== 'id') names.add(leaf.operand.name);
        const { head, tail } = leaf.subject;
        if (tail !== null && !entity.fieldsByName[head]?.referenceTo && model.users.fieldsByName[tail]) names.add(tail);
      }
    }
  }
  return names;
}

/**
 * The users of the roles, the first of each role, then the second of each, and so on: placed in
 * that order, the first demo users of roles that work together (writer1 and editor1) share a value.
 */
function byRank(run: SeedRun, roles: readonly string[]): number[] {
  const lists = roles.map((role) => run.users.byRole.get(role) ?? []);
  const longest = Math.max(0, ...lists.map((l) => l.length));
  const users = new Set<number>();
  for (let rank = 0; rank < longest; rank++) for (const list of lists) if (list[rank] !== undefined) users.add(list[rank]!);
  return [...users];
}

/**
 * Once the records of `entity` are seeded: the users of the roles that read a user field
 * referring to it get one of them, on their account and in `run.userFields` for the scopes the
 * seeder evaluates. Two of each role share one (customer1 and customer2; writer1, editor1, writer2
 * and editor2), so that the README's first demo accounts see each other's records and colleagues
 * of one role see what such a scope does. Administrators see everything anyway.
 */
export async function assignUserFields(run: SeedRun, db: DynamicDatabase, entity: EntityModel): Promise<void> {
  const ids = run.seeded.get(entity.name)?.ids ?? [];
  if (ids.length === 0) return;
  for (const field of run.model.users.fields) {
    if (field.referenceTo !== entity.name) continue;
    const roles = Object.keys(run.model.roles).filter(
      (role) => !isAdmin(role) && userFieldsReadBy(run.model, role).has(field.name) && (run.users.byRole.get(role)?.length ?? 0) > 0,
    );
    const users = byRank(run, roles).filter((user) => run.userFields.get(user)?.[field.name] === undefined);
    const share = 2 * Math.max(1, roles.length);
    for (const [i, user] of users.entries()) {
      // ids is not empty (see above).
      const value = ids[Math.floor(i / share) % ids.length]!;
      run.userFields.set(user, { ...run.userFields.get(user), [field.name]: value });
      await db
        .updateTable(USER_TABLE)
        .set({ [field.column]: value })
        .where('id', '=', user)
        .execute();
    }
  }
}

/** How a scope the seeder checks sees `user`: their id and user fields. */
export function seedActor(run: SeedRun, user: number): EvalContext {
  return { actorId: user, actorFields: run.userFields.get(user) ?? {} };
}

/**
 * The record with the values of the paths the condition reads: through a user field from the
 * users' fields the seeder gave, through a reference from the parent records at hand.
 */
export function withSeedPaths(
  run: SeedRun,
  entity: EntityModel,
  condition: Condition,
  record: Values,
  parents: Readonly<Record<string, Values>> = {},
): Values {
  const paths = conditionPaths([condition]);
  if (paths.length === 0) return record;
  const values: Record<string, unknown> = {};
  for (const path of paths) {
    const { head, tail } = splitPath(path)!;
    const id = record[head];
    if (typeof id !== 'number') continue;
    values[path] = entity.fieldsByName[head]?.referenceTo ? parents[head]?.[tail] : run.userFields.get(id)?.[tail];
  }
  return { ...record, ...values } as Values;
}
