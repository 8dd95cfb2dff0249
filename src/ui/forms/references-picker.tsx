'use client';

import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { cn } from '../cn';
import { useAskedChoices, useSearchChoices } from './choices-search';
import type { ChoiceOption, PickerSearch } from './state';

interface PickerProps {
  readonly id: string;
  readonly name: string;
  /** The field's label, naming the list of choices and of chosen records for assistive technology. */
  readonly label: string;
  /** The chosen ids, joined by commas (the form's value of a references field, or a filter's). */
  readonly value: string;
  /** Titles the page knows (the chosen records' at least), by id. */
  readonly titles: readonly ChoiceOption[];
  readonly search: PickerSearch;
  readonly required?: boolean;
  readonly maxItems?: number;
  readonly describedBy?: string;
  readonly invalid?: boolean;
  readonly autoFocus?: boolean;
  /**
   * A list's filter: the chosen ids go as one value joined by commas, and the form is submitted as
   * they change. A form's field instead posts an empty value (the field was in the form, so
   * choosing none empties it) and one value per chosen record.
   */
  readonly filter?: boolean;
  /** What is shown without JavaScript and until the page is hydrated: a multiple select of a few, or an ids input. */
  readonly children: ReactNode;
}

function chosenIds(value: string): string[] {
  return value.split(',').filter((v) => v !== '');
}

/**
 * The choice of several records or users (a references or users field, or a filter "any of").
 * Without JavaScript it is `children`, the plain input the server rendered; then a combobox
 * whose options the server finds as the user types (through ops, with the viewer's access and
 * the field's `roles`), a few at a time: nothing lists every record. Arrow keys move, Enter adds
 * or removes, Backspace in the empty box removes the last one, and each chosen record is a chip
 * with its own remove button.
 */
export function ReferencesPicker(props: PickerProps) {
  const search = useSearchChoices();
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  return enhanced && search ? <Combobox {...props} /> : props.children;
}

function Combobox({ id, name, label, value, titles, search, required, maxItems, describedBy, invalid, autoFocus, filter }: PickerProps) {
  const listId = useId();
  const [chosen, setChosen] = useState<string[]>(() => chosenIds(value));
  // Titles of every record seen: the chosen ones the page named, then each answer's.
  const [labels, setLabels] = useState(() => new Map(titles.map((t) => [t.value, t.label])));
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const changed = useRef(false);
  // Each answer starts at its first option, and names the records it holds.
  const { options, loading, ask } = useAskedChoices(search, input, (found) => {
    setActive(0);
    setLabels((known) => new Map([...known, ...found.map((o) => [o.value, o.label] as const)]));
  });
  const full = maxItems !== undefined && chosen.length >= maxItems;

  useEffect(() => {
    // After the hidden input holds the new ids: a filter applies them.
    if (changed.current && filter) input.current?.form?.requestSubmit();
    changed.current = false;
  }, [chosen, filter]);

  const show = (q: string) => {
    setOpen(true);
    ask(q);
  };
  const toggle = (option: ChoiceOption) => {
    changed.current = true;
    setChosen((now) => (now.includes(option.value) ? now.filter((v) => v !== option.value) : full ? now : [...now, option.value]));
    if (query !== '') show('');
    setQuery('');
    input.current?.focus();
  };
  const remove = (v: string) => {
    changed.current = true;
    setChosen((now) => now.filter((c) => c !== v));
    input.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) show(query);
      else if (options.length > 0) setActive((i) => (i + (event.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
    } else if (event.key === 'Enter') {
      // Enter picks from the list while it is open; it never submits the form from here.
      if (open && options[active]) {
        event.preventDefault();
        toggle(options[active]);
      }
    } else if (event.key === 'Escape') {
      if (open) {
        event.preventDefault();
        setOpen(false);
      }
    } else if (event.key === 'Backspace' && query === '') {
      const last = chosen.at(-1);
      if (last !== undefined) remove(last);
    }
  };

  const titleOf = (v: string) => labels.get(v) ?? `#${v}`;
  const optionId = (index: number) => `${listId}-option-${index}`;
  const showList = open && options.length > 0;
  return (
    <div className="relative">
      {filter ? (
        <input type="hidden" name={name} value={chosen.join(',')} />
      ) : (
        <>
          <input type="hidden" name={name} value="" />
          {chosen.map((v) => (
            <input key={v} type="hidden" name={name} value={v} />
          ))}
        </>
      )}
      <div
        className={cn(
          'flex min-h-9 flex-wrap items-center gap-1.5 rounded-md bg-white px-1.5 py-1 shadow-xs ring-1 ring-inset ring-zinc-300 focus-within:ring-2 focus-within:ring-accent-600',
          invalid && 'ring-red-500',
        )}
      >
        <ul aria-label={`${label}: chosen`} className="contents">
          {chosen.map((v) => (
            <li
              key={v}
              className="inline-flex max-w-full items-center gap-1 rounded bg-accent-50 py-0.5 pl-2 pr-0.5 text-sm text-accent-700"
            >
              <span className="truncate">{titleOf(v)}</span>
              <button
                type="button"
                onClick={() => remove(v)}
                aria-label={`Remove ${titleOf(v)}`}
                // At least 24 px square: a target a finger can hit on a phone.
                className="grid size-6 place-items-center rounded text-accent-700 hover:bg-accent-100 focus-visible:outline-2"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
        <input
          ref={input}
          id={id}
          type="text"
          role="combobox"
          autoComplete="off"
          aria-expanded={showList}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={showList && options[active] ? optionId(active) : undefined}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          aria-required={required || undefined}
          autoFocus={autoFocus}
          value={query}
          placeholder={full ? `At most ${maxItems}` : 'Type to search…'}
          onChange={(event) => {
            setQuery(event.target.value);
            show(event.target.value);
          }}
          onClick={() => (open ? setOpen(false) : show(query))}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
          className="min-w-32 flex-1 border-0 bg-transparent px-1 py-0.5 text-sm text-zinc-900 placeholder:text-zinc-400 focus:outline-none focus-visible:outline-none"
        />
      </div>
      <ul
        id={listId}
        role="listbox"
        aria-multiselectable="true"
        aria-label={`${label}: choices`}
        hidden={!showList}
        className="absolute z-20 mt-1 max-h-60 w-full min-w-48 overflow-auto rounded-md bg-white py-1 text-sm shadow-lg ring-1 ring-zinc-200"
      >
        {options.map((option, index) => {
          const selected = chosen.includes(option.value);
          return (
            <li
              key={option.value}
              id={optionId(index)}
              role="option"
              aria-selected={selected}
              aria-disabled={!selected && full ? true : undefined}
              // Chosen on mouse down, before the input's blur closes the list.
              onMouseDown={(event) => {
                event.preventDefault();
                toggle(option);
              }}
              onMouseEnter={() => setActive(index)}
              className={cn(
                'flex cursor-pointer items-center gap-2 px-3 py-1.5',
                index === active && 'bg-accent-50',
                !selected && full && 'cursor-not-allowed text-zinc-400',
              )}
            >
              <span aria-hidden="true" className="w-4 text-accent-600">
                {selected ? '✓' : ''}
              </span>
              {option.label}
            </li>
          );
        })}
      </ul>
      <p
        role="status"
        className={
          open && !loading && options.length === 0
            ? 'absolute z-20 mt-1 w-full rounded-md bg-white px-3 py-1.5 text-sm text-zinc-600 shadow-lg ring-1 ring-zinc-200'
            : 'sr-only'
        }
      >
        {open && !loading && options.length === 0 ? 'No match' : ''}
      </p>
    </div>
  );
}
