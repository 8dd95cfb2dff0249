import { conditionLeaves } from './fold';
import type { CompiledCondition } from './types';

export interface FieldsOptions {
  /**
   * How a path (`patient.account`) counts: 'head', the reference of this record it follows (what
   * the row must keep to judge it); 'whole', the path as written (what a record loaded with its
   * paths holds); 'none', not at all.
   */
  readonly paths: 'head' | 'whole' | 'none';
  /** Whether the fields of `{ field }` operands count too. */
  readonly operands: boolean;
}

/**
 * The names a condition reads, in order, each once: the one answer of "which fields", with
 * each caller saying what it needs of paths and operands.
 */
export function conditionFields(condition: CompiledCondition, options: FieldsOptions): string[] {
  const names = new Set<string>();
  for (const leaf of conditionLeaves(condition)) {
    const { field, head, tail } = leaf.subject;
    if (tail === null) names.add(field);
    else if (options.paths !== 'none') names.add(options.paths === 'head' ? head : field);
    if (options.operands && leaf.kind === 'compare' && leaf.operand.kind === 'field') names.add(leaf.operand.field);
  }
  return [...names];
}

/** The paths (`head.tail`) a condition compares, each once. */
export function conditionPathsOf(condition: CompiledCondition): string[] {
  return conditionLeaves(condition)
    .filter((leaf) => leaf.subject.tail !== null)
    .map((leaf) => leaf.subject.field)
    .filter((field, i, all) => all.indexOf(field) === i);
}

/** Whether a condition reads the current user (`{ actor }`): such a rule cannot be checked in the browser. */
export function readsActor(condition: CompiledCondition): boolean {
  return conditionLeaves(condition).some((leaf) => leaf.kind === 'compare' && leaf.operand.kind === 'actor');
}
