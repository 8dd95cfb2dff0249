import type { ReactNode } from 'react';
import type { RecordData, ReferenceTitles } from '@/engine/ops/types';
import type { ListColumn } from './columns';
import { ColumnValue } from './cell-value';
import type { ShownFiles } from './files/shown-file';

/** Label and value pairs of a record; Markdown fields take the full width. */
export function RecordDetails({
  columns,
  record,
  references,
  notes,
  zone,
  locale,
  files,
  layout = 'grid',
  edits,
}: {
  columns: readonly ListColumn[];
  record: RecordData;
  references: ReferenceTitles;
  /** Shown under a field's value, by field name (e.g. the SLA due time under a ticket's priority). */
  notes?: Readonly<Record<string, ReactNode>>;
  /** The viewer's zone (src/server/viewer-zone.ts), for date-times. */
  zone: string;
  /** The locale numbers and amounts are written in (the model's `locale`). */
  locale: string;
  /** The record's files (src/server/shown-files.ts), each with its size and thumbnail. */
  files: ShownFiles;
  /** Two columns from `sm` (the page's main column), or one (a side panel). */
  layout?: 'grid' | 'stack';
  /** Controls changing a field in place (src/ui/record/field-edit.tsx), by field name, after its value. */
  edits?: Readonly<Record<string, ReactNode>>;
}) {
  return (
    <dl className={layout === 'grid' ? 'grid grid-cols-1 gap-x-6 gap-y-5 sm:grid-cols-2' : 'grid grid-cols-1 gap-y-4'}>
      {columns.map((column) => {
        const wide = column.kind === 'field' && (column.field.type === 'markdown' || column.field.files !== undefined);
        return (
          <div key={column.name} className={wide && layout === 'grid' ? 'sm:col-span-2' : undefined}>
            <dt className="text-xs font-medium tracking-wide text-zinc-500 uppercase">{column.label}</dt>
            <dd className="mt-1 text-sm text-zinc-900">
              <ColumnValue
                zone={zone}
                locale={locale}
                column={column}
                record={record}
                references={references}
                variant="detail"
                files={files}
              />
              {notes?.[column.name] ?? null}
              {edits?.[column.name] ?? null}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
