'use client';

import { openShellDialog } from '../keyboard/dialog-store';
import { useIsApple } from '../keyboard/platform';

/** The palette for mouse and touch: a search-like button in the header, with its shortcut shown. */
export function PaletteButton() {
  const apple = useIsApple();
  const shortcut = apple ? '⌘K' : 'Ctrl K';
  return (
    <button
      type="button"
      onClick={() => openShellDialog('palette')}
      aria-keyshortcuts={apple ? 'Meta+K' : 'Control+K'}
      title={`Go to a page, find a record, act on this one (${shortcut})`}
      className="inline-flex h-8 items-center gap-2 rounded-md px-2 text-sm text-zinc-600 ring-1 ring-zinc-300 ring-inset hover:bg-zinc-50 hover:text-zinc-900 sm:w-48 lg:w-56"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 shrink-0">
        <path
          fill="currentColor"
          d="M8.5 3a5.5 5.5 0 0 1 4.38 8.83l3.65 3.64a.75.75 0 1 1-1.06 1.06l-3.64-3.65A5.5 5.5 0 1 1 8.5 3Zm0 1.5a4 4 0 1 0 0 8 4 4 0 0 0 0-8Z"
        />
      </svg>
      <span className="sr-only sm:not-sr-only">Search or jump to…</span>
      <kbd aria-hidden="true" className="ml-auto hidden rounded border border-zinc-300 px-1 font-mono text-[11px] text-zinc-600 sm:block">
        {shortcut}
      </kbd>
    </button>
  );
}
