import { NinefoldError, type FieldError } from '@/engine/errors/ninefold-error';

/*
 * The id of an address (a record's, a file's), and the refusal of a bad input: shared by every
 * route module, so that none needs another's (records.ts is a route module too).
 */
const RECORD_ID = /^[1-9]\d{0,15}$/;

export function invalid(errors: FieldError[], detail?: string): NinefoldError {
  return new NinefoldError('VALIDATION_FAILED', detail ?? errors.map((e) => e.message).join(' '), { fieldErrors: errors });
}

/** The id path parameter: a positive whole number, else 422 naming it. */
export function recordId(raw: string | undefined): number {
  const id = raw !== undefined && RECORD_ID.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw invalid([{ field: 'id', code: 'invalid_id', message: 'The id must be a positive whole number.' }]);
  return id;
}
