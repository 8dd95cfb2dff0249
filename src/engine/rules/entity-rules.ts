import type { FieldError } from '../errors/ninefold-error';
import type { AppModel, EntityModel } from '../spec/model';
import type { Condition } from '../spec/types';
import { evaluateCondition, type RecordLike } from './condition-eval';

/** The first field a condition mentions: where a rule's message is shown when it names none. */
function firstField(condition: Condition): string | undefined {
  if ('all' in condition) return condition.all.map(firstField).find(Boolean);
  if ('any' in condition) return condition.any.map(firstField).find(Boolean);
  if ('not' in condition) return firstField(condition.not);
  return condition.field;
}

/**
 * The entity's cross-field rules that the record (as it would be stored) breaks, each as a field
 * error with the rule's name as its code and the spec's message.
 */
export function checkEntityRules(model: AppModel, entity: EntityModel, record: RecordLike, now: Date): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, rule] of Object.entries(entity.rules)) {
    if (rule.when && !evaluateCondition(model, rule.when, record, now)) continue;
    if (evaluateCondition(model, rule.assert, record, now)) continue;
    errors.push({ field: rule.field ?? firstField(rule.assert) ?? name, code: name, message: rule.message });
  }
  return errors;
}
