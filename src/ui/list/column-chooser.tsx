'use client';

import { LIST_TOOLS } from './list-tools';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useOptimistic, useRef, useState, useTransition, type MouseEvent } from 'react';
import { buttonClass } from '../button';
import { cn } from '../cn';

export interface ColumnChoice {
  readonly name: string;
  readonly label: string;
}

/** The parameters of the chooser's form without JavaScript (src/server/list-query.ts COLUMN_FORM). */
export interface ColumnFormNames {
  readonly order: string;
  readonly show: string;
  readonly move: string;
}

const moveClass =
  'inline-flex size-7 items-center justify-center rounded text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 disabled:cursor-not-allowed disabled:text-zinc-300 disabled:hover:bg-transparent';

/**
 * Picks and orders the columns of a list: a native disclosure holding a GET form, so that it
 * works without JavaScript (the page turns the form's fields into `columns=` and redirects).
 * With JavaScript each tick and move applies at once, through the address like every list
 * setting, and focus stays on the control just used.
 */
export function ColumnChooser({
  choices,
  shown,
  defaults,
  action,
  keep,
  form,
}: {
  /** Every column the viewer may choose, in the order offered when not shown. */
  choices: readonly ColumnChoice[];
  /** The columns shown now, in order. */
  shown: readonly string[];
  /** The list's own columns: choosing exactly these leaves `columns=` out of the address. */
  defaults: readonly string[];
  action: string;
  /** The list's other settings (search, filters, sort), carried by the form without JavaScript. */
  keep: readonly (readonly [string, string])[];
  form: ColumnFormNames;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [pending, startTransition] = useTransition();
  const [columns, setColumns] = useOptimistic(shown);
  const focusAfter = useRef<string[] | null>(null);
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  const labels = new Map(choices.map((c) => [c.name, c.label]));
  const hidden = choices.filter((c) => !columns.includes(c.name));

  useEffect(() => {
    // A row that moves is re-inserted in the list, which takes focus from its controls: give it
    // back to the control used, or the next best one of its row (a move button at an end is disabled).
    const ids = focusAfter.current;
    focusAfter.current = null;
    const target = ids
      ?.map((id) => document.getElementById(id) as HTMLInputElement | HTMLButtonElement | null)
      .find((element) => element && !element.disabled);
    if (target && document.activeElement !== target) target.focus();
  }, [columns]);

  function apply(next: readonly string[]) {
    const search = new URLSearchParams(searchParams.toString());
    search.delete('cursor');
    if (next.length === 0 || next.join(',') === defaults.join(',')) search.delete('columns');
    else search.set('columns', next.join(','));
    const query = search.toString().replace(/%2C/gi, ',');
    startTransition(() => {
      setColumns(next);
      router.push(query ? `${pathname}?${query}` : pathname, { scroll: false });
    });
  }

  function toggle(name: string, on: boolean) {
    focusAfter.current = [`column-show-${name}`];
    apply(on ? [...columns, name] : columns.filter((c) => c !== name));
  }

  function move(event: MouseEvent<HTMLButtonElement>, name: string, direction: 'up' | 'down') {
    event.preventDefault();
    const from = columns.indexOf(name);
    const to = direction === 'up' ? from - 1 : from + 1;
    if (from < 0 || to < 0 || to >= columns.length) return;
    const next = [...columns];
    // Taken out and put back one place up or down: the two neighbours swap.
    next.splice(to, 0, ...next.splice(from, 1));
    const other = direction === 'up' ? 'down' : 'up';
    focusAfter.current = [`column-move-${name}-${direction}`, `column-move-${name}-${other}`, `column-show-${name}`];
    apply(next);
  }

  const rows = [...columns.filter((name) => labels.has(name)).map((name) => ({ name, label: labels.get(name)! })), ...hidden];
  return (
    <details name={LIST_TOOLS} className="group relative">
      <summary className={cn(buttonClass('secondary'), 'cursor-pointer list-none [&::-webkit-details-marker]:hidden')}>
        <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4 text-zinc-500">
          <path d="M2 3h3v10H2zM6.5 3h3v10h-3zM11 3h3v10h-3z" fill="none" stroke="currentColor" strokeWidth="1.3" />
        </svg>
        Columns
      </summary>
      <form
        method="get"
        action={action}
        aria-label="Choose the columns"
        aria-busy={pending || undefined}
        onSubmit={(event) => event.preventDefault()}
        className="absolute right-0 z-20 mt-2 w-72 max-w-[calc(100vw-2rem)] rounded-lg border border-zinc-200 bg-white p-3 shadow-lg"
      >
        {keep.map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <fieldset>
          <legend className="text-xs font-medium text-zinc-600">Shown columns, in order</legend>
          {/* The table fits its width (src/ui/list/column-fit.ts): the order is also which columns stay. */}
          <p className="mb-2 text-xs text-zinc-500">Where the table is too narrow, the last ones are hidden first.</p>
          <ul className="max-h-80 space-y-0.5 overflow-y-auto">
            {rows.map(({ name, label }) => {
              const index = columns.indexOf(name);
              const on = index >= 0;
              return (
                <li key={name} className="flex items-center gap-1 rounded px-1 hover:bg-zinc-50">
                  <input type="hidden" name={form.order} value={name} />
                  <label className="flex min-w-0 flex-1 items-center gap-2 py-1 text-sm text-zinc-800">
                    <input
                      id={`column-show-${name}`}
                      type="checkbox"
                      name={form.show}
                      value={name}
                      checked={on}
                      onChange={(event) => toggle(name, event.currentTarget.checked)}
                      className="size-4 rounded border-zinc-300 accent-accent-600"
                    />
                    <span className="truncate">{label}</span>
                  </label>
                  {on ? (
                    <>
                      <button
                        id={`column-move-${name}-up`}
                        type="submit"
                        name={form.move}
                        value={`${name}:up`}
                        disabled={index === 0}
                        aria-label={`Move ${label} up`}
                        title="Move up (further left in the table)"
                        onClick={(event) => move(event, name, 'up')}
                        className={moveClass}
                      >
                        <svg aria-hidden="true" viewBox="0 0 10 10" className="size-2.5">
                          <path d="M1 7l4-4 4 4" fill="none" stroke="currentColor" strokeWidth="1.5" />
                        </svg>
                      </button>
                      <button
                        id={`column-move-${name}-down`}
                        type="submit"
                        name={form.move}
                        value={`${name}:down`}
                        disabled={index === columns.length - 1}
                        aria-label={`Move ${label} down`}
                        title="Move down (further right in the table)"
                        onClick={(event) => move(event, name, 'down')}
                        className={moveClass}
                      >
                        <svg aria-hidden="true" viewBox="0 0 10 10" className="size-2.5">
                          <path d="M1 3l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.5" />
                        </svg>
                      </button>
                    </>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </fieldset>
        <div className="mt-3 flex items-center justify-between gap-2 border-t border-zinc-100 pt-3">
          {/* Ticks and moves apply at once with JavaScript; the button is for when it does not run. */}
          {enhanced ? null : (
            <button type="submit" className={buttonClass('primary')}>
              Apply
            </button>
          )}
          <Link
            href={resetHref(pathname, searchParams)}
            className="rounded px-1 text-sm text-zinc-600 underline-offset-2 hover:text-zinc-900 hover:underline"
          >
            Default columns
          </Link>
          <span role="status" className="text-xs text-zinc-500">
            {pending ? 'Updating…' : ''}
          </span>
        </div>
      </form>
    </details>
  );
}

function resetHref(pathname: string, searchParams: { toString(): string }): string {
  const search = new URLSearchParams(searchParams.toString());
  search.delete('columns');
  search.delete('cursor');
  const query = search.toString().replace(/%2C/gi, ',');
  return query ? `${pathname}?${query}` : pathname;
}
