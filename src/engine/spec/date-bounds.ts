import type { FieldModel } from './model';
import type { ConstantRef, DateBound, RuleSpec } from './types';

/**
 * Date ranges declared on a date or datetime field (`after`, `before`) become record rules: one
 * definition that the server checks on every write and the browser form evaluates as the user
 * types. A bound relative to now is checked only when the field's value changes, so that a due
 * time that has passed does not block every later edit of the record.
 */

function boundText(bound: DateBound, labelOf: (field: string) => string): string {
  if ('now' in bound) return 'now';
  if ('field' in bound) return labelOf(bound.field);
  const days: number | ConstantRef = bound.daysAgo;
  if (typeof days !== 'number') return `${days.$constant} days ago`;
  return days >= 0 ? `${days} days ago` : `${-days} days from now`;
}

/** The rules a field's date range stands for, by rule name (`<field>After`, `<field>Before`). */
export function dateBoundRules(field: FieldModel, labelOf: (field: string) => string): Record<string, RuleSpec> {
  const spec = field.spec;
  if (spec.type !== 'date' && spec.type !== 'datetime') return {};
  const rules: Record<string, RuleSpec> = {};
  for (const [key, op, word] of [
    ['after', 'gt', 'after'],
    ['before', 'lt', 'before'],
  ] as const) {
    const bound = spec[key];
    if (!bound) continue;
    const present = [
      { field: field.name, op: 'present' as const },
      ...('field' in bound ? [{ field: bound.field, op: 'present' as const }] : []),
    ];
    rules[`${field.name}${key === 'after' ? 'After' : 'Before'}`] = {
      message: spec.rangeMessage ?? `${field.label} must be ${word} ${boundText(bound, labelOf)}.`,
      field: field.name,
      when: present.length === 1 ? present[0] : { all: present },
      assert: { field: field.name, op, value: bound },
      ...('field' in bound ? {} : { onChange: true }),
    };
  }
  return rules;
}
