import { isAdmin } from '@/engine/access/policy';
import type { Actor } from '@/engine/ground/actor';
import type { BoundOps } from '@/engine/ops/ops';
import type { AppModel } from '@/engine/spec/model';

/**
 * Whether the home should tell this viewer what to do first: an administrator of a product that
 * has entities but no record in any of them yet (just after /setup). Each entity is asked for one
 * record at most, so the check costs a query per entity and only on an administrator's home.
 */
export async function needsGettingStarted(model: AppModel, ops: BoundOps, actor: Actor): Promise<boolean> {
  if (!isAdmin(actor) || model.entities.length === 0) return false;
  const listable = model.entities.filter((entity) => ops.access(entity.name).actions.list);
  const counts = await Promise.all(listable.map((entity) => ops.count(entity.name, {}, 1)));
  return counts.every((c) => c.count === 0);
}
