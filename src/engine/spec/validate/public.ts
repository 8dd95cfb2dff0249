import { PUBLIC_ROLE } from '../../access/visitor';
import { at, isRecord, isString, type EntityInfo, type Issues, type Rec } from './context';

/*
 * The built-in `public` role: visitors who are not signed in. They have no account, so nothing
 * can be theirs (`own`, `{ actor }`), nothing can default to them, and they may only look and
 * send (list, read, create: a contact form). Anything else granted to them could never work as
 * written, so it is a load error that names the place.
 */

export { PUBLIC_ROLE };

const VISITOR_ACTIONS = 'visitors are not signed in; grant them list, read or create only';

/** A grant to `public` on an entity (permissions.<entity>.public). */
export function checkPublicGrant(grant: Rec, path: string, entity: EntityInfo, issues: Issues): void {
  for (const key of ['update', 'delete', 'transitions'] as const) {
    if (grant[key] !== undefined) issues.add(at(path, key), VISITOR_ACTIONS);
  }
  for (const action of ['list', 'read', 'create'] as const) {
    const scope = grant[action];
    if (!isRecord(scope)) continue;
    if (scope.own !== undefined)
      issues.add(at(at(path, action), 'own'), 'a visitor has no account, so owns no record; use where (or true) for the public');
    if (scope.where !== undefined && mentionsActor(scope.where)) {
      issues.add(at(at(path, action), 'where'), '{ actor } is the signed-in user; a visitor has none, so it would match nothing');
    }
  }
  if (grant.create !== undefined) {
    for (const [name, field] of entity.fields) {
      if (field.type === 'user' && field.default === 'actor' && field.required === true) {
        issues.add(
          at(path, 'create'),
          `${entity.name}.${name} is a required user field that defaults to the signed-in user; a visitor has none, so every create would fail (make the field optional, or grant create to signed-in roles)`,
        );
      }
    }
  }
}

/** Whether a raw condition compares with the current user anywhere (`{ actor: ... }`). */
function mentionsActor(condition: unknown): boolean {
  if (Array.isArray(condition)) return condition.some(mentionsActor);
  if (!isRecord(condition)) return false;
  if ('actor' in condition) return true;
  return Object.values(condition).some(mentionsActor);
}

/**
 * For role lists that name signed-in users only (transitions, calls, user fields, documentation,
 * replies): `public` there is a load error saying why.
 */
export function refusePublicRole(role: unknown, path: string, issues: Issues, what: string): boolean {
  if (!isString(role) || role !== PUBLIC_ROLE) return false;
  issues.add(path, `"${PUBLIC_ROLE}" is the built-in role of visitors who are not signed in; they cannot ${what}`);
  return true;
}
