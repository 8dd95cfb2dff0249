import { stringify } from 'csv-stringify/sync';
import { neutralizeFormula } from '@/engine/csv/formula';
import type { Ops } from '@/engine/ops/ops';
import type { ListPage, ListQuery } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import type { EntityModel } from '@/engine/spec/model';
import type { ListColumn } from '@/ui/columns';
import { cellText } from './export-cells';

/** Rows per ops.list call: ops' largest page. */
export const EXPORT_PAGE_SIZE = 500;

/**
 * RFC 4180: CRLF between records, a value quoted when it holds the separator, a quote or any
 * line break (the library's default looks only for the record delimiter, CRLF, not a bare LF).
 */
const CSV_OPTIONS = { record_delimiter: 'windows', quoted_match: /[\r\n]/ } as const;
/** Excel reads a file as UTF-8 only when it starts with the byte order mark; other tools skip it. */
export const BOM = '\uFEFF';

/** Rows as CSV lines, each cell neutralised against formula injection. */
export function csvLines(rows: readonly (readonly string[])[]): string {
  return stringify(
    rows.map((cells) => cells.map(neutralizeFormula)),
    CSV_OPTIONS,
  );
}

/**
 * The whole list (every page, from the first) as CSV: a header row of the columns' labels, then
 * each record's cells as the list shows them. Pull-based: the next page is read through ops only
 * when the reader asks for more bytes, so memory stays at one page whatever the size of the list
 * and a slow or gone reader stops the reading. The first page is read before the stream is
 * returned, so that a refused query (a bad filter, a forbidden field) is an error, not a file.
 */
export async function listCsv(
  ops: Ops,
  actor: Actor,
  entity: EntityModel,
  query: ListQuery,
  columns: readonly ListColumn[],
): Promise<ReadableStream<Uint8Array>> {
  const { cursor: _ignored, ...from } = query;
  const read = (cursor: string | undefined) =>
    ops.list(actor, entity.name, { ...from, ...(cursor ? { cursor } : {}), limit: EXPORT_PAGE_SIZE });
  let first: ListPage | null = await read(undefined);
  let cursor = first.nextCursor;
  let header = `${BOM}${csvLines([columns.map((c) => c.label)])}`;
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const page = first ?? (await read(cursor!));
        first = null;
        controller.enqueue(
          encoder.encode(header + csvLines(page.rows.map((record) => columns.map((c) => cellText(c, record, page.references))))),
        );
        header = '';
        cursor = page.nextCursor;
        if (cursor === null) controller.close();
      },
    },
    // Nothing read ahead: pull runs when the reader wants a chunk.
    { highWaterMark: 0 },
  );
}

/** "tickets-2026-11-24.csv": the list's entity and the day (UTC) it was exported. */
export function exportFileName(entity: EntityModel, now = new Date()): string {
  return `${entity.plural}-${now.toISOString().slice(0, 10)}.csv`;
}
