import type { EntityModel, FieldModel } from './model';

/**
 * Where an entity's records take their names from: their title field's own value; the title of
 * the record (`reference`) or the name of the user (`user`) their title field refers to, never
 * the bare id, which would name the wrong thing; or nothing, and they are "<Label> #<id>".
 */
export type TitleRule =
  | { readonly kind: 'value'; readonly field: FieldModel }
  | { readonly kind: 'reference'; readonly field: FieldModel; readonly target: string }
  | { readonly kind: 'user'; readonly field: FieldModel }
  | { readonly kind: 'none' };

export function titleRule(entity: EntityModel): TitleRule {
  const field = entity.titleField ? entity.fieldsByName[entity.titleField] : undefined;
  if (!field) return { kind: 'none' };
  if (field.type === 'user') return { kind: 'user', field };
  if (field.type === 'reference' && field.referenceTo) return { kind: 'reference', field, target: field.referenceTo };
  return { kind: 'value', field };
}
