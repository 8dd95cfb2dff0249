/**
 * Which of the four forms a spec condition (raw, perhaps not yet checked) has: the one place
 * that tells `{ all }`, `{ any }`, `{ not }` and a leaf apart. The compiler and the spec checks
 * read conditions through it.
 */
export type RawConditionNode =
  { readonly kind: 'all' | 'any'; readonly items: unknown } | { readonly kind: 'not'; readonly item: unknown } | { readonly kind: 'leaf' };

export function rawConditionNode(condition: object): RawConditionNode {
  if ('all' in condition) return { kind: 'all', items: condition.all };
  if ('any' in condition) return { kind: 'any', items: condition.any };
  if ('not' in condition) return { kind: 'not', item: condition.not };
  return { kind: 'leaf' };
}
