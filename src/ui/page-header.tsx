import type { ReactNode } from 'react';

/** The heading row of a page: title, optional description and actions on the right. */
export function PageHeader({
  title,
  description,
  actions,
  eyebrow,
  badge,
  spacing = 'mb-6',
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  eyebrow?: ReactNode;
  /** Shown beside the heading, outside it, so the heading stays the plain title. */
  badge?: ReactNode;
  /** The space below it: a list's page keeps it small, so that more of the list is on screen. */
  spacing?: 'mb-6' | 'mb-4';
}) {
  return (
    <div className={`${spacing} flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between`}>
      <div className="min-w-0">
        {eyebrow ? <div className="mb-1 text-sm text-zinc-500">{eyebrow}</div> : null}
        <div className="flex flex-wrap items-center gap-3">
          {/* Focusable by script: client-side navigation moves the focus here (src/ui/keyboard/focus-on-navigate.tsx). */}
          <h1 tabIndex={-1} className="min-w-0 text-2xl font-semibold tracking-tight break-words text-zinc-900">
            {title}
          </h1>
          {badge}
        </div>
        {description ? <p className="mt-1 max-w-3xl text-sm text-zinc-600">{description}</p> : null}
      </div>
      {actions ? <div className="flex shrink-0 flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}
