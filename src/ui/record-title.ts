import type { RecordData } from '@/engine/ops/types';
import type { EntityModel } from '@/engine/spec/model';
import { markdownExcerpt, truncate } from './format';

/** How a record is named in headings and links: its title field, else "<Label> #<id>". */
export function recordTitle(entity: EntityModel, record: RecordData): string {
  const field = entity.titleField ? entity.fieldsByName[entity.titleField] : undefined;
  const value = field ? record[field.name] : null;
  if (typeof value === 'string' && value.trim() !== '') {
    return field?.type === 'markdown' ? markdownExcerpt(value, 80) : truncate(value, 200);
  }
  if (typeof value === 'number') return String(value);
  return `${entity.label} #${record.id}`;
}
