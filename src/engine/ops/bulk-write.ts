import { authorize } from '../access/authorize';
import { checkWritable } from '../access/fields';
import { entityOf, type OpsContext } from './context';
import { eachBulkRow, type BulkItem } from './bulk';
import type { BulkDeleteResult, BulkUpdateResult, RecordInput } from './types';
import type { Actor } from '../ground/actor';
import { deleteRecord, updateRecord } from './write';

/*
 * The same change on many records (a list's selected rows): each row is exactly the single
 * update or delete, with its own version check and its own transaction, so a refusal is that
 * row's alone. What cannot succeed on any row is refused for the whole call first: no grant of
 * the action, or a field the actor may not write (FORBIDDEN, FORBIDDEN_FIELD), so a forged form
 * gets one answer rather than one refusal per row.
 */

export async function bulkUpdate(
  ctx: OpsContext,
  actor: Actor,
  entityName: string,
  items: readonly BulkItem[],
  input: RecordInput,
): Promise<BulkUpdateResult[]> {
  const entity = entityOf(ctx.model, entityName);
  authorize(ctx.model, entity, actor, 'update');
  checkWritable(entity, actor, 'update', input);
  const results = await eachBulkRow(entity, items, (id, version) =>
    // A row without the version the actor saw is refused there (PRECONDITION_REQUIRED), as a single update is.
    updateRecord(ctx, actor, entity.name, id, input, version as number),
  );
  return results.map((result) => (result.ok ? { id: result.id, ok: true, record: result.value } : result));
}

export async function bulkDelete(
  ctx: OpsContext,
  actor: Actor,
  entityName: string,
  items: readonly BulkItem[],
): Promise<BulkDeleteResult[]> {
  const entity = entityOf(ctx.model, entityName);
  authorize(ctx.model, entity, actor, 'delete');
  const results = await eachBulkRow(entity, items, (id, version) => deleteRecord(ctx, actor, entity.name, id, version));
  return results.map((result) => (result.ok ? { id: result.id, ok: true } : result));
}
