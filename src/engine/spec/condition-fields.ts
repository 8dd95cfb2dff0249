import type { Condition } from './types';

/**
 * The field names a condition compares (system columns and the state included). For a path
 * (`patient.account`) that is the reference it follows: the field of this record that is read.
 */
export function conditionFieldNames(condition: Condition): string[] {
  if ('all' in condition) return condition.all.flatMap(conditionFieldNames);
  if ('any' in condition) return condition.any.flatMap(conditionFieldNames);
  if ('not' in condition) return conditionFieldNames(condition.not);
  const operand = condition.value;
  const other = operand !== null && typeof operand === 'object' && !Array.isArray(operand) && 'field' in operand ? [operand.field] : [];
  return [condition.field.split('.')[0], ...other];
}
