import type { ConstantRef, ConstantSpec, FieldSpec, MoneyField } from './types';
import { currencyScale } from '../numbers/currency';

/**
 * The numbers of a field the spec may leave out or name by a constant, decided here once:
 * buildModel puts them on each FieldModel (`decimal`, `bounds`); the few readers that hold only a
 * raw field spec (a call's input in OpenAPI, the describe document) ask these same functions.
 */

/** A decimal column's digits: precision (all significant digits) and scale (after the point). */
export interface DecimalDigits {
  readonly precision: number;
  readonly scale: number;
}

/** What a decimal field without precision or scale gets: numeric(12, 2). */
export const DEFAULT_DECIMAL_DIGITS: DecimalDigits = { precision: 12, scale: 2 };

export function decimalDigits(spec: { readonly precision?: number; readonly scale?: number }): DecimalDigits {
  return { precision: spec.precision ?? DEFAULT_DECIMAL_DIGITS.precision, scale: spec.scale ?? DEFAULT_DECIMAL_DIGITS.scale };
}

/**
 * A money field's currency. buildModel gives every money field of the spec one (its own, else
 * `purpose.currency`: ./money-currencies.ts), and the validator refuses a field with neither.
 */
export function moneyCurrency(spec: Pick<MoneyField, 'currency'>): string {
  if (!spec.currency) throw new Error('A money field without a currency: field specs with theirs come from buildModel.');
  return spec.currency;
}

/** A money column's digits: its precision, and as many after the point as its currency has (EUR 2, JPY 0). */
export function moneyDigits(spec: Pick<MoneyField, 'precision'>, currency: string): DecimalDigits {
  return { precision: spec.precision ?? DEFAULT_DECIMAL_DIGITS.precision, scale: currencyScale(currency) };
}

/** An integer, decimal or money field's range as numbers; an end is absent when not declared (or its constant is not a number). */
export interface NumberBounds {
  readonly min?: number;
  readonly max?: number;
}

type Constants = Readonly<Record<string, Pick<ConstantSpec, 'value'>>>;

/** A number, or the value of the numeric constant it names; undefined for neither. */
export function resolveNumber(value: number | ConstantRef | undefined, constants: Constants): number | undefined {
  if (value === undefined || typeof value === 'number') return value;
  const resolved = constants[value.$constant]?.value;
  return typeof resolved === 'number' ? resolved : undefined;
}

export function numberBounds(spec: FieldSpec, constants: Constants): NumberBounds | undefined {
  if (spec.type !== 'integer' && spec.type !== 'decimal' && spec.type !== 'money') return undefined;
  const min = resolveNumber(spec.min, constants);
  const max = resolveNumber(spec.max, constants);
  return { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
}

/** The digits buildField put on a decimal or money field's model. */
export function digitsOf(field: { readonly name: string; readonly decimal?: DecimalDigits }): DecimalDigits {
  if (!field.decimal) throw new Error(`The decimal field "${field.name}" has no digits: field models come from buildModel.`);
  return field.decimal;
}

/** Field types stored as exact decimals (SQL numeric) and carried as strings ("12.50"): decimal and money. */
export function isDecimalType(type: unknown): type is 'decimal' | 'money' {
  return type === 'decimal' || type === 'money';
}
