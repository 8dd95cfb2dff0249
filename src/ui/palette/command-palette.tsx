'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { cn } from '../cn';
import type { SearchRecords } from './palette-groups';
import { openShellDialog } from '../keyboard/dialog-store';
import { ModalDialog } from '../keyboard/modal-dialog';
import { startNavigationProgress } from '../loading/progress-store';
import { paletteSections, type FoundRecords, type PaletteItem, type PalettePlace } from './palette-items';
import { useRecordCommands } from './record-commands';
import { takeTransitionOnPage } from './take-transition';

/** How long typing pauses before the records are searched. */
const SEARCH_DELAY_MS = 200;

/**
 * The command palette: a modal dialog around a combobox. Typing filters the places the user
 * may go and the current record's actions at once, and searches records (by words or "#id",
 * through the server's ops) after a pause; arrows move, Enter chooses, Escape closes.
 */
export function CommandPalette({ places, searchRecords }: { places: readonly PalettePlace[]; searchRecords: SearchRecords }) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const record = useRecordCommands();
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<FoundRecords | null>(null);
  const [active, setActive] = useState(0);
  const sections = useMemo(() => paletteSections({ query, record, places, found }), [query, record, places, found]);
  const items = sections.flatMap((section) => section.items);
  const activeIndex = Math.min(active, items.length - 1);
  const trimmed = query.trim();
  const searching = trimmed !== '' && found?.query !== trimmed;

  useEffect(() => {
    if (trimmed === '') return;
    let current = true;
    const timer = setTimeout(() => {
      searchRecords(trimmed)
        .catch(() => [])
        .then((groups) => {
          if (current) setFound({ query: trimmed, groups });
        });
    }, SEARCH_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [trimmed]);

  useEffect(() => {
    if (activeIndex >= 0) document.getElementById(optionId(activeIndex))?.scrollIntoView({ block: 'nearest' });
  }, [activeIndex]);

  function choose(item: PaletteItem) {
    dialog.current?.close();
    const { action } = item;
    if (action.kind === 'shortcuts') {
      openShellDialog('shortcuts');
    } else if (action.kind === 'transition') {
      takeTransitionOnPage(action.name);
    } else {
      startNavigationProgress(action.href);
      router.push(action.href);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (items.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + items.length) % items.length);
    } else if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
      event.preventDefault();
      const item = items[activeIndex];
      if (item) choose(item);
    }
  }

  const status = searching
    ? 'Searching records…'
    : items.length === 0
      ? `Nothing matches “${trimmed}”.`
      : trimmed !== '' && found?.groups.length === 0
        ? 'No records match.'
        : '';
  let index = -1;
  return (
    <ModalDialog which="palette" labelledBy="palette-title" dialogRef={dialog}>
      <h2 id="palette-title" className="sr-only">
        Command palette
      </h2>
      <div className="flex items-center gap-2 border-b border-zinc-200 px-4">
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 shrink-0 text-zinc-500">
          <path
            fill="currentColor"
            d="M8.5 3a5.5 5.5 0 0 1 4.38 8.83l3.65 3.64a.75.75 0 1 1-1.06 1.06l-3.64-3.65A5.5 5.5 0 1 1 8.5 3Zm0 1.5a4 4 0 1 0 0 8 4 4 0 0 0 0-8Z"
          />
        </svg>
        <input
          type="text"
          role="combobox"
          aria-label="Go to a page, find a record by its words or #number, or act on this one"
          aria-expanded={items.length > 0}
          aria-controls={items.length > 0 ? 'palette-listbox' : undefined}
          aria-activedescendant={activeIndex >= 0 ? optionId(activeIndex) : undefined}
          aria-autocomplete="list"
          autoComplete="off"
          spellCheck={false}
          placeholder="Go to, find a record or #number, act…"
          value={query}
          maxLength={200}
          onChange={(event) => {
            setQuery(event.currentTarget.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          className="h-12 min-w-0 flex-1 bg-transparent text-base text-zinc-900 placeholder:text-zinc-500 focus-visible:outline-none sm:text-sm"
        />
        <kbd className="hidden rounded border border-zinc-300 px-1.5 py-0.5 font-mono text-xs text-zinc-600 sm:block">Esc</kbd>
      </div>
      {items.length > 0 ? (
        <div id="palette-listbox" role="listbox" aria-label="Results" className="max-h-[min(24rem,55vh)] overflow-y-auto p-2">
          {sections.map((section) => (
            <div key={section.key} role="group" aria-labelledby={`palette-group-${section.key}`} className="pb-1">
              <div
                id={`palette-group-${section.key}`}
                role="presentation"
                className="truncate px-2 pt-2 pb-1 text-xs font-semibold text-zinc-600"
              >
                {section.label}
              </div>
              {section.items.map((item) => {
                index += 1;
                const position = index;
                const selected = position === activeIndex;
                return (
                  <div
                    key={item.key}
                    id={optionId(position)}
                    role="option"
                    aria-selected={selected}
                    onMouseMove={() => setActive(position)}
                    onClick={() => choose(item)}
                    className={cn(
                      'flex cursor-pointer items-center justify-between gap-3 rounded-md px-2 py-2 text-sm',
                      selected ? 'bg-accent-600 text-white' : 'text-zinc-800',
                    )}
                  >
                    <span className="min-w-0 truncate">{item.label}</span>
                    {item.detail ? (
                      <span className={cn('shrink-0 text-xs', selected ? 'text-white' : 'text-zinc-600')}>{item.detail}</span>
                    ) : null}
                  </div>
                );
              })}
            </div>
          ))}
        </div>
      ) : null}
      {/* On a phone (no keyboard hints) the footer takes room only when it says something. */}
      <div
        className={cn(
          'flex items-center justify-between gap-4 border-t border-zinc-200 px-4 py-2 text-xs text-zinc-600',
          status === '' && 'max-sm:border-t-0 max-sm:py-0',
        )}
      >
        <p role="status" aria-live="polite">
          {status}
        </p>
        <p aria-hidden="true" className="hidden shrink-0 sm:block">
          ↑↓ to move · Enter to choose · Esc to close
        </p>
      </div>
    </ModalDialog>
  );
}

function optionId(index: number): string {
  return `palette-option-${index}`;
}
