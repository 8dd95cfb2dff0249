import type { ListColumn } from '../columns';

/*
 * A record table that fits its width: the columns keep their order, which is their priority
 * (the spec's list, or the viewer's choice), and from the right the ones that do not fit are
 * hidden by a container query on the table's own region, not by the viewport, so that a table
 * in a narrow place fits too. The server cannot measure text, so each column is given a width
 * it does not exceed: long text is truncated at a fixed width (`.nf-cell-text`, `.nf-cell-name`
 * in globals.css, which these numbers must match), everything else is estimated from its
 * longest label. All widths are in rem at the table's sizes (text-sm cells, text-xs headers).
 */

/** Widths of a character, a little over the average so that estimates err towards hiding. */
const CELL_CHAR = 0.45;
const HEADER_CHAR = 0.55;
const BADGE_CHAR = 0.42;
/** A badge's own padding and ring (src/ui/badge.tsx: px-2). */
const BADGE_PADDING = 1.25;
/** A cell's padding (px-4 on each side). */
const CELL_PADDING = 2;
/** A sortable header's arrow and its gap. */
const SORT_ARROW = 0.875;
/** The row checkbox's cell: pl-4 and a 1rem box. */
export const CHECKBOX_WIDTH = 2;

/** Where long text is cut with an ellipsis (globals.css `.nf-cell-text` and `.nf-cell-name`). */
export const TEXT_WIDTH = 16;
export const NAME_WIDTH = 10;
const DATETIME_WIDTH = 'Aug 10, 2026, 08:13 UTC'.length * CELL_CHAR;
const DATE_WIDTH = 'Sep 30, 2025'.length * CELL_CHAR;
/** The "Overdue" mark beside a due time (src/ui/due-value.tsx), with its gap. */
const OVERDUE_WIDTH = 4.25;

/** Tables narrower than this are phone cards, laid out by other rules: the fit starts at Tailwind's `sm`. */
const TABLE_FROM = '40rem';

/** How a column's long text is cut: at the width of a line of text, of a name, or not at all. */
export type Truncation = 'text' | 'name' | null;

export function truncation(column: ListColumn): Truncation {
  if (column.kind === 'system') return column.name === 'createdBy' || column.name === 'updatedBy' ? 'name' : null;
  if (column.kind !== 'field') return null;
  switch (column.field.type) {
    case 'text':
    case 'markdown':
    case 'email':
    case 'url':
      return 'text';
    case 'reference':
    case 'references':
    case 'user':
    case 'users':
    case 'file':
    case 'files':
      return 'name';
    default:
      return null;
  }
}

function longest(labels: readonly string[]): number {
  return labels.reduce((most, label) => Math.max(most, label.length), 0);
}

/** The widest a column's values are, in rem, without padding. */
function valueWidth(column: ListColumn): number {
  const cut = truncation(column);
  if (cut) return cut === 'text' ? TEXT_WIDTH : NAME_WIDTH;
  if (column.kind === 'state') return longest(column.workflow.states.map((s) => s.label)) * BADGE_CHAR + BADGE_PADDING;
  if (column.kind === 'system') return column.name === 'id' ? 3.5 : DATETIME_WIDTH;
  const spec = column.field.spec;
  switch (spec.type) {
    case 'enum':
      return longest(spec.values.map((v) => spec.labels?.[v] ?? v)) * BADGE_CHAR + BADGE_PADDING;
    case 'boolean':
      return 2;
    case 'date':
      return DATE_WIDTH;
    case 'datetime':
      return DATETIME_WIDTH + (column.overdue ? OVERDUE_WIDTH : 0);
    case 'money':
      return 7;
    default:
      return 5;
  }
}

/** The widest a column is, in rem: its values or its header, with the cell's padding. */
export function columnWidth(column: ListColumn): number {
  const header = column.label.length * HEADER_CHAR + (column.sortable ? SORT_ARROW : 0);
  return Math.max(valueWidth(column), header) + CELL_PADDING;
}

/** One column hidden while the table's region is narrower than `below` rem. */
export interface HiddenColumn {
  readonly name: string;
  /** Its place among the row's cells, from 1 (the checkbox cell counts). */
  readonly child: number;
  readonly below: number;
}

/**
 * When each column is hidden: the link column never (it opens the record), the others from the
 * last, each once the columns before it (and the link column) take the whole width.
 */
export function hiddenColumns(columns: readonly ListColumn[], linkColumn: string, selectable: boolean): HiddenColumn[] {
  const first = selectable ? 2 : 1;
  const link = columns.find((c) => c.name === linkColumn);
  let total = (selectable ? CHECKBOX_WIDTH : 0) + (link ? columnWidth(link) : 0);
  const hidden: HiddenColumn[] = [];
  columns.forEach((column, index) => {
    if (column.name === linkColumn) return;
    total += columnWidth(column);
    hidden.push({ name: column.name, child: first + index, below: Math.ceil(total * 4) / 4 });
  });
  return hidden;
}

/** A short name for a set of rules, so that tables with the same columns share one style. */
function hash(text: string): string {
  let h = 5381;
  for (let i = 0; i < text.length; i++) h = (h * 33 + text.charCodeAt(i)) >>> 0;
  return h.toString(36);
}

/**
 * The CSS that fits a table of these columns to its region, and the class that scopes it to the
 * table: one rule per column, rather than a class on every cell of every row.
 */
export function columnFitStyle(
  columns: readonly ListColumn[],
  linkColumn: string,
  selectable: boolean,
): { scope: string; css: string } | null {
  const hidden = hiddenColumns(columns, linkColumn, selectable);
  if (hidden.length === 0) return null;
  const rules = (scope: string) =>
    hidden.map((h) => `@container (width<${h.below}rem){.${scope} :is(th,td):nth-child(${h.child}){display:none}}`).join('');
  const scope = `nf-fit-${hash(rules(''))}`;
  return { scope, css: `@media (width>=${TABLE_FROM}){${rules(scope)}}` };
}
