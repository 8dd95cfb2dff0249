import type { EntityModel } from '@/engine/spec/model';
import { filterParam } from '../list/filter-param';

/**
 * The entity's list filtered by these values, or null when its list screen cannot filter by one
 * of them (only the declared filters are in a list's address).
 */
export function filteredListHref(entity: EntityModel, filters: Readonly<Record<string, string>>): string | null {
  const params = new URLSearchParams();
  for (const [field, value] of Object.entries(filters)) {
    if (!entity.list.filters.includes(field)) return null;
    params.set(filterParam(field), value);
  }
  const query = params.toString();
  return `/${entity.plural}${query ? `?${query}` : ''}`;
}
