import type { Metadata } from 'next';
import { viewerZone } from '@/server/viewer-zone';
import { redirectToArticlePath, type ReaderArticle } from '@/server/reader';
import { filterParam } from '@/ui/list/filter-param';
import { ArticleView } from '@/ui/reader/article-view';

/** The head of an article: its headline as the title, its summary as the description, for search engines and link previews. */
export function articleMetadata({ entity, article, path }: ReaderArticle, origin: string): Metadata {
  return {
    // Canonical and Open Graph addresses are absolute, on the address readers reach the app at.
    metadataBase: new URL(origin),
    title: article.headline,
    ...(article.summary ? { description: article.summary } : {}),
    alternates: { canonical: path },
    openGraph: {
      type: 'article',
      title: article.headline,
      ...(article.summary ? { description: article.summary } : {}),
      url: path,
      ...(article.date ? { publishedTime: article.date.toISOString() } : {}),
      modifiedTime: article.updatedAt.toISOString(),
      ...(article.tags.length > 0 ? { tags: article.tags.map((tag) => tag.title) } : {}),
      siteName: entity.pluralLabel,
    },
  };
}

/** A record of a presented entity as its readers read it (`screens.presentation`). */
export async function ArticlePage({ found, segment }: { found: ReaderArticle; segment: string }) {
  redirectToArticlePath(found, segment);
  const { entity, presentation, article } = found;
  const front = `/${entity.plural}`;
  const tagParam = presentation.tags === null ? null : filterParam(presentation.tags);
  return (
    <ArticleView
      article={article}
      frontHref={front}
      frontLabel={entity.pluralLabel}
      tagHref={(id) => (tagParam === null ? front : `${front}?${tagParam}=${id}`)}
      zone={await viewerZone()}
    />
  );
}
