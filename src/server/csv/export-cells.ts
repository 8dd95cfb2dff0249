import type { RecordData, RecordValue, ReferenceTitles } from '@/engine/ops/types';
import type { FieldModel } from '@/engine/spec/model';
import type { ListColumn } from '@/ui/columns';
import { enumLabel, formatBoolean, formatDate, formatDateTime } from '@/ui/format';

/*
 * A list's cell as text, the way the list page shows it (src/ui/cell-value.tsx), with the same
 * formatting: enum and state labels, titles of referenced records and names of users (an id,
 * "#12", where the viewer may not read the record), Yes/No, dates and times in UTC. Markdown is
 * exported whole rather than as the page's short excerpt: a file is where people want all of it.
 */

function fieldText(field: FieldModel, value: RecordValue, titles: Readonly<Record<number, string>> | undefined): string {
  const spec = field.spec;
  switch (spec.type) {
    case 'boolean':
      return formatBoolean(value);
    case 'enum':
      return enumLabel(spec.labels, String(value));
    case 'date':
      return formatDate(value)?.text ?? String(value);
    case 'datetime':
      return formatDateTime(value)?.text ?? String(value);
    case 'reference':
    case 'user':
      return titles?.[Number(value)] ?? `#${String(value)}`;
    default:
      return value instanceof Date ? value.toISOString() : String(value);
  }
}

/** The text of one column of one record; empty for no value. */
export function cellText(column: ListColumn, record: RecordData, references: ReferenceTitles, now: Date): string {
  const value = record[column.name];
  if (value === null || value === undefined || value === '') return '';
  switch (column.kind) {
    case 'field': {
      const text = fieldText(column.field, value, references[column.name]);
      // The page marks it in words too (src/ui/due-value.tsx).
      return column.overdue?.(record, now) ? `${text} (overdue)` : text;
    }
    case 'state':
      return column.workflow.states.find((s) => s.name === value)?.label ?? String(value);
    case 'system':
      if (column.name === 'createdAt' || column.name === 'updatedAt') return formatDateTime(value)?.text ?? '';
      if (column.name === 'createdBy' || column.name === 'updatedBy') return references[column.name]?.[Number(value)] ?? `#${String(value)}`;
      return String(value);
  }
}
