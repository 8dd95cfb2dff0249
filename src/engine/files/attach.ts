import { NinefoldError, type FieldError } from '../errors/ninefold-error';
import type { Actor } from '../ground/actor';
import type { EntityModel, FieldModel } from '../spec/model';
import type { DynamicDatabase } from '../store/types';
import { accepts } from './file-limits';
import { FILE_TABLE } from './file-tables';
import { formatBytes } from './byte-size';

/**
 * Attaches staged files to a record in the transaction of its write: each must be staged by the
 * actor and not yet attached (a file is attached once, by whoever uploaded it, so nobody can
 * take another's upload by guessing its id) and fit the field's size and types. The pairs are
 * written by the caller (ops/reference-sets.ts); a refusal rolls both back and the files stay
 * staged, their uploader's to use again until the scheduler sweeps them.
 */
export async function claimFiles(
  trx: DynamicDatabase,
  actor: Actor,
  entity: EntityModel,
  field: FieldModel,
  recordId: number,
  ids: readonly number[],
): Promise<void> {
  const limits = field.files;
  if (!limits || ids.length === 0) return;
  const rows = await trx
    .selectFrom(FILE_TABLE)
    .select(['id', 'name', 'size', 'content_type', 'state', 'uploaded_by'])
    .where('id', 'in', [...ids])
    .forUpdate()
    .execute();
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  const errors: FieldError[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (!row || row.state !== 'staged' || actor.userId <= 0 || Number(row.uploaded_by) !== actor.userId) {
      errors.push({
        field: field.name,
        code: 'unknown_file',
        message: `${field.label}: file ${id} is not an upload of yours waiting to be attached (upload it first; a file is attached once).`,
      });
    } else if (Number(row.size) > limits.maxBytes) {
      errors.push({
        field: field.name,
        code: 'too_big',
        message: `${field.label}: ${row.name} is larger than ${formatBytes(limits.maxBytes)}.`,
      });
    } else if (!accepts(limits.accept, String(row.content_type))) {
      errors.push({
        field: field.name,
        code: 'invalid_type',
        message: `${field.label}: ${row.name} is ${row.content_type}; accepted: ${(limits.accept ?? []).join(', ')}.`,
      });
    }
  }
  if (errors.length > 0) throw new NinefoldError('VALIDATION_FAILED', errors.map((e) => e.message).join(' '), { fieldErrors: errors });
  await trx
    .updateTable(FILE_TABLE)
    .set({ state: 'attached', entity: entity.name, field: field.name, record_id: recordId })
    .where('id', 'in', [...ids])
    .execute();
}
