import { NinefoldError } from '../errors/ninefold-error';
import { timeOf } from '../condition/compare';
import type { StoredValue } from '../rules/field-schema';
import type { ComputedModel, DurationUnit, NumberExpr, TimeShiftModel } from '../spec/computed';
import { addWorkingDays, addWorkingDaysToDate, DEFAULT_CALENDAR } from '../time/working-days';
import type { FieldModel } from '../spec/model';
import { add, divide, multiply, subtract, toDecimalText, toInteger, toRational, wholeDigits, type Rational } from './rational';
import { slugText } from './slug-text';

/** A field the engine computes from the record's own fields. */
export type ComputedFieldModel = FieldModel & { readonly computed: ComputedModel };

const MS_PER: Readonly<Record<Exclude<DurationUnit, 'workingDays'>, number>> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };
const INTEGER_RANGE = { min: -2147483648, max: 2147483647 };
/** About forty years of working days: more is out of range for a computed time. */
const MAX_WORKING_DAYS = 10_000;

/**
 * The value a computed field has for a record (its stored fields as they will be written): empty
 * when an input is empty or a division is by zero. A slug is its base text here; ops number it
 * when another record has it (ops/slugs.ts). A result too large for the column is VALIDATION_FAILED
 * naming the field, before anything is written.
 */
export function computeValue(field: ComputedFieldModel, record: Readonly<Record<string, unknown>>): StoredValue {
  const computed = field.computed;
  switch (computed.kind) {
    case 'slug':
      return slugText(record[computed.source]);
    case 'shift':
      return shiftedTime(field, computed, evaluate(computed.amount, record), record);
    case 'arithmetic': {
      const value = evaluate(computed.expr, record);
      return value === null ? null : fitted(field, value);
    }
  }
}

function evaluate(expr: NumberExpr, record: Readonly<Record<string, unknown>>): Rational | null {
  if (expr.kind === 'number') return toRational(expr.value);
  if (expr.kind === 'field') return toRational(record[expr.name]);
  const values = expr.terms.map((t) => evaluate(t, record));
  if (values.some((v) => v === null)) return null;
  const [first, ...rest] = values as Rational[];
  let result: Rational | null = first ?? null;
  for (const value of rest) {
    if (result === null) return null;
    result =
      expr.op === 'add'
        ? add(result, value)
        : expr.op === 'subtract'
          ? subtract(result, value)
          : expr.op === 'multiply'
            ? multiply(result, value)
            : divide(result, value);
  }
  return result;
}

/** Rounded to the field's scale (a whole number for an integer field), or refused when the column cannot hold it. */
function fitted(field: ComputedFieldModel, value: Rational): string | number {
  if (field.type === 'integer') {
    const n = toInteger(value);
    if (n < INTEGER_RANGE.min || n > INTEGER_RANGE.max) throw tooLarge(field);
    return n;
  }
  const digits = field.decimal ?? { precision: 12, scale: 2 };
  const text = toDecimalText(value, digits.scale);
  if (wholeDigits(text) > digits.precision - digits.scale) throw tooLarge(field);
  return text;
}

function shiftedTime(
  field: ComputedFieldModel,
  shift: TimeShiftModel,
  amount: Rational | null,
  record: Readonly<Record<string, unknown>>,
): Date | string | null {
  if (amount === null) return null;
  const start = field.type === 'date' ? dateOf(record[shift.from]) : timeOf(record[shift.from]);
  if (start === null) return null;
  const count = shift.sign * (Number(amount.num) / Number(amount.den));
  const moved = movedBy(field, start, count, shift);
  if (moved === null) throw tooLarge(field);
  if (Number.isNaN(moved.getTime()) || moved.getUTCFullYear() < 1 || moved.getUTCFullYear() > 9999) throw tooLarge(field);
  // A date is a calendar day (YYYY-MM-DD), as date fields are read and written.
  return field.type === 'date' ? moved.toISOString().slice(0, 10) : moved;
}

/** The start moved by `count` of the shift's unit; null when that leaves the years a date can have. */
function movedBy(field: ComputedFieldModel, start: Date, count: number, shift: TimeShiftModel): Date | null {
  if (shift.unit !== 'workingDays') return new Date(start.getTime() + count * MS_PER[shift.unit]);
  // Far beyond any calendar's use, and counting there day by day would only take time.
  if (Math.abs(count) > MAX_WORKING_DAYS) return null;
  const calendar = shift.calendar ?? DEFAULT_CALENDAR;
  return field.type === 'date'
    ? new Date(`${addWorkingDaysToDate(start.toISOString().slice(0, 10), count, calendar)}T00:00:00Z`)
    : addWorkingDays(start, count, calendar);
}

/** A date field's value ("2026-03-01", or a Date as a driver may read it) as midnight UTC. */
function dateOf(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : new Date(value.toISOString().slice(0, 10));
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

function tooLarge(field: ComputedFieldModel): NinefoldError {
  const message = `${field.label} would be out of range for what is stored.`;
  return new NinefoldError('VALIDATION_FAILED', undefined, { fieldErrors: [{ field: field.name, code: 'too_big', message }] });
}
