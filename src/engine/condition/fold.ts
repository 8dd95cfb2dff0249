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

/** The leaves of a condition, in order. */
export function conditionLeaves(condition: CompiledCondition): CompiledLeaf[] {
  const leaf = (l: CompiledLeaf) => [l];
  return foldCondition<CompiledLeaf[]>(condition, {
    all: (items) => items.flat(),
    any: (items) => items.flat(),
    not: (item) => item,
    present: leaf,
    absent: leaf,
    in: leaf,
    notIn: leaf,
    compare: leaf,
  });
}

function unreachable(value: never): never {
  throw new Error(`unknown condition ${JSON.stringify(value)}`);
}
