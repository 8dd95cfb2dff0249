import type { Condition } from '../spec/types';
import { conditionShape } from '../condition/compile';
import { conditionPathsOf, readsActor as readsActorCompiled } from '../condition/fields';

/**
 * A condition field that follows a reference (or a user field) one step: `patient.account` is
 * the `account` of the record `patient` points at, `requester.organization` the organization of
 * the user `requester` names. One step only, so a path is always `head.tail`.
 */
export interface FieldPath {
  readonly head: string;
  readonly tail: string;
}

/** The two steps of a path, or null for a plain field of the record. */
export function splitPath(field: string): FieldPath | null {
  const dot = field.indexOf('.');
  return dot < 0 ? null : { head: field.slice(0, dot), tail: field.slice(dot + 1) };
}

/** The paths (`head.tail`) the conditions compare, each once. */
export function conditionPaths(conditions: readonly (Condition | undefined)[]): string[] {
  const paths = conditions.flatMap((condition) => (condition ? conditionPathsOf(conditionShape(condition)) : []));
  return [...new Set(paths)];
}

/** The `{ actor }` operand of a leaf, when it compares with the current user or one of their fields. */
export function actorOperand(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !('actor' in value)) return null;
  const actor = (value as { readonly actor: true | string }).actor;
  return actor === true ? 'id' : actor;
}

/** Whether a condition reads the current user (`{ actor }`): such a rule cannot be checked in the browser. */
export function readsActor(condition: Condition): boolean {
  return readsActorCompiled(conditionShape(condition));
}
