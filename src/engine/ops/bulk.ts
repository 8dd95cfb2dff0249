import { asNinefoldError, NinefoldError, notFound } from '../errors/ninefold-error';
import { fieldWrittenOnlyByCalls } from '../access/policy';
import type { EntityModel, FieldModel } from '../spec/model';
import type { FieldType } from '../spec/types';
import { inSentence } from '../spec/naming';
import { isRecordId } from './record-id';
import type { BulkRowRefusal } from './types';

/** Rows one bulk write (a transition, an update, a delete) may touch: what a list page shows at most, with room. */
export const MAX_BULK_ROWS = 200;

/**
 * Kinds of field one value can sensibly be given on many rows at once (a list's "Set <field>"):
 * a choice, a person, a record, yes or no, a date or a number. Text is each record's own; sets
 * and files are added to, not replaced.
 */
const BULK_SETTABLE_TYPES: readonly FieldType[] = [
  'enum',
  'reference',
  'user',
  'boolean',
  'date',
  'datetime',
  'integer',
  'decimal',
  'money',
];

/** Whether a list's "Set <field>" may offer the field (to those access lets write it): of a settable kind, and written by people. */
export function isBulkSettable(entity: EntityModel, field: FieldModel): boolean {
  return BULK_SETTABLE_TYPES.includes(field.type) && !field.readOnly && !fieldWrittenOnlyByCalls(entity, field);
}

/** One selected row: its id, and the version the actor saw. */
export interface BulkItem {
  readonly id: number;
  readonly version?: number;
}

/**
 * Runs `write` on each distinct row in order, each call its own transaction (the write opens it),
 * so that one refusal neither blocks nor undoes the others. A row's refusal is reported, not
 * thrown; anything that is not a catalogue error is. Fewer than one or more than MAX_BULK_ROWS
 * rows is a refusal of the whole call (VALIDATION_FAILED, nothing written).
 */
export async function eachBulkRow<T>(
  entity: EntityModel,
  items: readonly BulkItem[],
  write: (id: number, version: number | undefined) => Promise<T>,
): Promise<({ readonly id: number; readonly ok: true; readonly value: T } | BulkRowRefusal)[]> {
  if (!Array.isArray(items) || items.length === 0) {
    throw new NinefoldError('VALIDATION_FAILED', 'Select at least one record.', {
      fieldErrors: [{ field: 'ids', code: 'required', message: 'Select at least one record.' }],
    });
  }
  if (items.length > MAX_BULK_ROWS) {
    throw new NinefoldError('VALIDATION_FAILED', `At most ${MAX_BULK_ROWS} records at once.`, {
      fieldErrors: [{ field: 'ids', code: 'too_big', message: `At most ${MAX_BULK_ROWS} records at once.` }],
    });
  }
  const results: ({ id: number; ok: true; value: T } | BulkRowRefusal)[] = [];
  const seen = new Set<number>();
  for (const item of items) {
    const id = item?.id;
    if (seen.has(id)) continue;
    seen.add(id);
    try {
      if (!isRecordId(id)) throw notFound(inSentence(entity.label));
      results.push({ id, ok: true, value: await write(id, item.version) });
    } catch (error) {
      const known = asNinefoldError(error);
      if (!known) throw error;
      results.push({
        id,
        ok: false,
        code: known.code,
        message: known.message,
        ...(known.fieldErrors.length > 0 ? { fieldErrors: known.fieldErrors } : {}),
      });
    }
  }
  return results;
}
