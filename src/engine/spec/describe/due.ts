import type { EntityModel, FieldModel } from '../model';
import { DUE_FILTERS } from '../../rules/overdue';
import { conditionText } from './text';

/** How a computed due time is set: `computed: createdAt + slaHours (hours per priority); overdue unless …`. */
export function dueText(field: FieldModel, entity: EntityModel): string {
  const due = field.due;
  if (!due) return '';
  const hours = due.constant ? `${due.constant}${due.by ? ` (hours per ${due.by})` : ' hours'}` : `${String(due.hours)} hours`;
  const overdue = due.doneWhen ? `overdue once passed unless ${conditionText(due.doneWhen, entity)}` : 'overdue once passed';
  return `computed: ${due.from} + ${hours}, set on create and when ${[due.from, ...(due.by ? [due.by] : [])].join(' or ')} changes, before the record rules and limits read it; ${overdue}`;
}

/** What a list's filter on a due time offers: `SLA due (overdue, due in the next 24 hours)`. */
export function dueFilterText(field: FieldModel): string {
  return `${field.label} (${Object.values(DUE_FILTERS)
    .map((label) => label.toLowerCase())
    .join(', ')})`;
}
