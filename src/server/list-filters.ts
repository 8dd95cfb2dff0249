import 'server-only';
import type { Ops } from '@/engine/ops/ops';
import type { Actor } from '@/engine/ground/actor';
import { DUE_FILTERS } from '@/engine/rules/overdue';
import type { EntityModel } from '@/engine/spec/model';
import { humanize } from '@/engine/spec/naming';
import type { FilterControl, FilterOption } from '@/ui/list-filters';
import { choiceOptions, loadChoices } from './form-fields';
import { filterParam } from '@/ui/list/filter-param';
import type { ListParams } from './list-query';
import { enumLabel } from '@/ui/format';

function keepCurrent(options: FilterOption[], value: string): FilterOption[] {
  return value === '' || options.some((o) => o.value === value) ? options : [...options, { value, label: value }];
}

/** The filter controls of a list screen, showing the values in the address. */
export async function describeFilters(
  ops: Ops,
  actor: Actor,
  entity: EntityModel,
  /** Declared fields the actor may read (ops.access): a filter on any other is not offered. */
  visible: ReadonlySet<string>,
  params: ListParams,
): Promise<FilterControl[]> {
  const controls = await Promise.all(
    entity.list.filters.map(async (name): Promise<FilterControl | null> => {
      const value = params.filters[name] ?? '';
      const param = filterParam(name);
      if (entity.workflow && entity.workflow.field === name) {
        const options = entity.workflow.states.map((s) => ({ value: s.name, label: s.label }));
        return { param, label: humanize(name), kind: 'select', options: keepCurrent(options, value), value };
      }
      const field = entity.fieldsByName[name];
      if (!field || !visible.has(name)) return null;
      const spec = field.spec;
      if (field.due) {
        const options = Object.entries(DUE_FILTERS).map(([option, label]) => ({ value: option, label }));
        return { param, label: field.label, kind: 'select', options: keepCurrent(options, value), value };
      }
      switch (spec.type) {
        case 'enum':
          return {
            param,
            label: field.label,
            kind: 'select',
            options: keepCurrent(
              spec.values.map((v) => ({ value: v, label: enumLabel(spec.labels, v) })),
              value,
            ),
            value,
          };
        case 'boolean':
          return {
            param,
            label: field.label,
            kind: 'select',
            options: keepCurrent(
              [
                { value: 'true', label: 'Yes' },
                { value: 'false', label: 'No' },
              ],
              value,
            ),
            value,
          };
        case 'reference':
        case 'user': {
          // A combobox searching the server once hydrated; before, and without JavaScript, a select of a few or an id input.
          const search = { entity: entity.name, field: field.name };
          const choices = await loadChoices(ops, actor, entity, field);
          if (choices === null) return { param, label: field.label, kind: 'id', options: [], value, search };
          return { param, label: field.label, kind: 'select', options: choiceOptions(choices, value, undefined), value, search };
        }
        case 'references':
        case 'users': {
          // "Has any of": a combobox of several once hydrated; before, and without JavaScript, a multiple select of a few, or ids typed "3,7".
          const search = { entity: entity.name, field: field.name };
          const choices = await loadChoices(ops, actor, entity, field);
          const label = `${field.label} (any of)`;
          const options = (choices ?? []).map((c) => ({ value: String(c.id), label: c.title }));
          for (const id of value.split(',').filter((v) => v !== ''))
            if (!options.some((o) => o.value === id)) options.push({ value: id, label: `#${id}` });
          return { param, label, kind: choices === null ? 'text' : 'multi', options, value, search };
        }
        default:
          return { param, label: field.label, kind: 'text', options: [], value };
      }
    }),
  );
  return controls.filter((c): c is FilterControl => c !== null);
}
