import { scopePathHeadsInto } from '../access/policy';
import type { Actor } from '../ground/actor';
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
  await Promise.all([...byEntity].map(([entity, pending]) => cameIntoView(model, ops, actor, entity, pending.ids, visible)));
  await Promise.all(
    [...byEntity].map(async ([entity, pending]) => {
      // An entity this spec does not know (another spec's table in the same database) tells nothing.
      if (!Object.hasOwn(model.entitiesByName, entity)) return;
      const parts = await Promise.all([
        pending.ids === null || pending.ids.size > 0 ? ops.readable(actor, entity, { ids: pending.ids && [...pending.ids] }) : [],
        pending.goneIds === null || pending.goneIds.size > 0
          ? ops.readable(actor, entity, { ids: pending.goneIds && [...pending.goneIds], gone: pending.gone })
          : [],
      ]);
      if (parts.some((p) => p === null) || visible[entity] === null) visible[entity] = null;
      else {
        const ids = [...new Set([...parts.flatMap((p) => p ?? []), ...(visible[entity] ?? [])])];
        if (ids.length > 0) visible[entity] = ids;
      }
    }),
  );
  return visible;
}

/** Per target entity, the (entity, reference field) pairs whose scopes follow a path into it. */
function scopePathsInto(model: AppModel, target: string): readonly { readonly entity: string; readonly field: string }[] {
  return model.entities.flatMap((entity) => scopePathHeadsInto(entity, target).map((field) => ({ entity: entity.name, field })));
}

/**
 * Records of other entities whose read scope follows a path into the changed records (auditors
 * see the requests of open teams: a team reopened brings its requests into view) and that the
 * viewer may read now, added to `visible`. Those that left the view are not named: the viewer
 * may no longer learn anything of them, and the page drops them when it reads again.
 */
async function cameIntoView(
  model: AppModel,
  ops: Ops,
  actor: Actor,
  target: string,
  ids: ReadonlySet<number> | null,
  visible: Record<string, readonly number[] | null>,
): Promise<void> {
  if (!ids || ids.size === 0 || !Object.hasOwn(model.entitiesByName, target)) return;
  for (const { entity, field } of scopePathsInto(model, target)) {
    const found = await ops.readable(actor, entity, { ids: [], through: { field, ids: [...ids] } });
    if (found && found.length > 0 && visible[entity] !== null) visible[entity] = [...new Set([...(visible[entity] ?? []), ...found])];
  }
}
