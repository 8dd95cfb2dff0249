import type { EntityModel } from '@/engine/spec/model';
import { listAddress, type ListParams } from '@/server/list-query';

/**
 * Where the CSV of a list is: `/<plural>/export.csv` with the list's own parameters (filters,
 * search, sort, columns; never the page: an export holds every page), and for a custom route's
 * list its address as `list=` ("/queue"), whose fixed condition, sort and columns then apply.
 */
export function exportAddress(entity: EntityModel, path: string, params: ListParams): string {
  const address = listAddress(`/${entity.plural}/export.csv`, params, { cursor: '' });
  if (path === `/${entity.plural}`) return address;
  return `${address}${address.includes('?') ? '&' : '?'}list=${encodeURIComponent(path)}`;
}
