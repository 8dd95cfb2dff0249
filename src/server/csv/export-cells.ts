import type { RecordData, ReferenceTitles } from '@/engine/ops/types';
import type { ListColumn } from '@/ui/columns';
import { UTC } from '@/engine/time/zone';
import { formatDateTime } from '@/ui/format';
import { fieldText } from '../field-text';

/*
 * A list's cell as text, the way the list page shows it (src/ui/cell-value.tsx), with the same
 * formatting (src/server/field-text.ts). Markdown is exported whole rather than as the page's
 * short excerpt: a file is where people want all of it. Times are written in UTC whoever exports:
 * a file is shared, and an import reads a time without a zone as UTC. Numbers and amounts are
 * written as stored ("38533.32", no symbol, no separators), as the API carries them and an import
 * reads them back.
 */

/** The text of one column of one record; empty for no value. */
export function cellText(column: ListColumn, record: RecordData, references: ReferenceTitles, now: Date): string {
  const value = record[column.name];
  if (value === null || value === undefined || value === '') return '';
  switch (column.kind) {
    case 'field': {
      // Files by their names (an import does not take files back: see README, CSV import).
      if (column.field.files && Array.isArray(value))
        return value.map((id) => references[column.name]?.[Number(id)] ?? `#${String(id)}`).join('; ');
      // A set of records: their ids joined by ";", which an import reads back (titles may hold ";").
      if (Array.isArray(value)) return value.join(';');
      const text = fieldText(column.field, value, references[column.name], false, UTC, null);
      // The page marks it in words too (src/ui/due-value.tsx).
      return column.overdue?.(record, now) ? `${text} (overdue)` : text;
    }
    case 'state':
      return column.workflow.states.find((s) => s.name === value)?.label ?? String(value);
    case 'system':
      if (column.name === 'createdAt' || column.name === 'updatedAt') return formatDateTime(value, UTC)?.text ?? '';
      if (column.name === 'createdBy' || column.name === 'updatedBy')
        return references[column.name]?.[Number(value)] ?? `#${String(value)}`;
      return String(value);
  }
}
