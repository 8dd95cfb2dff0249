import { NinefoldError } from '../errors/ninefold-error';
import type { EntityModel, SortModel } from '../spec/model';
import { sortText } from './list-query';
import { isNullableSortColumn } from './records';

export type CursorValue = string | number | boolean | null;

/**
 * A keyset cursor: the sort it belongs to and the sort values and id of the last row seen.
 * Opaque to clients (base64url JSON); checked on the way back in, since clients can send anything.
 */
export interface Cursor {
  readonly values: readonly CursorValue[];
  readonly id: number;
}

export function encodeCursor(sort: readonly SortModel[], values: readonly unknown[], id: number): string {
  const v = values.map((value) => (value instanceof Date ? value.toISOString() : (value as CursorValue)));
  return Buffer.from(JSON.stringify({ s: sortText(sort), v, i: id })).toString('base64url');
}

function invalid(): NinefoldError {
  return new NinefoldError('VALIDATION_FAILED', 'The page cursor is not valid for this list. Start again from the first page.', {
    fieldErrors: [{ field: 'cursor', code: 'invalid_cursor', message: 'The page cursor is not valid for this list.' }],
  });
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
const INT4 = 2 ** 31;

/**
 * Whether a cursor value is one the engine could have encoded for the sort column: anything else
 * (a client's own JSON) would make the database fail to compare it, or compare it with null.
 */
function fitsColumn(entity: EntityModel, field: string, value: CursorValue, nullable: boolean | undefined): boolean {
  if (value === null) return nullable ?? isNullableSortColumn(entity, field);
  const system: Record<string, string> = { id: 'user', createdBy: 'user', updatedBy: 'user', createdAt: 'datetime', updatedAt: 'datetime' };
  const type = entity.fieldsByName[field]?.type ?? system[field] ?? 'text';
  switch (type) {
    case 'integer':
      return Number.isSafeInteger(value) && (value as number) >= -INT4 && (value as number) < INT4;
    case 'reference':
    case 'user':
      return Number.isSafeInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'datetime':
      return (
        typeof value === 'string' && TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString() === value
      );
    case 'date':
      return (
        typeof value === 'string' && DAY.test(value) && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString().startsWith(value)
      );
    case 'decimal':
    case 'money':
      return typeof value === 'string' && DECIMAL.test(value);
    default:
      return typeof value === 'string';
  }
}

/**
 * Reads a cursor back. With `entity`, its values must also fit the sort columns (see fitsColumn);
 * a key may say it is empty on some rows (a field hidden there from the actor sorts as empty).
 */
export function decodeCursor(text: string, sort: readonly (SortModel & { readonly nullable?: boolean })[], entity?: EntityModel): Cursor {
  if (text.length > 4096 || !/^[A-Za-z0-9_-]+$/.test(text)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalid();
  const { s, v, i } = parsed as { s?: unknown; v?: unknown; i?: unknown };
  if (s !== sortText(sort)) throw invalid();
  if (typeof i !== 'number' || !Number.isSafeInteger(i) || i < 0) throw invalid();
  if (!Array.isArray(v) || v.length !== sort.length) throw invalid();
  for (const [index, key] of sort.entries()) {
    const value: unknown = v[index];
    if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) throw invalid();
    if (typeof value === 'string' && (value.length > 1000 || value.includes('\u0000'))) throw invalid();
    if (entity && !fitsColumn(entity, key.field, value as CursorValue, key.nullable)) throw invalid();
  }
  return { values: v as CursorValue[], id: i };
}
