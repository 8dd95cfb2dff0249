import type { FieldError } from '@/engine/errors/ninefold-error';
import { MAX_BULK_ROWS } from '@/engine/ops/bulk';
import type { BulkDeleteResult, BulkTransitionResult } from '@/engine/ops/types';
import type { EntityModel } from '@/engine/spec/model';
import { describeRecordFiles } from './file-wire';
import { catalogueStatus } from './problem';
import type { ApiRequest } from './routes';
import { recordToWire, type WireBulkDeleteResult, type WireBulkTransitionResult } from './wire';

/*
 * What the API's requests on many records share (a transition, an update or a delete of each):
 * the list of items sent, checked for shape, and one result per row in the order sent, a refusal
 * carrying the status, code and detail the request on that record alone would have answered.
 */

const ITEM_KEYS = ['id', 'version'];

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isPositiveInteger = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;

/** Keys of a body object that are not among `known`, as field errors. */
export function unknownKeys(body: Record<string, unknown>, known: readonly string[], prefix = ''): FieldError[] {
  return Object.keys(body)
    .filter((key) => !known.includes(key))
    .map((key) => ({
      field: `${prefix}${key}`,
      code: 'unknown_field',
      message: `"${key}" is not expected here (expected: ${known.join(', ')}).`,
    }));
}

export function bulkItems(raw: unknown, errors: FieldError[]): { id: number; version?: number }[] {
  if (!Array.isArray(raw)) {
    errors.push({
      field: 'items',
      code: raw === undefined ? 'required' : 'invalid_type',
      message: 'Send "items": a list of { "id", "version" }.',
    });
    return [];
  }
  if (raw.length === 0 || raw.length > MAX_BULK_ROWS) {
    errors.push({
      field: 'items',
      code: raw.length === 0 ? 'too_small' : 'too_big',
      message: `Send from 1 to ${MAX_BULK_ROWS} items.`,
    });
    return [];
  }
  const items: { id: number; version?: number }[] = [];
  raw.forEach((item: unknown, index) => {
    const at = `items/${index}`;
    if (!isObject(item)) {
      errors.push({ field: at, code: 'invalid_type', message: 'Each item must be an object: { "id", "version" }.' });
      return;
    }
    errors.push(...unknownKeys(item, ITEM_KEYS, `${at}/`));
    if (!isPositiveInteger(item.id))
      errors.push({ field: `${at}/id`, code: 'invalid_id', message: 'The id must be a positive whole number.' });
    if (item.version !== undefined && !isPositiveInteger(item.version)) {
      errors.push({ field: `${at}/version`, code: 'invalid_version', message: 'The version must be a positive whole number.' });
    }
    items.push({ id: item.id as number, ...(item.version !== undefined ? { version: item.version as number } : {}) });
  });
  return items;
}

/** A refused row as the wire carries it; a code outside the catalogue is not told (as problemResponse does). */
function refusedRow(call: ApiRequest, outcome: { id: number; code: string; message: string }) {
  const status = catalogueStatus(outcome.code, call.engine.model.errors);
  return status === undefined
    ? { id: outcome.id, ok: false as const, status: 500, code: 'INTERNAL', detail: 'Something went wrong on our side.' }
    : { id: outcome.id, ok: false as const, status, code: outcome.code, detail: outcome.message };
}

/** The rows of a transition or an update of many records: each record as written, or its refusal. */
export async function rowResults(
  call: ApiRequest,
  entity: EntityModel,
  outcomes: readonly BulkTransitionResult[],
): Promise<WireBulkTransitionResult[]> {
  const files = await describeRecordFiles(
    call.engine,
    entity,
    outcomes.flatMap((outcome) => (outcome.ok ? [outcome.record] : [])),
  );
  return outcomes.map((outcome) =>
    outcome.ok ? { id: outcome.id, ok: true, record: recordToWire(entity, outcome.record, files) } : refusedRow(call, outcome),
  );
}

/** The rows of a delete of many records: deleted, or its refusal. */
export function deleteResults(call: ApiRequest, outcomes: readonly BulkDeleteResult[]): WireBulkDeleteResult[] {
  return outcomes.map((outcome) => (outcome.ok ? { id: outcome.id, ok: true } : refusedRow(call, outcome)));
}
