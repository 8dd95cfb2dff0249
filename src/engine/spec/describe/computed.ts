import { workingDaysText } from '../../time/calendar-text';
import type { NumberExpr } from '../computed';
import type { EntityModel, FieldModel } from '../model';

const OPERATOR_WORDS = { add: 'plus', subtract: 'minus', multiply: 'times', divide: 'divided by' } as const;

/**
 * How a computed field is set, in the labels of its inputs: "Starts at plus Duration minutes
 * minutes", "Quantity times Unit price minus shippingFee (4.95)", "a slug of Title, …".
 */
export function computedText(field: FieldModel, entity: EntityModel): string {
  const computed = field.computed;
  if (!computed) return '';
  const label = (name: string) => entity.fieldsByName[name]?.label ?? name;
  switch (computed.kind) {
    case 'slug':
      return `a slug of ${label(computed.source)}, unique among the ${entity.pluralLabel.toLowerCase()} (-2, -3… when taken); set on create and while empty, then kept when ${label(computed.source)} changes`;
    case 'shift': {
      const amount = exprText(computed.amount, label, false);
      const moved = computed.calendar ? workingDaysText(amount, computed.calendar, amount === '1') : `${amount} ${computed.unit}`;
      return `${label(computed.from)} ${computed.sign === 1 ? 'plus' : 'minus'} ${moved}`;
    }
    case 'arithmetic':
      return `${exprText(computed.expr, label, false)}; empty while an input is empty${hasDivision(computed.expr) ? ' or a division is by zero' : ''}`;
  }
}

/** The sentence the field table and the API reference say: "computed by the server: …, written with every change of …". */
export function computedNote(field: FieldModel, entity: EntityModel): string {
  const inputs = field.computed?.inputs.map((name) => entity.fieldsByName[name]?.label ?? name) ?? [];
  return `computed by the server: ${computedText(field, entity)}; rewritten when ${inputs.join(' or ')} changes, before the record rules and limits read it`;
}

function exprText(expr: NumberExpr, label: (name: string) => string, nested: boolean): string {
  if (expr.kind === 'field') return label(expr.name);
  if (expr.kind === 'number') return expr.constant ? `${expr.constant} (${expr.value})` : expr.value;
  const text = expr.terms.map((t) => exprText(t, label, true)).join(` ${OPERATOR_WORDS[expr.op]} `);
  return nested ? `(${text})` : text;
}

function hasDivision(expr: NumberExpr): boolean {
  return expr.kind === 'operation' && (expr.op === 'divide' || expr.terms.some(hasDivision));
}
