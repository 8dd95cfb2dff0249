import type { RecordData, ReferenceTitles } from '@/engine/ops/types';
import { computedText } from '@/engine/spec/describe/computed';
import type { EntityModel } from '@/engine/spec/model';
import type { ComputedValueView } from '@/ui/forms/computed-values';
import { valueText } from './seen-values';

/** The computed fields of a record the actor may read (those ops returned), for the edit form to show. */
/** Times in the viewer's `zone`, numbers in `locale`. */
export function computedViews(
  entity: EntityModel,
  record: RecordData,
  references: ReferenceTitles,
  zone: string,
  locale: string,
): ComputedValueView[] {
  return entity.fields
    .filter((field) => field.computed !== undefined && Object.hasOwn(record, field.name))
    .map((field) => ({
      name: field.name,
      label: field.label,
      text: valueText(field, record[field.name], references[field.name], zone, locale),
      note: `Computed: ${computedText(field, entity)}.`,
    }));
}
