import { NinefoldError } from '../errors/ninefold-error';
import type { SortModel } from '../spec/model';

/**
 * A keyset cursor: the sort it belongs to and the (value, id) of the last row seen. Opaque to
 * clients (base64url JSON); checked on the way back in, since clients can send anything.
 */
export interface Cursor {
  readonly value: string | number | boolean | null;
  readonly id: number;
}

function sortKey(sort: SortModel): string {
  return `${sort.direction === 'desc' ? '-' : ''}${sort.field}`;
}

export function encodeCursor(sort: SortModel, value: unknown, id: number): string {
  const v = value instanceof Date ? value.toISOString() : (value as Cursor['value']);
  return Buffer.from(JSON.stringify({ s: sortKey(sort), v, i: id })).toString('base64url');
}

function invalid(): NinefoldError {
  return new NinefoldError('VALIDATION_FAILED', 'The page cursor is not valid for this list. Start again from the first page.', {
    fieldErrors: [{ field: 'cursor', code: 'invalid_cursor', message: 'The page cursor is not valid for this list.' }],
  });
}

export function decodeCursor(text: string, sort: SortModel): Cursor {
  if (text.length > 2048 || !/^[A-Za-z0-9_-]+$/.test(text)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalid();
  const { s, v, i } = parsed as { s?: unknown; v?: unknown; i?: unknown };
  if (s !== sortKey(sort)) throw invalid();
  if (typeof i !== 'number' || !Number.isSafeInteger(i) || i < 0) throw invalid();
  if (v !== null && !['string', 'number', 'boolean'].includes(typeof v)) throw invalid();
  if (typeof v === 'string' && v.length > 1000) throw invalid();
  return { value: v as Cursor['value'], id: i };
}
