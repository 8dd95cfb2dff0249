import Link from 'next/link';
import { Fragment } from 'react';

/** The way back up: list, then record. The last item is the current page and is not a link. */
export function Breadcrumbs({ items }: { items: readonly { readonly href?: string; readonly label: string }[] }) {
  return (
    <nav aria-label="Breadcrumb">
      <ol className="flex flex-wrap items-center gap-1.5">
        {items.map((item, index) => (
          <Fragment key={index}>
            {index > 0 ? (
              <li aria-hidden="true" className="text-zinc-300">
                /
              </li>
            ) : null}
            <li className="min-w-0 truncate">
              {item.href ? (
                <Link href={item.href} className="hover:text-zinc-900 hover:underline">
                  {item.label}
                </Link>
              ) : (
                <span aria-current="page">{item.label}</span>
              )}
            </li>
          </Fragment>
        ))}
      </ol>
    </nav>
  );
}
