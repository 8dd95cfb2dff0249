import type { WorkingCalendar } from '../time/working-days';
import { declaredValue } from './own-names';
import type { Computation, ConstantSpec, NumberTerm } from './types';

/**
 * A computed field (`computed` on a field) as the engine reads it: constants resolved once at
 * boot, and the fields it reads listed, so that ops know which writes move it. Evaluated by
 * src/engine/computed/evaluate.ts; described by spec/describe/computed.ts.
 */
export type ComputedModel = ArithmeticModel | TimeShiftModel | SlugModel;

/** A number term: a literal (constants resolved, kept as written digits for exact arithmetic), a field, or an operation. */
export type NumberExpr =
  | { readonly kind: 'number'; readonly value: string; readonly constant: string | null }
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'operation'; readonly op: ArithmeticOperator; readonly terms: readonly NumberExpr[] };

export type ArithmeticOperator = 'add' | 'subtract' | 'multiply' | 'divide';

export interface ArithmeticModel {
  readonly kind: 'arithmetic';
  readonly expr: NumberExpr;
  /** The stored fields it reads. */
  readonly inputs: readonly string[];
}

export type DurationUnit = 'minutes' | 'hours' | 'days' | 'workingDays';

export interface TimeShiftModel {
  readonly kind: 'shift';
  /** The datetime (or date) field moved. */
  readonly from: string;
  readonly sign: 1 | -1;
  readonly unit: DurationUnit;
  /** A number (a constant resolved) or an integer field. */
  readonly amount: NumberExpr;
  readonly inputs: readonly string[];
  /** For working days: the spec's calendar they count on. */
  readonly calendar?: WorkingCalendar;
}

/**
 * A slug of a text field, unique within the entity. Set on create and while it is empty, then
 * kept: a record's address stays when its title changes.
 */
export interface SlugModel {
  readonly kind: 'slug';
  readonly source: string;
  readonly inputs: readonly string[];
}

type Constants = Readonly<Record<string, ConstantSpec>>;

export function buildComputed(computation: Computation, constants: Constants, calendar: WorkingCalendar): ComputedModel {
  if ('slug' in computation) return { kind: 'slug', source: computation.slug, inputs: [computation.slug] };
  if ('from' in computation) {
    const [sign, duration] = 'plus' in computation ? ([1, computation.plus] as const) : ([-1, computation.minus] as const);
    const unit: DurationUnit =
      'minutes' in duration ? 'minutes' : 'hours' in duration ? 'hours' : 'workingDays' in duration ? 'workingDays' : 'days';
    const amount = numberExpr((duration as Readonly<Record<DurationUnit, NumberTerm>>)[unit], constants);
    const inputs = [computation.from, ...fieldsOf(amount)];
    return { kind: 'shift', from: computation.from, sign, unit, amount, inputs, ...(unit === 'workingDays' ? { calendar } : {}) };
  }
  const expr = numberExpr(computation, constants);
  return { kind: 'arithmetic', expr, inputs: [...new Set(fieldsOf(expr))] };
}

function numberExpr(term: NumberTerm, constants: Constants): NumberExpr {
  if (typeof term === 'number') return { kind: 'number', value: String(term), constant: null };
  if ('$constant' in term) {
    const value = declaredValue(constants, term.$constant, 'constant').value;
    return { kind: 'number', value: String(value), constant: term.$constant };
  }
  if ('field' in term) return { kind: 'field', name: term.field };
  const [op, terms] = Object.entries(term)[0] as [ArithmeticOperator, readonly NumberTerm[]];
  return { kind: 'operation', op, terms: terms.map((t) => numberExpr(t, constants)) };
}

function fieldsOf(expr: NumberExpr): string[] {
  if (expr.kind === 'field') return [expr.name];
  if (expr.kind === 'number') return [];
  return expr.terms.flatMap(fieldsOf);
}
