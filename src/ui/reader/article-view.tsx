import Link from 'next/link';
import type { Article } from '@/engine/reader/article';
import { MarkdownText } from '@/ui/markdown';
import { ArticleDate } from './article-date';

export interface ArticleViewProps {
  readonly article: Article;
  /** The front page, for the way back. */
  readonly frontHref: string;
  readonly frontLabel: string;
  /** Each tag's address: the front page narrowed to it. */
  readonly tagHref: (id: number) => string;
  readonly zone: string;
}

/** One record read as an article: headline, byline and date, the body, and its tags. */
export function ArticleView({ article, frontHref, frontLabel, tagHref, zone }: ArticleViewProps) {
  return (
    <article className="mx-auto max-w-3xl">
      <header className="mb-6">
        <p className="mb-2 text-sm">
          <Link href={frontHref} className="text-accent-700 underline underline-offset-2">
            {frontLabel}
          </Link>
        </p>
        {/* Focusable by script: client-side navigation moves the focus here (src/ui/keyboard/focus-on-navigate.tsx). */}
        <h1 tabIndex={-1} className="text-3xl font-semibold tracking-tight break-words text-zinc-900">
          {article.headline}
        </h1>
        {article.summary ? <p className="mt-3 text-lg text-zinc-700">{article.summary}</p> : null}
        {article.byline || article.date ? (
          <p className="mt-3 text-sm text-zinc-600">
            {article.byline ? `By ${article.byline}` : null}
            {article.byline && article.date ? ' · ' : null}
            {article.date ? <ArticleDate date={article.date} zone={zone} /> : null}
          </p>
        ) : null}
      </header>
      {article.body ? (
        article.bodyIsMarkdown ? (
          <MarkdownText>{article.body}</MarkdownText>
        ) : (
          <p className="whitespace-pre-line text-zinc-800">{article.body}</p>
        )
      ) : null}
      {article.tags.length > 0 ? (
        <ul aria-label="Tags" className="mt-8 flex flex-wrap gap-2">
          {article.tags.map((tag) => (
            <li key={tag.id}>
              <Link href={tagHref(tag.id)} className="rounded-full bg-zinc-100 px-3 py-1 text-sm text-zinc-700 hover:bg-zinc-200">
                {tag.title}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}
