import type { EntityModel } from '@/engine/spec/model';
import { enumLabel, formatBoolean } from '../format';

/**
 * How a grouped value reads on the home: a state's label, an enum's label, Yes/No, the title of
 * a referenced record or user (its number when the viewer may not read it), "None" when empty.
 */
export function valueLabel(entity: EntityModel, field: string, value: string | null, titles: Readonly<Record<string, string>>): string {
  if (value === null) return 'None';
  if (entity.workflow && field === entity.workflow.field) return entity.workflow.states.find((s) => s.name === value)?.label ?? value;
  const spec = entity.fieldsByName[field]?.spec;
  if (spec?.type === 'enum') return enumLabel(spec.labels, value);
  if (spec?.type === 'boolean') return formatBoolean(value);
  return titles[value] ?? `#${value}`;
}
