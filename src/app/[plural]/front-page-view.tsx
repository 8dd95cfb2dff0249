import type { Metadata } from 'next';
import type { Engine } from '@/engine/engine';
import type { Actor } from '@/engine/ground/actor';
import type { EntityModel } from '@/engine/spec/model';
import type { PresentationModel } from '@/engine/spec/screens/presentation';
import type { RawSearchParams } from '@/server/list-query';
import { articlePath, frontPage } from '@/server/reader';
import { viewerZone } from '@/server/viewer-zone';
import { FrontPage } from '@/ui/reader/front-page';

/** Where a presented entity's Atom feed lives, when it has one. */
export function feedPath(entity: EntityModel, presentation: PresentationModel): string | null {
  return presentation.feed ? `/${entity.plural}/feed.xml` : null;
}

/** The front page's head: its title, the spec's words for it, and the feed for feed readers to find. */
export function frontPageMetadata(engine: Engine, entity: EntityModel, presentation: PresentationModel, origin: string): Metadata {
  const feed = feedPath(entity, presentation);
  const description = entity.description ?? engine.model.summary;
  return {
    metadataBase: new URL(origin),
    title: entity.pluralLabel,
    ...(description ? { description } : {}),
    alternates: {
      canonical: `/${entity.plural}`,
      ...(feed ? { types: { 'application/atom+xml': [{ url: feed, title: `${engine.model.title}: ${entity.pluralLabel}` }] } } : {}),
    },
    openGraph: { type: 'website', title: entity.pluralLabel, ...(description ? { description } : {}) },
  };
}

/** A presented entity's list as its readers read it (`screens.presentation`): the latest first. */
export async function FrontPageView({
  engine,
  actor,
  entity,
  presentation,
  search,
}: {
  engine: Engine;
  actor: Actor;
  entity: EntityModel;
  presentation: PresentationModel;
  search: RawSearchParams;
}) {
  const [page, zone] = await Promise.all([frontPage(engine, actor, entity, presentation, search), viewerZone()]);
  return (
    <FrontPage
      title={page.tag ? `${entity.pluralLabel}: ${page.tag.title}` : entity.pluralLabel}
      description={entity.description}
      articles={page.articles.map((article) => ({ ...article, href: articlePath(entity, article) }))}
      olderHref={page.olderHref}
      newestHref={page.newestHref}
      feedHref={feedPath(entity, presentation)}
      zone={zone}
    />
  );
}
