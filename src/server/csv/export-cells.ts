import type { RecordData, ReferenceTitles } from '@/engine/ops/types';
import type { ListColumn } from '@/ui/columns';
import { UTC } from '@/engine/time/zone';
import { fieldText } from '../field-text';

/*
 * A list's cell as text, the way the list page shows it (src/ui/cell-value.tsx), with the same
 * formatting (src/server/field-text.ts). Markdown is exported whole rather than as the page's
 * short excerpt: a file is where people want all of it. Dates and times are ISO 8601, times in UTC
 * ("2030-11-24T23:05:00Z") whoever exports: a file is shared, a spreadsheet sorts them, and an
 * import reads them back; a due time's "overdue" is the page's words, not a value. Numbers and amounts are
 * written as stored ("38533.32", no symbol, no separators), as the API carries them and an import
 * reads them back.
 */

/** An instant as ISO 8601 in UTC, to the second ("2030-11-24T23:05:00Z"); milliseconds only when it has some. */
function isoInstant(value: unknown): string {
  const date = value instanceof Date ? value : new Date(String(value));
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toISOString().replace('.000Z', 'Z');
}

/** The text of one column of one record; empty for no value. */
export function cellText(column: ListColumn, record: RecordData, references: ReferenceTitles): string {
  const value = record[column.name];
  if (value === null || value === undefined || value === '') return '';
  switch (column.kind) {
    case 'field': {
      // Files by their names (an import does not take files back: see README, CSV import).
      if (column.field.files && Array.isArray(value))
        return value.map((id) => references[column.name]?.[Number(id)] ?? `#${String(id)}`).join('; ');
      // A set of records: their ids joined by ";", which an import reads back (titles may hold ";").
      if (Array.isArray(value)) return value.join(';');
      if (column.field.type === 'datetime') return isoInstant(value);
      if (column.field.type === 'date') return String(value instanceof Date ? value.toISOString() : value).slice(0, 10);
      return fieldText(column.field, value, references[column.name], false, UTC, null);
    }
    case 'state':
      return column.workflow.states.find((s) => s.name === value)?.label ?? String(value);
    case 'system':
      if (column.name === 'createdAt' || column.name === 'updatedAt') return isoInstant(value);
      if (column.name === 'createdBy' || column.name === 'updatedBy')
        return references[column.name]?.[Number(value)] ?? `#${String(value)}`;
      return String(value);
  }
}
