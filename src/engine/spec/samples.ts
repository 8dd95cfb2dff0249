import type { FieldModel } from './model';
import { ownValue } from './own-names';
import type { EntitySpec } from './types';

/**
 * A field's demo texts (the entity's `samples`) and the fields whose lists go with its own: lists
 * of one length are read together, the same place in each (an enquiry's subject and its message),
 * so that a demo record reads as one piece.
 */
export function fieldSamples(entity: EntitySpec, field: string): Pick<FieldModel, 'samples' | 'samplesWith'> {
  const samples = ownValue(entity.samples, field);
  if (!samples) return {};
  const samplesWith = Object.entries(entity.samples ?? {})
    .filter(([other, texts]) => other !== field && texts.length === samples.length)
    .map(([other]) => other);
  return samplesWith.length > 0 ? { samples, samplesWith } : { samples };
}
