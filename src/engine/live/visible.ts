import type { Actor } from '../ops/types';
import type { Ops } from '../ops/ops';
import type { AppModel } from '../spec/model';
import type { RecordChange } from './changes';

/** Per entity, the changed records a viewer may read: ids, or null for "some" (see ops.readable). */
export type VisibleChanges = Readonly<Record<string, readonly number[] | null>>;

interface Pending {
  ids: Set<number> | null;
  gone: Record<string, unknown>[] | null;
  goneIds: Set<number> | null;
}

/**
 * What of a batch of changes the viewer may learn: per entity, at most two ops.readable calls
 * (the written records, judged as they are now; the deleted ones, judged on their last image).
 * Entities with nothing readable are absent, so a customer never hears that an internal comment
 * was added, changed or deleted, not even as a bare "comments changed".
 */
export async function visibleChanges(model: AppModel, ops: Ops, actor: Actor, changes: readonly RecordChange[]): Promise<VisibleChanges> {
  const byEntity = new Map<string, Pending>();
  for (const change of changes) {
    let pending = byEntity.get(change.entity);
    if (!pending) byEntity.set(change.entity, (pending = { ids: new Set(), gone: [], goneIds: new Set() }));
    if (change.op === 'delete') {
      if (change.ids === null) pending.goneIds = null;
      else if (pending.goneIds) for (const id of change.ids) pending.goneIds.add(id);
      if (change.gone === null) pending.gone = null;
      else if (pending.gone) pending.gone.push(...change.gone);
    } else if (change.ids === null) pending.ids = null;
    else if (pending.ids) for (const id of change.ids) pending.ids.add(id);
  }
  const visible: Record<string, readonly number[] | null> = {};
  await Promise.all(
    [...byEntity].map(async ([entity, pending]) => {
      // An entity this spec does not know (another spec's table in the same database) tells nothing.
      if (!Object.hasOwn(model.entitiesByName, entity)) return;
      const parts = await Promise.all([
        pending.ids === null || pending.ids.size > 0 ? ops.readable(actor, entity, { ids: pending.ids && [...pending.ids] }) : [],
        pending.goneIds === null || pending.goneIds.size > 0 ? ops.readable(actor, entity, { ids: pending.goneIds && [...pending.goneIds], gone: pending.gone }) : [],
      ]);
      if (parts.some((p) => p === null)) visible[entity] = null;
      else {
        const ids = [...new Set(parts.flatMap((p) => p ?? []))];
        if (ids.length > 0) visible[entity] = ids;
      }
    }),
  );
  return visible;
}
