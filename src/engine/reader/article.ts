import { markdownExcerpt } from '../excerpt';
import { fallbackTitle, titleOfValue } from '../ops/record-title';
import type { RecordData, ReferenceTitles } from '../ops/types';
import type { EntityModel } from '../spec/model';
import type { PresentationModel } from '../spec/screens/presentation';

/**
 * A record as readers read it (front page, article, feed): each part taken from the field its
 * presentation names, as ops returned the record to the reader; a field the reader may not read
 * is absent from the record, so its part is null here and nothing of it is shown.
 */
export interface Article {
  readonly id: number;
  /** The address's last segment: the slug when it has one, else the id. */
  readonly key: string;
  readonly headline: string;
  /** Plain text (a markdown summary reduced to its words). */
  readonly summary: string | null;
  /** Markdown, or plain text for a text field. */
  readonly body: string | null;
  readonly bodyIsMarkdown: boolean;
  readonly date: Date | null;
  readonly byline: string | null;
  readonly tags: readonly { readonly id: number; readonly title: string }[];
  readonly updatedAt: Date;
}

const SUMMARY_MAX = 300;

export function articleOf(entity: EntityModel, presentation: PresentationModel, record: RecordData, references: ReferenceTitles): Article {
  const text = (name: string | null): string | null => {
    const value = name === null ? undefined : record[name];
    return typeof value === 'string' && value.trim() !== '' ? value : null;
  };
  const field = (name: string | null) =>
    name !== null && Object.hasOwn(entity.fieldsByName, name) ? entity.fieldsByName[name] : undefined;
  const headlineField = field(presentation.headline);
  const summaryField = field(presentation.summary);
  const summary = text(presentation.summary);
  const date = record[presentation.date];
  const bylineField = field(presentation.byline);
  const slug = text(presentation.slug);
  const tagIds = presentation.tags === null ? undefined : record[presentation.tags];
  const tagTitles = presentation.tags === null ? {} : (references[presentation.tags] ?? {});
  return {
    id: record.id,
    key: slug ?? String(record.id),
    headline: (headlineField && titleOfValue(headlineField, record[presentation.headline])) ?? fallbackTitle(entity, record.id),
    summary: summary === null ? null : summaryField?.type === 'markdown' ? markdownExcerpt(summary, SUMMARY_MAX) : summary,
    body: text(presentation.body),
    bodyIsMarkdown: field(presentation.body)?.type === 'markdown',
    date: date instanceof Date ? date : null,
    byline: bylineField ? titleOfValue(bylineField, record[bylineField.name], references[bylineField.name]) : null,
    tags: Array.isArray(tagIds) ? tagIds.flatMap((id: number) => (tagTitles[id] === undefined ? [] : [{ id, title: tagTitles[id] }])) : [],
    updatedAt: record.updatedAt,
  };
}
