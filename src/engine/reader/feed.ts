import { visitorActor } from '../access/visitor';
import { atomXml } from '../feed/atom';
import type { Ops } from '../ops/ops';
import type { AppModel, EntityModel } from '../spec/model';
import { FEED_SIZE } from '../spec/screens/presentation';
import { articleOf } from './article';

/**
 * The Atom feed of a presented entity (`feed: true`): its latest records as anyone may read them,
 * read through ops as a visitor, so a draft or a hidden field never reaches a feed. Null when
 * the entity has no feed (the door answers 404). `origin` makes its links absolute.
 */
export async function readerFeed(ops: Ops, model: AppModel, entity: EntityModel, origin: string): Promise<string | null> {
  const presentation = entity.presentation;
  if (!presentation?.feed) return null;
  const visitor = visitorActor();
  if (!ops.access(visitor, entity.name).actions.list) return null;
  const page = await ops.list(visitor, entity.name, { sort: `-${presentation.date}`, limit: FEED_SIZE });
  const articles = page.rows.map((record) => articleOf(entity, presentation, record, page.references));
  const base = `${origin.replace(/\/+$/, '')}/${entity.plural}`;
  return atomXml({
    self: `${base}/feed.xml`,
    alternate: base,
    title: `${model.title}: ${entity.pluralLabel}`,
    subtitle: entity.description ?? model.summary,
    updated: new Date(Math.max(0, ...articles.map((a) => a.updatedAt.getTime())) || Date.now()),
    entries: articles.map((article) => ({
      url: `${base}/${encodeURIComponent(article.key)}`,
      title: article.headline,
      updated: article.updatedAt,
      published: article.date,
      summary: article.summary,
      author: article.byline,
      categories: article.tags.map((tag) => tag.title),
    })),
  });
}
