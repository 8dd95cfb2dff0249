import type { FieldModel } from '../spec/model';
import { conditionFields } from '../condition/fields';
import { compiledOf } from '../condition/book';
import { evaluateCondition, type ConstantsOf, type RecordLike } from '../condition/evaluate';
import { timeOf } from '../condition/compare';

/** The ways a list can be filtered by a due time, as the `?<field>=` value and its label. */
export const DUE_FILTERS = {
  overdue: 'Overdue',
  due24h: 'Due in the next 24 hours',
} as const;
export type DueFilter = keyof typeof DUE_FILTERS;

export function isDueFilter(value: string): value is DueFilter {
  return Object.hasOwn(DUE_FILTERS, value);
}

/**
 * Whether the record's due time has passed while the work is still going on (`doneWhen` does
 * not hold). A record shown without a field that `doneWhen` reads (hidden from this viewer)
 * is never marked: the mark would tell what the field holds.
 */
export function isOverdue(model: ConstantsOf, field: FieldModel, record: RecordLike, now: Date): boolean {
  const due = field.due ? timeOf(record[field.name]) : null;
  if (!due || due.getTime() >= now.getTime()) return false;
  const doneWhen = field.due!.doneWhen;
  if (!doneWhen) return true;
  if (conditionFields(compiledOf(model, doneWhen), { paths: 'head', operands: true }).some((name) => !Object.hasOwn(record, name)))
    return false;
  return !evaluateCondition(model, doneWhen, record, now);
}
