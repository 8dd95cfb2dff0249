import type { ReactNode } from 'react';
import { cn } from './cn';

/**
 * Folds its content behind a button on phones (below Tailwind's `sm`), and shows it as is on
 * wider screens: a native <details> disclosure, so it opens without JavaScript. Wider screens
 * hide the summary and show the content through `::details-content` (globals.css).
 */
export function PhoneFold({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <details className={cn('phone-fold group', className)}>
      <summary className="flex h-9 cursor-pointer list-none items-center justify-between gap-2 rounded-md bg-white px-3 text-sm font-medium text-zinc-800 shadow-xs ring-1 ring-zinc-300 ring-inset select-none hover:bg-zinc-50 sm:hidden [&::-webkit-details-marker]:hidden">
        {label}
        <svg aria-hidden="true" viewBox="0 0 10 10" className="size-2.5 text-zinc-500 transition-transform group-open:rotate-180">
          <path d="M1 3l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.5" />
        </svg>
      </summary>
      <div className="mt-2 sm:mt-0">{children}</div>
    </details>
  );
}
