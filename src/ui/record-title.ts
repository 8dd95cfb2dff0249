import type { RecordData, ReferenceTitles } from '@/engine/ops/types';
import type { EntityModel } from '@/engine/spec/model';
import { markdownExcerpt, truncate } from './format';

/**
 * How a record is named in headings and links: its title field, else "<Label> #<id>". A title
 * field that refers to a record or user is named by that one's title, from the titles ops loaded
 * with the record (`references`); never by the bare id, which would name the wrong thing.
 */
export function recordTitle(entity: EntityModel, record: RecordData, references?: ReferenceTitles): string {
  const field = entity.titleField ? entity.fieldsByName[entity.titleField] : undefined;
  const value = field ? record[field.name] : null;
  const fallback = `${entity.label} #${record.id}`;
  if (field && (field.type === 'reference' || field.type === 'user')) {
    const title = typeof value === 'number' ? references?.[field.name]?.[value] : undefined;
    return title === undefined || title.trim() === '' ? fallback : truncate(title, 200);
  }
  if (typeof value === 'string' && value.trim() !== '') {
    return field?.type === 'markdown' ? markdownExcerpt(value, 80) : truncate(value, 200);
  }
  if (typeof value === 'number') return String(value);
  return fallback;
}
