import Link from 'next/link';
import type { ReactNode } from 'react';
import { cn } from '../cn';

/** A widget's frame: its title as a heading, an optional "see all" link, and its content. */
export function WidgetCard({
  title,
  more,
  className,
  children,
}: {
  title: string;
  more?: { readonly href: string; readonly label: string } | null;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section aria-label={title} className={cn('min-w-0 rounded-lg border border-zinc-200 bg-white p-4 shadow-xs sm:p-5', className)}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 className="text-sm font-semibold text-zinc-900">{title}</h2>
        {more ? (
          <Link href={more.href} className="text-sm font-medium text-accent-700 hover:underline">
            {more.label}
          </Link>
        ) : null}
      </div>
      <div className="mt-3">{children}</div>
    </section>
  );
}
