import type { CompiledCondition, CompiledLeaf } from './types';

type NodeOf<K extends CompiledCondition['kind']> = Extract<CompiledCondition, { readonly kind: K }>;

/**
 * What a reader does with each kind of node, given what it made of the node's children. One
 * member per kind: a new kind of node is a type error in every reader until it handles it.
 */
export type ConditionFolder<R> = {
  readonly all: (items: readonly R[], node: NodeOf<'all'>) => R;
  readonly any: (items: readonly R[], node: NodeOf<'any'>) => R;
  readonly not: (item: R, node: NodeOf<'not'>) => R;
  /** Its `where` is on another entity: each reader reads it as that entity's condition, not folded here. */
  readonly exists: (node: NodeOf<'exists'>) => R;
} & { readonly [K in CompiledLeaf['kind']]: (leaf: NodeOf<K>) => R };

/** The one walk over a compiled condition: every reader of conditions is a folder given to it. */
export function foldCondition<R>(condition: CompiledCondition, folder: ConditionFolder<R>): R {
  const fold = (c: CompiledCondition) => foldCondition(c, folder);
  switch (condition.kind) {
    case 'all':
      return folder.all(condition.items.map(fold), condition);
    case 'any':
      return folder.any(condition.items.map(fold), condition);
    case 'not':
      return folder.not(fold(condition.item), condition);
    case 'exists':
      return folder.exists(condition);
    case 'present':
      return folder.present(condition);
    case 'absent':
      return folder.absent(condition);
    case 'in':
      return folder.in(condition);
    case 'notIn':
      return folder.notIn(condition);
    case 'compare':
      return folder.compare(condition);
    default:
      return unreachable(condition);
  }
}

/** The leaves of a condition, in order (not those of an `exists`'s `where`, which are another entity's). */
export function conditionLeaves(condition: CompiledCondition): CompiledLeaf[] {
  const leaf = (l: CompiledLeaf) => [l];
  return foldCondition<CompiledLeaf[]>(condition, {
    all: (items) => items.flat(),
    any: (items) => items.flat(),
    not: (item) => item,
    exists: () => [],
    present: leaf,
    absent: leaf,
    in: leaf,
    notIn: leaf,
    compare: leaf,
  });
}

/** The `exists` nodes of a condition (outside their own `where`s), in order. */
export function conditionExists(condition: CompiledCondition): NodeOf<'exists'>[] {
  const none = (): NodeOf<'exists'>[] => [];
  return foldCondition<NodeOf<'exists'>[]>(condition, {
    all: (items) => items.flat(),
    any: (items) => items.flat(),
    not: (item) => item,
    exists: (node) => [node],
    present: none,
    absent: none,
    in: none,
    notIn: none,
    compare: none,
  });
}

function unreachable(value: never): never {
  throw new Error(`unknown condition ${JSON.stringify(value)}`);
}
