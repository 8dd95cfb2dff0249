import 'server-only';
import { notFound, permanentRedirect, redirect } from 'next/navigation';
import { cache } from 'react';
import type { Engine } from '@/engine/engine';
import type { Actor } from '@/engine/ground/actor';
import type { RecordView } from '@/engine/ops/types';
import { articleOf, type Article } from '@/engine/reader/article';
import type { EntityModel } from '@/engine/spec/model';
import { FRONT_PAGE_SIZE, presentationFor, type PresentationModel } from '@/engine/spec/screens/presentation';
import { filterParam } from '@/ui/list/filter-param';
import { entityForPlural } from './entity-route';
import { settingsFromEnv } from '@/engine/settings';
import { asNinefoldError } from './errors';
import { requestOrigin } from './request-host';
import { positiveInteger } from './forms';
import type { RawSearchParams } from './list-query';
import { requireViewer } from './viewer';

/*
 * The reader's door to a presented entity (`screens.presentation`): a front page of the latest
 * records and an article per record, read through ops as the viewer, so scopes and hidden fields
 * hold exactly as they do for the back office.
 */

/**
 * The origin readers' absolute links are on (canonical links, Open Graph, the feed):
 * NINEFOLD_PUBLIC_URL where it is set, else the address the request came to.
 */
export function readerOrigin(headers: Headers): string {
  return (settingsFromEnv(process.env).publicUrl ?? requestOrigin(headers)).replace(/\/+$/, '');
}

/** The presentation this viewer reads the entity through, or null for the back office. */
export function readerPresentation(engine: Engine, actor: Actor, entity: EntityModel): PresentationModel | null {
  const presentation = presentationFor(entity.presentation, actor);
  return presentation && engine.ops.access(actor, entity.name).actions.list ? presentation : null;
}

export interface FrontPage {
  readonly articles: readonly Article[];
  /** The tag the page is narrowed to, with its title (null: every record). */
  readonly tag: { readonly id: number; readonly title: string } | null;
  /** The address of the page of older records, or null on the last. */
  readonly olderHref: string | null;
  /** The address of the newest page when this one is older (or narrowed to a tag). */
  readonly newestHref: string | null;
}

const first = (value: string | string[] | undefined): string => (Array.isArray(value) ? (value[0] ?? '') : (value ?? ''));

/** The front page: the latest records the viewer may read, newest `date` first, by keyset pages; `?<tags>=<id>` narrows it to one tag. */
export async function frontPage(
  engine: Engine,
  actor: Actor,
  entity: EntityModel,
  presentation: PresentationModel,
  search: RawSearchParams,
): Promise<FrontPage> {
  const path = `/${entity.plural}`;
  const tagParam = presentation.tags === null ? null : filterParam(presentation.tags);
  const tagId = tagParam === null ? null : positiveInteger(first(search[tagParam]));
  const filters = presentation.tags !== null && tagId !== null ? { [presentation.tags]: String(tagId) } : undefined;
  const query = { sort: `-${presentation.date}`, limit: FRONT_PAGE_SIZE, ...(filters ? { filters } : {}) };
  const cursor = first(search.cursor);
  let page;
  try {
    page = await engine.ops.list(actor, entity.name, cursor === '' ? query : { ...query, cursor });
  } catch (error) {
    // A cursor that is not (or no longer) valid starts from the newest.
    if (cursor === '' || asNinefoldError(error)?.code !== 'VALIDATION_FAILED') throw error;
    page = await engine.ops.list(actor, entity.name, query);
  }
  const articles = page.rows.map((record) => articleOf(entity, presentation, record, page.references));
  const tagTitle = tagId === null ? undefined : articles.flatMap((a) => a.tags).find((t) => t.id === tagId)?.title;
  const narrowed = tagParam !== null && tagId !== null ? `${tagParam}=${tagId}` : '';
  const address = (more: string) => {
    const query = [narrowed, more].filter((part) => part !== '').join('&');
    return query === '' ? path : `${path}?${query}`;
  };
  return {
    articles,
    tag: tagId === null ? null : { id: tagId, title: tagTitle ?? `#${tagId}` },
    olderHref: page.nextCursor ? address(`cursor=${encodeURIComponent(page.nextCursor)}`) : null,
    newestHref: cursor !== '' ? address('') : null,
  };
}

/** The address of an article: by its slug where it has one the reader may read, else by id. */
export function articlePath(entity: EntityModel, article: Pick<Article, 'key'>): string {
  return `/${entity.plural}/${encodeURIComponent(article.key)}`;
}

/** A URL segment as written: Next may hand it over percent-encoded; one that does not decode is kept. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The record an address names: an id, else a slug of a presented entity. Null when it names none
 * the viewer may read (the caller answers 404, as for a record that does not exist).
 */
export async function recordByAddress(engine: Engine, actor: Actor, entity: EntityModel, segment: string): Promise<RecordView | null> {
  const id = positiveInteger(segment);
  const slugField = entity.presentation?.slug ?? null;
  if (id === null && slugField === null) return null;
  try {
    return id !== null
      ? await engine.ops.get(actor, entity.name, id)
      : await engine.ops.getBy(actor, entity.name, slugField!, decoded(segment));
  } catch (error) {
    if (asNinefoldError(error)?.code === 'NOT_FOUND') return null;
    throw error;
  }
}

export interface ReaderArticle {
  readonly engine: Engine;
  readonly entity: EntityModel;
  readonly presentation: PresentationModel;
  readonly article: Article;
  /** The article's one address (by slug where it has one). */
  readonly path: string;
}

/**
 * The article at /<plural>/<segment> for a viewer who reads the entity as a publication, once per
 * request (the page and its metadata share it); null for a viewer of the back office. A record
 * the reader may not read is a 404 by slug and by id alike, whether it exists or not.
 */
export const readerArticle = cache(async (plural: string, segment: string): Promise<ReaderArticle | null> => {
  const { engine, entity } = await entityForPlural(plural);
  const actor = await requireViewer(`/${plural}/${segment}`);
  const presentation = presentationFor(entity.presentation, actor);
  if (!presentation) return null;
  const view = await recordByAddress(engine, actor, entity, segment);
  if (!view) notFound();
  const article = articleOf(entity, presentation, view.record, view.references);
  return { engine, entity, presentation, article, path: articlePath(entity, article) };
});

/** A reader who came by id (or by an old spelling) to an article with a slug: sent to its one address. */
export function redirectToArticlePath(found: ReaderArticle, segment: string): void {
  if (found.article.key !== decoded(segment)) permanentRedirect(found.path);
}

/** For staff who follow a reader's slug address: the record's own page, by id. */
export async function redirectSlugToRecord(engine: Engine, actor: Actor, entity: EntityModel, segment: string): Promise<void> {
  if (entity.presentation?.slug == null || positiveInteger(segment) !== null) return;
  const view = await recordByAddress(engine, actor, entity, segment);
  if (!view) notFound();
  redirect(`/${entity.plural}/${view.record.id}`);
}
