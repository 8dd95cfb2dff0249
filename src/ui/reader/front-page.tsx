import Link from 'next/link';
import type { Article } from '@/engine/reader/article';
import { buttonClass } from '@/ui/button';
import { EmptyState } from '@/ui/empty-state';
import { PageHeader } from '@/ui/page-header';
import { ArticleDate } from './article-date';

export interface FrontPageProps {
  readonly title: string;
  readonly description?: string;
  readonly articles: readonly (Article & { readonly href: string })[];
  readonly olderHref: string | null;
  readonly newestHref: string | null;
  readonly feedHref: string | null;
  readonly zone: string;
}

/** The latest records as a publication's readers see them: headline, date and summary, then older ones by page. */
export function FrontPage({ title, description, articles, olderHref, newestHref, feedHref, zone }: FrontPageProps) {
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title={title}
        description={description}
        actions={
          feedHref ? (
            <a href={feedHref} className="text-sm text-accent-700 underline underline-offset-2">
              Atom feed
            </a>
          ) : null
        }
      />
      {articles.length === 0 ? (
        <EmptyState title="Nothing here yet" />
      ) : (
        <ol className="divide-y divide-zinc-200">
          {articles.map((article) => (
            <li key={article.id} className="py-5">
              <article>
                <h2 className="text-xl font-semibold text-zinc-900">
                  <Link href={article.href} className="hover:underline">
                    {article.headline}
                  </Link>
                </h2>
                {article.date ? (
                  <p className="mt-1 text-sm text-zinc-600">
                    <ArticleDate date={article.date} zone={zone} />
                  </p>
                ) : null}
                {article.summary ? <p className="mt-2 text-zinc-700">{article.summary}</p> : null}
              </article>
            </li>
          ))}
        </ol>
      )}
      {olderHref || newestHref ? (
        <nav aria-label="Pages" className="mt-6 flex justify-between gap-2">
          {newestHref ? (
            <Link href={newestHref} className={buttonClass('secondary')}>
              Newest
            </Link>
          ) : (
            <span />
          )}
          {olderHref ? (
            <Link href={olderHref} className={buttonClass('secondary')}>
              Older
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
