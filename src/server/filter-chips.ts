import type { EntityModel } from '@/engine/spec/model';
import { filterParam } from '@/ui/list/filter-param';
import type { FilterChip, FilterControl } from '@/ui/list-filters';
import { listAddress, type ListParams } from './list-query';

/** A filter's value as the list says it: its options' labels where it has them, else the value as given. */
function valueText(control: FilterControl, value: string): string {
  const label = (part: string) => control.options.find((o) => o.value === part)?.label ?? (control.kind === 'id' ? `#${part}` : part);
  if (control.kind === 'multi') {
    return value
      .split(',')
      .filter((part) => part !== '')
      .map(label)
      .join(', ');
  }
  return label(value);
}

/**
 * The filters a list is narrowed by, as chips beside its Filters disclosure ("Priority: Urgent"),
 * each with the address of the same list without it (and at its first page). In the order the
 * spec lists the filters; a filter the viewer is not offered (describeFilters) has no chip.
 */
export function filterChips(entity: EntityModel, controls: readonly FilterControl[], path: string, params: ListParams): FilterChip[] {
  return entity.list.filters.flatMap((field) => {
    const value = params.filters[field] ?? '';
    const control = controls.find((c) => c.param === filterParam(field));
    if (value === '' || !control) return [];
    const removeHref = listAddress(path, params, { filters: { ...params.filters, [field]: '' }, cursor: '' });
    return [{ param: control.param, text: `${control.label}: ${valueText(control, value)}`, removeHref }];
  });
}
