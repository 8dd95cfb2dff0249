/**
 * A spec condition compiled once (compile.ts): plain data, so that the browser can evaluate it
 * for forms. Operands are resolved (`$constant` to its value, `daysAgo` to a number), paths are
 * split, and every node says what it is by `kind`. Adding an operator is one member here; the
 * fold (fold.ts) then makes the compiler list every reader that must handle it.
 */

import type { WorkingCalendar } from '../time/working-days';

/** A value written in a condition, or a constant's value. */
export type Literal = string | number | boolean | null;

/** What a leaf compares: a field of the record, or a path (`patient.account`) one step through a reference or user field. */
export interface Subject {
  /** As the spec wrote it (`patient.account`): how a record loaded with its paths holds the value. */
  readonly field: string;
  /** The field of this record that is read: the field itself, or the reference a path follows. */
  readonly head: string;
  /** For a path, the field of the record (or user) the head points at; null for a plain field. */
  readonly tail: string | null;
}

export type CompiledOperand =
  /** A literal, or a constant's value (`constant` names it, for the text and the due indexes). */
  | { readonly kind: 'literal'; readonly value: Literal; readonly constant?: string }
  | { readonly kind: 'field'; readonly field: string; readonly shift?: TimeShift }
  | { readonly kind: 'now'; readonly shift?: TimeShift }
  /** The time now moved back by `days` (forward when negative). */
  | { readonly kind: 'daysAgo'; readonly days: number; readonly constant?: string }
  /** The current user's id (`name` 'id') or one of their user fields. */
  | { readonly kind: 'actor'; readonly name: string }
  | { readonly kind: 'param'; readonly name: string };

/**
 * A duration added to a time (negative seconds: taken away), with how the spec wrote it for the
 * text; or a number of working days (negative: back), counted on the spec's calendar.
 */
export type TimeShift = FixedShift | WorkingDaysShift;

interface ShiftAsWritten {
  readonly sign: 'plus' | 'minus';
  readonly amount: number;
  readonly constant?: string;
}

export interface FixedShift extends ShiftAsWritten {
  readonly unit: 'minutes' | 'hours' | 'days';
  readonly seconds: number;
}

export interface WorkingDaysShift extends ShiftAsWritten {
  readonly unit: 'workingDays';
  /** Signed: negative moves back. */
  readonly days: number;
  readonly calendar: WorkingCalendar;
}

export type LiteralOperand = Extract<CompiledOperand, { readonly kind: 'literal' }>;

export type ComparisonOp = 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte';

export type CompiledLeaf =
  | { readonly kind: 'present'; readonly subject: Subject }
  | { readonly kind: 'absent'; readonly subject: Subject }
  | { readonly kind: 'in'; readonly subject: Subject; readonly values: readonly LiteralOperand[] }
  | { readonly kind: 'notIn'; readonly subject: Subject; readonly values: readonly LiteralOperand[] }
  | { readonly kind: 'compare'; readonly subject: Subject; readonly op: ComparisonOp; readonly operand: CompiledOperand };

/**
 * "Some record of `entity` references this one (through its reference field `via`, or its only
 * one to this entity) and matches `where`": a question about other rows, so readers that see
 * one record in memory cannot answer it by themselves (evaluate.ts reads a value loaded under
 * existsKey; the SQL writer asks the database).
 */
export interface CompiledExists {
  readonly kind: 'exists';
  readonly entity: string;
  readonly via: string | null;
  /** On the related record; null: any related record. */
  readonly where: CompiledCondition | null;
}

export type CompiledCondition =
  | { readonly kind: 'all'; readonly items: readonly CompiledCondition[] }
  | { readonly kind: 'any'; readonly items: readonly CompiledCondition[] }
  | { readonly kind: 'not'; readonly item: CompiledCondition }
  | CompiledExists
  | CompiledLeaf;

export type ConditionKind = CompiledCondition['kind'];
