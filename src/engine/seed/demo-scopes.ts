import { isAdmin, roleOn } from '../access/policy';
import { evaluateCondition } from '../condition/evaluate';
import { foldCondition } from '../condition/fold';
import type { CompiledCondition, CompiledLeaf } from '../condition/types';
import type { EntityModel } from '../spec/model';
import { seedActor, withSeedPaths } from './demo-user-fields';
import type { SeedRun } from './seed-run';
import { readScope } from './user-pools';
import { namesOwner } from '../access/own';
import type { Values } from './workflow-walk';

/*
 * Scopes that compare a record with its user (`{ actor: 'team' }`): a demo record agrees with
 * the user who made it (a writer drafts for their own team), and those who act on it are people
 * who see it (an editor of that team publishes it, not one of another team).
 */

/** The `eq` comparisons that must all hold: those not under an `any` or a `not`. */
function eqLeaves(condition: CompiledCondition): CompiledLeaf[] {
  const none = () => [];
  return foldCondition<CompiledLeaf[]>(condition, {
    all: (items) => items.flat(),
    any: none,
    not: none,
    exists: none,
    present: none,
    absent: none,
    in: none,
    notIn: none,
    compare: (leaf) => (leaf.op === 'eq' ? [leaf] : []),
  });
}

/**
 * Sets the fields the creator's create scope ties to them (`team eq { actor: 'team' }`, or
 * `{ actor: 'id' }`) to their values, when the creator has one: the first of their roles other
 * than the administrator's whose create scope says so. Returns the fields it set.
 */
export function alignWithCreator(run: SeedRun, entity: EntityModel, record: Values, creator: number | null): string[] {
  if (creator === null) return [];
  for (const role of run.users.rolesOf.get(creator) ?? []) {
    if (isAdmin(role)) continue;
    const scope = roleOn(entity, role)?.scopes.create;
    if (scope === undefined || scope === true || !scope.where) continue;
    const set: string[] = [];
    for (const leaf of eqLeaves(run.model.conditions.of(scope.where))) {
      const operand = leaf.kind === 'compare' && leaf.operand.kind === 'actor' ? leaf.operand.name : null;
      const name = leaf.subject.field;
      const field = entity.fieldsByName[name];
      if (operand === null || !field || (field.type !== 'reference' && field.type !== 'user')) continue;
      const value = operand === 'id' ? creator : run.userFields.get(creator)?.[operand];
      if (value === null || value === undefined) continue;
      record[name] = value;
      set.push(name);
    }
    if (set.length > 0) return set;
  }
  return [];
}

/** Whether one of the user's roles reads the record (administrators read everything). */
export function readsRecord(run: SeedRun, entity: EntityModel, user: number, record: Values): boolean {
  return (run.users.rolesOf.get(user) ?? []).some((role) => {
    if (isAdmin(role)) return true;
    const scope = readScope(entity, role);
    if (scope === undefined) return false;
    if (scope === true) return true;
    if (scope.own && !namesOwner(record[scope.own], user)) return false;
    // `via` (readable through a parent) is not followed: taken as readable.
    return (
      !scope.where ||
      evaluateCondition(run.model, scope.where, withSeedPaths(run, entity, scope.where, record), run.now, seedActor(run, user))
    );
  });
}
