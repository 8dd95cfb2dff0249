import type { FieldError } from '../errors/ninefold-error';
import type { EntityModel } from '../spec/model';
import type { Condition } from '../spec/types';
import type { RuleSpec } from '../spec/types';
import { evaluateCondition, type ConstantsOf, type EvalContext, type RecordLike } from '../condition/evaluate';
import { conditionPaths } from './condition-paths';
import { compiledOf } from '../condition/book';
import { conditionFields } from '../condition/fields';

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return (a ?? null) === (b ?? null);
}

/** The first field a condition mentions: where a rule's message is shown when it names none. */
function firstField(model: ConstantsOf, condition: Condition): string | undefined {
  // A path's message goes next to the reference it follows.
  return conditionFields(compiledOf(model, condition), { paths: 'head', operands: false })[0];
}

/**
 * The entity's cross-field rules that the record (as it would be stored) breaks, each as a field
 * error with the rule's name as its code and the spec's message.
 */
export function checkEntityRules(
  model: ConstantsOf,
  entity: Pick<EntityModel, 'rules'>,
  record: RecordLike,
  now: Date,
  /** The record as stored before this write (none on create): `onChange` rules skip fields left as they were. */
  before?: RecordLike | null,
  /** Who writes, for rules comparing with `{ actor }`. */
  context: EvalContext = {},
  /** Which rules to check: all, or those with / without paths (whose values ops load from the database first). */
  which: 'all' | 'paths' | 'plain' = 'all',
): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, rule] of Object.entries(entity.rules)) {
    if (which !== 'all' && hasPaths(rule) !== (which === 'paths')) continue;
    if (rule.onChange && rule.field && before && sameValue(before[rule.field], record[rule.field])) continue;
    if (rule.when && !evaluateCondition(model, rule.when, record, now, context)) continue;
    if (evaluateCondition(model, rule.assert, record, now, context)) continue;
    errors.push({ field: rule.field ?? firstField(model, rule.assert) ?? name, code: name, message: rule.message });
  }
  return errors;
}

/** Whether a rule compares a path (`patient.account`): checked on the server only, values loaded first. */
export function hasPaths(rule: RuleSpec): boolean {
  return conditionPaths([rule.when, rule.assert]).length > 0;
}
