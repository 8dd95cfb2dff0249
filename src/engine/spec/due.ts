import { declaredValue, ownValue } from './own-names';
import type { ConstantSpec, Condition, DueSpec } from './types';

/**
 * A computed due time (`DateTimeField.due`) as the engine reads it: the hours resolved from
 * their constant once at boot, so that ops, lists and pages all derive the time the same way.
 */
export interface DueModel {
  /** The datetime it counts from: a field name, or the system column createdAt / updatedAt. */
  readonly from: string;
  /** One number of hours, or hours per value of the enum field `by`. */
  readonly hours: number | Readonly<Record<string, number>>;
  readonly by: string | null;
  /** The constant the hours come from, for pages that explain the time. */
  readonly constant: string | null;
  /** When this holds the clock has stopped: the record is never overdue. */
  readonly doneWhen: Condition | null;
}

export function buildDue(due: DueSpec, constants: Readonly<Record<string, ConstantSpec>>): DueModel {
  const constant = typeof due.hours === 'number' ? null : due.hours.$constant;
  const hours =
    constant === null
      ? (due.hours as number)
      : (declaredValue(constants, constant, 'constant').value as number | Readonly<Record<string, number>>);
  return { from: due.from, hours, by: due.by ?? null, constant, doneWhen: due.doneWhen ?? null };
}

/** The hours that apply to a record, from the value of `by` when they depend on it; null: no due time. */
export function dueHours(due: DueModel, record: Readonly<Record<string, unknown>>): number | null {
  if (typeof due.hours === 'number') return due.hours;
  const value = due.by === null ? undefined : record[due.by];
  return typeof value === 'string' ? (ownValue(due.hours, value) ?? null) : null;
}
