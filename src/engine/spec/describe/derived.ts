import type { EntityModel, FieldModel } from '../model';
import { inSentence, withArticle } from '../naming';
import { conditionText } from './text';

/**
 * What a derived field holds, in words: `derived: the number of comments of the ticket where
 * internal is false, kept by the engine with every write of them`. The condition reads as the
 * spec's other conditions do (field names); the records by their labels.
 */
export function derivedText(field: FieldModel, entity: EntityModel): string {
  const derived = field.derived;
  if (!derived) return '';
  const parent = inSentence(entity.label);
  const plural = inSentence(derived.relatedPluralLabel);
  // Through the reference named after the entity it says nothing; through another one it says which.
  const of = derived.via === entity.name ? `of the ${parent}` : `whose ${derived.via} is this ${parent}`;
  const where = derived.where === null ? '' : ` where ${conditionText(derived.where, entity)}`;
  const what = (() => {
    switch (derived.kind) {
      case 'count':
        return `the number of ${plural} ${of}${where} (0 when none)`;
      case 'exists':
        return `whether there is ${withArticle(inSentence(derived.relatedLabel))} ${of}${where}`;
      case 'sum':
        return `the sum of ${derived.field ?? ''} over the ${plural} ${of}${where} (0 when none)`;
      case 'min':
      case 'max':
        return `the ${derived.kind === 'min' ? 'least' : 'greatest'} ${derived.field ?? ''} of the ${plural} ${of}${where} (empty when none)`;
    }
  })();
  return `derived: ${what}, kept by the engine in the same transaction as every write of them`;
}
