import type { ConstantRef, ConstantSpec, FieldSpec } from './types';

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

/** An integer or decimal field's range as numbers; an end is absent when not declared (or its constant is not a number). */
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
  if (spec.type !== 'integer' && spec.type !== 'decimal') return undefined;
  const min = resolveNumber(spec.min, constants);
  const max = resolveNumber(spec.max, constants);
  return { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
}

/** The digits buildField put on a decimal field's model. */
export function digitsOf(field: { readonly name: string; readonly decimal?: DecimalDigits }): DecimalDigits {
  if (!field.decimal) throw new Error(`The decimal field "${field.name}" has no digits: field models come from buildModel.`);
  return field.decimal;
}
