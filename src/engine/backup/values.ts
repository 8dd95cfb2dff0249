import { quoteIdent } from '../store/schema/sql';
import type { CatalogueColumn } from '../store/schema/types';

/**
 * How a column's values are written into a backup line and read back: both are SQL, so a value
 * goes from PostgreSQL to the file and back without passing through a JavaScript number or Date
 * (a JavaScript Date drops microseconds; a double drops digits of a numeric or a big bigint).
 */

/** Types a JSON number or boolean holds exactly (the reader is PostgreSQL, not JavaScript). */
const JSON_SCALAR_TYPES = new Set(['boolean', 'smallint', 'integer', 'bigint']);

/** The session settings under which `::text` prints timestamps, dates and intervals the same everywhere. */
export const TEXT_SETTINGS = ["set local timezone to 'UTC'", "set local datestyle to 'ISO, YMD'", "set local intervalstyle to 'postgres'"];

/** The SQL that turns a column into the JSON value of the backup. */
export function exportExpression(column: CatalogueColumn): string {
  const ref = quoteIdent(column.name);
  if (column.type === 'jsonb') return ref;
  if (column.type === 'json') return `${ref}::jsonb`;
  if (JSON_SCALAR_TYPES.has(column.type)) return ref;
  return `${ref}::text`;
}

/**
 * Postgres functions take at most 100 arguments: a wide table's row is built from several
 * arrays joined with `||`.
 */
const ARGUMENTS_PER_CALL = 90;

/** The SQL of one row as a JSON array, in column order. */
export function rowExpression(columns: readonly CatalogueColumn[]): string {
  const parts: string[] = [];
  for (let start = 0; start < columns.length; start += ARGUMENTS_PER_CALL) {
    parts.push(
      `jsonb_build_array(${columns
        .slice(start, start + ARGUMENTS_PER_CALL)
        .map(exportExpression)
        .join(', ')})`,
    );
  }
  return parts.length === 0 ? `'[]'::jsonb` : parts.join(' || ');
}

/**
 * The SQL that reads value `index` of the row array `row` (jsonb) into a column of the target
 * database. A JSON null is SQL NULL; so a nullable json column holding the JSON value null comes
 * back as NULL (no table of the engine stores that).
 */
export function importExpression(column: CatalogueColumn, row: string, index: number): string {
  const value = `${row}->${index}`;
  if (column.type === 'jsonb') return column.nullable ? `nullif(${value}, 'null'::jsonb)` : value;
  if (column.type === 'json') return column.nullable ? `nullif(${value}, 'null'::jsonb)::json` : `${value}::json`;
  return `(${row}->>${index})::${column.type}`;
}
