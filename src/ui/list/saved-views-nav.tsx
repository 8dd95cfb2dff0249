'use client';

import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { cn } from '../cn';
import { inSentence } from '@/engine/spec/naming';

export interface ViewsNavSection {
  /** The entity's list ("/tickets"). */
  readonly href: string;
  readonly label: string;
  /** Its saved views: each a list address. */
  readonly children: readonly { readonly href: string; readonly label: string }[];
}

/** A query string's parameters in one order, without the page cursor: two addresses of one list compare equal. */
function listKey(search: string): string {
  const params = new URLSearchParams(search);
  params.delete('cursor');
  return [...params]
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join('&');
}

/**
 * The navigation's second level: in an entity's pages, the entity's whole list and its saved
 * views, the one showing marked as current. A row of links that wraps, so it works at any width
 * and without JavaScript (the server renders it for the address asked).
 */
export function SavedViewsNav({ sections }: { sections: readonly ViewsNavSection[] }) {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const section = sections.find((s) => pathname === s.href || pathname.startsWith(`${s.href}/`));
  if (!section) return null;
  const onList = pathname === section.href;
  const here = listKey(searchParams.toString());
  const views = section.children.map((view) => {
    const [path, query = ''] = view.href.split('?');
    return { ...view, current: onList && path === pathname && listKey(query) === here };
  });
  const link = (current: boolean) =>
    cn(
      'rounded-md px-2 py-1 text-sm whitespace-nowrap',
      current
        ? 'bg-accent-50 font-medium text-accent-800 ring-1 ring-accent-600/20 ring-inset'
        : 'text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900',
    );
  return (
    <nav aria-label={`Saved views of ${section.label}`} className="border-t border-zinc-100">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-1 px-4 py-1.5 sm:px-6">
        <span className="mr-1 text-xs font-medium text-zinc-500" aria-hidden="true">
          Views
        </span>
        <ul className="flex flex-wrap items-center gap-1">
          <li>
            <Link href={section.href} aria-current={onList && here === '' ? 'page' : undefined} className={link(onList && here === '')}>
              All {inSentence(section.label)}
            </Link>
          </li>
          {views.map((view) => (
            <li key={view.href + view.label}>
              <Link href={view.href} aria-current={view.current ? 'page' : undefined} className={link(view.current)}>
                {view.label}
              </Link>
            </li>
          ))}
          <li>
            <Link
              href="/views"
              className="rounded-md px-2 py-1 text-xs text-zinc-600 underline-offset-2 hover:text-zinc-900 hover:underline"
            >
              Manage
            </Link>
          </li>
        </ul>
      </div>
    </nav>
  );
}
