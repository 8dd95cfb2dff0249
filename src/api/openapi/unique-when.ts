import { uniqueWhenText } from '@/engine/spec/describe/unique-when';
import type { EntityModel } from '@/engine/spec/model';
import type { ResponseObject } from './types';

/**
 * The 422 of a write, with the entity's `uniqueWhen` rules said in words: a write that would make
 * a second record among those a rule selects is refused with VALIDATION_FAILED, the rule's
 * message on its first field (races included: the partial unique index refuses the loser).
 */
export function withUniqueWhenNote(entity: EntityModel, responses: Record<string, ResponseObject>): Record<string, ResponseObject> {
  const unprocessable = responses['422'];
  if (!unprocessable || entity.uniqueWhen.length === 0) return responses;
  // A rule with its own code answers with that code (and its status), its message still on the field.
  const rules = entity.uniqueWhen.map(
    (rule) =>
      `${uniqueWhenText(entity, rule)} (on \`${rule.fields[0]}\`: "${rule.message}"${rule.code === 'VALIDATION_FAILED' ? '' : `, answered as ${rule.code}`})`,
  );
  const note = `VALIDATION_FAILED (or the rule's own code) also when the write would break a uniqueness rule: ${rules.join('; ')}.`;
  return { ...responses, '422': { ...unprocessable, description: `${unprocessable.description}. ${note}` } };
}
