import { markdownExcerpt, truncate } from '../excerpt';
import type { EntityModel, FieldModel } from '../spec/model';
import { titleRule } from '../spec/title-rule';
import type { RecordData, ReferenceTitles } from './types';

/*
 * How a record is named wherever it appears: headings, links, breadcrumbs, home widgets, the
 * palette, history, pickers and the titles of references. One rule, the model's (spec/title-rule.ts);
 * ops resolve the titles of references in SQL by it (ops/title-sql.ts).
 */

/** A title's length at most; Markdown (a comment titled by its body) is cut shorter, to its first words. */
export const TITLE_MAX = 200;
const MARKDOWN_TITLE_MAX = 80;

/** The name of a record that has no title to show (none, empty, or one the viewer may not see). */
export function fallbackTitle(entity: EntityModel, id: number): string {
  return `${entity.label} #${id}`;
}

/**
 * A title as it reads: whitespace collapsed, Markdown reduced to its words, cut at a length.
 * Empty when nothing is left (the caller then names the record by its id).
 */
export function titleText(text: string, markdown: boolean): string {
  return markdown ? markdownExcerpt(text, MARKDOWN_TITLE_MAX) : truncate(text.replace(/\s+/g, ' ').trim(), TITLE_MAX);
}

/**
 * The title one value of a title field gives: its text; for a reference or user field the title
 * ops loaded for it with the record (`titles`, the field's entry of `references`), which is
 * absent for a record the viewer may not read. Null when it gives none.
 */
export function titleOfValue(field: FieldModel, value: unknown, titles?: Readonly<Record<number, string>>): string | null {
  if (field.type === 'reference' || field.type === 'user') {
    const title = typeof value === 'number' ? titles?.[value] : undefined;
    return title === undefined || title.trim() === '' ? null : title;
  }
  if (value === null || value === undefined) return null;
  const raw = value instanceof Date ? value.toISOString() : String(value);
  return titleText(raw, field.type === 'markdown') || null;
}

type TitledRecord = Pick<RecordData, 'id'> & Readonly<Record<string, unknown>>;

/**
 * The title a record gives itself by its entity's title rule, from the record and the reference
 * titles ops returned with it; null when it gives none (the caller names it by its number). A
 * field the viewer may not read is absent from the record, so its value never names it.
 */
export function ownTitle(entity: EntityModel, record: TitledRecord, references?: ReferenceTitles): string | null {
  const rule = titleRule(entity);
  return rule.kind === 'none' ? null : titleOfValue(rule.field, record[rule.field.name], references?.[rule.field.name]);
}

/** A record's name: its own title, else "<Label> #<id>". */
export function recordTitle(entity: EntityModel, record: TitledRecord, references?: ReferenceTitles): string {
  return ownTitle(entity, record, references) ?? fallbackTitle(entity, record.id);
}
