'use client';

import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { cn } from '../cn';
import type { ChoiceOption } from './state';

const inputClass =
  'block w-full rounded-md border-0 bg-white px-2.5 py-1.5 text-sm text-zinc-900 shadow-xs ring-1 ring-inset ring-zinc-300 placeholder:text-zinc-400 focus:ring-2 focus:ring-accent-600 focus-visible:outline-none aria-invalid:ring-red-500';

interface PickerProps {
  readonly id: string;
  readonly name: string;
  /** The field's label, naming the list of choices and of chosen records for assistive technology. */
  readonly label: string;
  readonly options: readonly ChoiceOption[];
  /** The chosen ids, joined by commas (the form's value of a references field). */
  readonly value: string;
  readonly required: boolean;
  readonly maxItems?: number;
  readonly describedBy?: string;
  readonly invalid?: boolean;
  readonly autoFocus?: boolean;
}

/**
 * The choice of several records (a references field). Without JavaScript, and until the page is
 * hydrated, a plain `<select multiple>`; then a combobox: type to narrow the choices, arrow keys
 * to move, Enter to add or remove, Backspace in the empty box to remove the last one, and each
 * chosen record as a chip with its own remove button. Either way the form posts an empty value
 * (the field was in the form, so choosing none empties it) and one value per chosen record.
 */
export function ReferencesPicker(props: PickerProps) {
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  return enhanced ? <Combobox {...props} /> : <PlainSelect {...props} />;
}

function chosenIds(value: string): string[] {
  return value.split(',').filter((v) => v !== '');
}

function PlainSelect({ id, name, options, value, required, describedBy, invalid, autoFocus }: PickerProps) {
  return (
    <>
      <input type="hidden" name={name} value="" />
      <select
        id={id}
        name={name}
        multiple
        required={required}
        defaultValue={chosenIds(value)}
        size={Math.min(Math.max(options.length, 2), 8)}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        autoFocus={autoFocus}
        className={cn(inputClass, 'py-1')}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </>
  );
}

function Combobox({ id, name, label, options, value, required, maxItems, describedBy, invalid, autoFocus }: PickerProps) {
  const listId = useId();
  const [chosen, setChosen] = useState<string[]>(() => chosenIds(value));
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const labels = useMemo(() => new Map(options.map((o) => [o.value, o.label])), [options]);
  const matching = useMemo(() => {
    const text = query.trim().toLowerCase();
    return text === '' ? options : options.filter((o) => o.label.toLowerCase().includes(text));
  }, [options, query]);
  const full = maxItems !== undefined && chosen.length >= maxItems;

  const toggle = (option: ChoiceOption) => {
    setChosen((now) => (now.includes(option.value) ? now.filter((v) => v !== option.value) : full ? now : [...now, option.value]));
    setQuery('');
    input.current?.focus();
  };
  const remove = (value: string) => {
    setChosen((now) => now.filter((v) => v !== value));
    input.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) setOpen(true);
      else if (matching.length > 0) setActive((i) => (i + (event.key === 'ArrowDown' ? 1 : matching.length - 1)) % matching.length);
    } else if (event.key === 'Enter') {
      // Enter picks from the list while it is open; it never submits the form from here.
      if (open && matching[active]) {
        event.preventDefault();
        toggle(matching[active]);
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

  const optionId = (index: number) => `${listId}-option-${index}`;
  return (
    <div className="relative">
      <input type="hidden" name={name} value="" />
      {chosen.map((v) => (
        <input key={v} type="hidden" name={name} value={v} />
      ))}
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
              <span className="truncate">{labels.get(v) ?? `#${v}`}</span>
              <button
                type="button"
                onClick={() => remove(v)}
                aria-label={`Remove ${labels.get(v) ?? `#${v}`}`}
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
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && matching[active] ? optionId(active) : undefined}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          aria-required={required || undefined}
          autoFocus={autoFocus}
          value={query}
          placeholder={full ? `At most ${maxItems}` : 'Type to search…'}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
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
        hidden={!open || matching.length === 0}
        className="absolute z-20 mt-1 max-h-60 w-full overflow-auto rounded-md bg-white py-1 text-sm shadow-lg ring-1 ring-zinc-200"
      >
        {matching.map((option, index) => {
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
      {open && matching.length === 0 ? (
        <p
          role="status"
          className="absolute z-20 mt-1 w-full rounded-md bg-white px-3 py-1.5 text-sm text-zinc-600 shadow-lg ring-1 ring-zinc-200"
        >
          No match
        </p>
      ) : null}
    </div>
  );
}
