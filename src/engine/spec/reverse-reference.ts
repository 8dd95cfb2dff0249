import type { AppModel, EntityModel, FieldModel } from './model';
import { declaredValue } from './own-names';

/** A related entity and its reference field to the record in hand: the two ends of a reverse reference. */
export interface ReverseReference {
  readonly related: EntityModel;
  readonly reference: FieldModel;
}

/**
 * The reference through which records of `relatedName` point at `parent` (an `exists`
 * condition's): the field `via`, or its only reference to `parent` (the spec checks make sure
 * there is exactly one when `via` is not given).
 */
export function reverseReferenceOf(
  model: Pick<AppModel, 'entitiesByName'>,
  parent: EntityModel,
  relatedName: string,
  via: string | null,
): ReverseReference {
  const related = declaredValue(model.entitiesByName, relatedName, 'entity');
  const candidates = related.fields.filter((f) => f.type === 'reference' && f.referenceTo === parent.name);
  const reference = via === null ? candidates[0] : candidates.find((f) => f.name === via);
  if (!reference || (via === null && candidates.length > 1))
    throw new Error(`${relatedName} has no single reference "${via ?? '(any)'}" to ${parent.name}, though the spec checks require one`);
  return { related, reference };
}
