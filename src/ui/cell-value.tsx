import type { RecordData, ReferenceTitles } from '@/engine/ops/types';
import type { ListColumn } from './columns';
import { Empty, FieldValue, ReferenceValue, TimeValue } from './field-value';
import { DueValue } from './due-value';
import { formatDateTime } from './format';
import { StateBadge } from './state-badge';
import type { ShownFiles } from './files/shown-file';

/** The value of one column of one record, for tables and detail pages alike. */
export function ColumnValue({
  column,
  record,
  references,
  variant = 'cell',
  zone,
  locale,
  files,
}: {
  column: ListColumn;
  record: RecordData;
  references: ReferenceTitles;
  variant?: 'cell' | 'detail';
  /** The viewer's zone, for date-times (src/server/viewer-zone.ts). */
  zone: string;
  /** The locale numbers and amounts are written in (the model's `locale`). */
  locale: string;
  /** The page's files, for a detail's file fields (src/server/shown-files.ts). */
  files?: ShownFiles;
}) {
  const value = record[column.name];
  switch (column.kind) {
    case 'field':
      if (column.overdue && value !== null && value !== undefined) {
        return <DueValue time={formatDateTime(value, zone)} overdue={column.overdue(record, new Date())} />;
      }
      return (
        <FieldValue
          field={column.field}
          value={value}
          titles={references[column.name]}
          targetPlural={column.targetPlural}
          variant={variant}
          zone={zone}
          locale={locale}
          files={files}
        />
      );
    case 'state':
      return <StateBadge workflow={column.workflow} state={value} />;
    case 'system':
      if (column.name === 'createdAt' || column.name === 'updatedAt') return <TimeValue time={formatDateTime(value, zone)} />;
      if (column.name === 'createdBy' || column.name === 'updatedBy') {
        return typeof value === 'number' ? <ReferenceValue id={value} title={references[column.name]?.[value]} /> : <Empty />;
      }
      return <span className="tabular-nums">{String(value)}</span>;
  }
}
