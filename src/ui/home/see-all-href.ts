import type { Actor } from '@/engine/ops/types';
import type { AppModel, EntityModel } from '@/engine/spec/model';
import type { Condition } from '@/engine/spec/types';
import { filteredListHref } from './list-href';

/**
 * Where "see all" of a list widget leads: the entity's list when the condition is only
 * equalities its list screen can filter by (`{ actor: true }` is the viewer's id), else a
 * custom route (without parameters) listing the same entity with the same condition; null when
 * no page shows exactly those records.
 */
export function seeAllHref(model: AppModel, entity: EntityModel, where: Condition | null, actor: Actor): string | null {
  if (!where) return `/${entity.plural}`;
  const filters = equalities(where, actor);
  const href = filters ? filteredListHref(entity, filters) : null;
  if (href) return href;
  const same = JSON.stringify(where);
  const route = model.routes.find(
    (r) => r.show.kind === 'list' && r.show.entity === entity.name && JSON.stringify(r.show.where) === same && r.segments.every((s) => s.kind === 'literal'),
  );
  return route ? route.path : null;
}

/** The condition as field = value pairs, or null when it is anything more. */
function equalities(condition: Condition, actor: Actor): Record<string, string> | null {
  const leaves = 'all' in condition ? condition.all : [condition];
  const filters: Record<string, string> = {};
  for (const leaf of leaves) {
    if (!('field' in leaf) || leaf.op !== 'eq') return null;
    const value = leaf.value;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') filters[leaf.field] = String(value);
    else if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'actor' in value) filters[leaf.field] = String(actor.userId);
    else return null;
  }
  return filters;
}
