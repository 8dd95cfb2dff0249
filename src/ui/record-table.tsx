import Link from 'next/link';
import type { ReactNode } from 'react';
import type { SortModel } from '@/engine/spec/model';
import { titleOfValue } from '@/engine/ops/record-title';
import type { RecordData, ReferenceTitles } from '@/engine/ops/types';
import { ColumnValue } from './cell-value';
import type { ListColumn } from './columns';
import { cn } from './cn';
import { columnFitStyle, truncation, TEXT_WIDTH, NAME_WIDTH, type Truncation } from './list/column-fit';
import { TableScroll } from './table-scroll';

/** An arrow drawn in SVG, so the header's text stays just its label. */
function SortIndicator({ direction }: { direction: 'asc' | 'desc' | null }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 10 10"
      className={cn(
        'size-2.5',
        direction ? 'text-accent-600' : 'text-transparent group-hover:text-zinc-400',
        direction === 'desc' && 'rotate-180',
      )}
    >
      <path d="M5 2 9 8H1z" fill="currentColor" />
    </svg>
  );
}

/** Checkboxes to select rows for a form elsewhere on the page (its `form` attribute joins them to it). */
export interface RowSelection {
  readonly form: string;
  readonly name: string;
  /** What a row's checkbox posts. */
  readonly value: (record: RecordData) => string;
  /** Its accessible name. */
  readonly label: (record: RecordData) => string;
  /** The header cell's content (a "select all" box). */
  readonly header?: ReactNode;
}

/** A table of records. Headers are sort links (`?sort=field`, `?sort=-field`); the link column opens the record. */
export function RecordTable({
  columns,
  linkColumn,
  rows,
  references,
  sort,
  sortHref,
  recordHref,
  caption,
  selection,
  zone,
  locale,
}: {
  columns: readonly ListColumn[];
  linkColumn: string;
  rows: readonly RecordData[];
  references: ReferenceTitles;
  sort: SortModel;
  sortHref: (sort: string) => string;
  recordHref: (id: number) => string;
  caption: string;
  selection?: RowSelection;
  /** The viewer's zone (src/server/viewer-zone.ts), for date-times. */
  zone: string;
  /** The locale numbers and amounts are written in (the model's `locale`). */
  locale: string;
}) {
  const onPhones = phoneCardColumns(columns, linkColumn);
  const fit = columnFitStyle(columns, linkColumn, selection !== undefined);
  return (
    // The region is the container the table fits (./list/column-fit.ts): columns that do not fit are hidden, not scrolled to.
    <TableScroll label={caption} className="@container rounded-lg border border-zinc-200 bg-white shadow-xs">
      {fit ? (
        // Hoisted into the head once per set of columns (React's `precedence`), however many tables share it.
        <style href={fit.scope} precedence="nf-fit">
          {fit.css}
        </style>
      ) : null}
      <table className={cn('nf-record-table block w-full divide-y divide-zinc-200 text-sm sm:table sm:w-max sm:min-w-full', fit?.scope)}>
        <caption className="sr-only">{caption}</caption>
        <thead className="hidden bg-zinc-50 sm:table-header-group">
          <tr>
            {selection ? (
              <th scope="col" className="w-px py-2.5 pr-0 pl-4 text-left align-middle leading-none">
                {selection.header}
              </th>
            ) : null}
            {columns.map((column) => {
              const direction = sort.field === column.name ? sort.direction : null;
              const next = direction === 'asc' ? `-${column.name}` : column.name;
              return (
                <th
                  key={column.name}
                  scope="col"
                  aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined}
                  className="px-4 py-2.5 text-left text-xs font-medium tracking-wide whitespace-nowrap text-zinc-500 uppercase"
                >
                  {column.sortable ? (
                    <Link href={sortHref(next)} className="group inline-flex items-center gap-1 rounded hover:text-zinc-900">
                      {column.label}
                      <SortIndicator direction={direction} />
                    </Link>
                  ) : (
                    column.label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="block divide-y divide-zinc-100 sm:table-row-group">
          {rows.map((record) => (
            // `data-list-row` and `data-row-link`: the rows `j`, `k` and `x` move through (src/ui/keyboard).
            <tr
              key={record.id}
              data-list-row
              className="flex flex-wrap items-baseline gap-x-3 gap-y-1 px-4 py-3 hover:bg-zinc-50/70 focus-within:bg-accent-50/60 sm:table-row sm:p-0"
            >
              {selection ? (
                <td className="order-first block leading-none sm:table-cell sm:w-px sm:py-2.5 sm:pr-0 sm:pl-4 sm:align-top">
                  <input
                    type="checkbox"
                    form={selection.form}
                    name={selection.name}
                    value={selection.value(record)}
                    aria-label={selection.label(record)}
                    className="mt-0.5 size-4 accent-accent-600"
                  />
                </td>
              ) : null}
              {columns.map((column) => (
                // Its padding and alignment from `sm` up: `.nf-record-table td[data-column]` in globals.css, once rather than per cell.
                <td key={column.name} data-column={column.name} className={cardCell(column, linkColumn, onPhones)}>
                  {onPhones.has(column.name) && column.name !== linkColumn && column.kind !== 'state' && column.name !== 'id' ? (
                    <span className="text-zinc-500 sm:hidden">{column.label}: </span>
                  ) : null}
                  <CellWidth cut={truncation(column)} text={fullText(column, linkColumn, record, references)}>
                    {column.name === linkColumn || (column.kind === 'system' && column.name === 'id') ? (
                      <Link
                        href={recordHref(record.id)}
                        data-row-link={column.name === linkColumn ? '' : undefined}
                        className="font-medium text-zinc-900 hover:text-accent-700 hover:underline"
                      >
                        {linkText(column, record, references)}
                      </Link>
                    ) : (
                      <ColumnValue zone={zone} locale={locale} column={column} record={record} references={references} />
                    )}
                  </CellWidth>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** Fewer characters than fill a cut cell (two a rem): longer text also gets its whole self as a tooltip. */
const FITS: Record<Exclude<Truncation, null>, number> = { text: Math.floor(TEXT_WIDTH * 2), name: Math.floor(NAME_WIDTH * 2) };

/**
 * Long text cut with an ellipsis from `sm` up (`.nf-cell-text`, `.nf-cell-name` in globals.css:
 * one rule rather than classes repeated in every cell of every row), so that a row stays one
 * line and the table fits its width; the whole text on hover (a `title` only where the text is
 * long enough to be cut, to keep the page light), in the record's card on phones (where nothing
 * is cut), and on the record's page. Numbers, dates, states and badges keep to one line as they are.
 */
function CellWidth({ cut, text, children }: { cut: Truncation; text: string | null; children: ReactNode }) {
  if (!cut) return children;
  return (
    <span className={cut === 'text' ? 'nf-cell-text' : 'nf-cell-name'} title={text !== null && text.length > FITS[cut] ? text : undefined}>
      {children}
    </span>
  );
}

/** The whole text of a cell that may be cut, for its tooltip; null where it has none to give (a list of references). */
function fullText(column: ListColumn, linkColumn: string, record: RecordData, references: ReferenceTitles): string | null {
  if (column.name === linkColumn) return linkText(column, record, references);
  if (column.kind !== 'field') return null;
  const type = column.field.type;
  return type === 'references' || type === 'users' || type === 'files' || type === 'file'
    ? null
    : titleOfValue(column.field, record[column.name], references[column.name]);
}

/** Fields a phone's card shows besides its title, state and number: the first of the list's columns. */
const CARD_FIELDS = 3;

/**
 * The columns a row keeps on phones, where each row is a card rather than a table row (one
 * markup, restyled below `sm`): its title, number and state, and the first few other columns.
 */
function phoneCardColumns(columns: readonly ListColumn[], linkColumn: string): ReadonlySet<string> {
  const always = (c: ListColumn) => c.name === linkColumn || c.name === 'id' || c.kind === 'state';
  return new Set([...columns.filter(always), ...columns.filter((c) => !always(c)).slice(0, CARD_FIELDS)].map((c) => c.name));
}

/** A cell's place in a phone's card: the checkbox and title on the first line, then the rest side by side. */
function cardCell(column: ListColumn, linkColumn: string, onPhones: ReadonlySet<string>): string {
  if (!onPhones.has(column.name)) return 'hidden';
  if (column.name === linkColumn) return '-order-1 block min-w-0 grow basis-[calc(100%-2rem)] break-words sm:min-w-56';
  return 'block';
}

/** The link column's text: the record's title by the engine's rule, else its number (the list names the entity already). */
function linkText(column: ListColumn, record: RecordData, references: ReferenceTitles): string {
  const title = column.kind === 'field' ? titleOfValue(column.field, record[column.name], references[column.name]) : null;
  return title ?? `#${record.id}`;
}
