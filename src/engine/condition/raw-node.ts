/**
 * Which of the five forms a spec condition (raw, perhaps not yet checked) has: the one place
 * that tells `{ all }`, `{ any }`, `{ not }`, `{ exists }` and a leaf apart. The compiler and the
 * spec checks read conditions through it.
 */
export type RawConditionNode =
  | { readonly kind: 'all' | 'any'; readonly items: unknown }
  | { readonly kind: 'not'; readonly item: unknown }
  | { readonly kind: 'exists'; readonly entity: unknown; readonly via: unknown; readonly where: unknown }
  | { readonly kind: 'leaf' };

export function rawConditionNode(condition: object): RawConditionNode {
  if ('all' in condition) return { kind: 'all', items: condition.all };
  if ('any' in condition) return { kind: 'any', items: condition.any };
  if ('not' in condition) return { kind: 'not', item: condition.not };
  if ('exists' in condition)
    return {
      kind: 'exists',
      entity: condition.exists,
      via: 'via' in condition ? condition.via : undefined,
      where: 'where' in condition ? condition.where : undefined,
    };
  return { kind: 'leaf' };
}
