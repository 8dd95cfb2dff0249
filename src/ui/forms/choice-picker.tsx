'use client';

import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { cn } from '../cn';
import { useAskedChoices, useSearchChoices } from './choices-search';
import type { ChoiceOption, PickerSearch } from './state';

interface ChoicePickerProps {
  readonly id: string;
  readonly name: string;
  /** The field's label, naming the list of options for assistive technology. */
  readonly label: string;
  /** The chosen id ('' for none) and its title. */
  readonly value: string;
  readonly valueLabel?: string;
  readonly search: PickerSearch;
  readonly required?: boolean;
  readonly describedBy?: string;
  readonly invalid?: boolean;
  readonly autoFocus?: boolean;
  /** Submits the form once an option is chosen (a list's filters apply as they change). */
  readonly submitOnChoose?: boolean;
  readonly className?: string;
  /** What is shown without JavaScript and until the page is hydrated: a select of a few, or an id input. */
  readonly children: ReactNode;
}

/**
 * The choice of one record or user (a reference or user field, or a filter by one). Without
 * JavaScript it is `children`, the plain input the server rendered; then an ARIA 1.2 combobox
 * whose options the server finds as the user types (through ops, with the viewer's access and
 * the field's `roles` and `within`), a few at a time: nothing lists every record. Arrow keys
 * move, Enter chooses, Escape closes (and a second Escape puts back the chosen title). The
 * chosen id is posted in a hidden input with the field's name; emptying the box chooses none.
 */
export function ChoicePicker(props: ChoicePickerProps) {
  const search = useSearchChoices();
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  return enhanced && search ? <Combobox {...props} /> : props.children;
}

function Combobox({
  id,
  name,
  label,
  value,
  valueLabel,
  search,
  required,
  describedBy,
  invalid,
  autoFocus,
  submitOnChoose,
  className,
}: ChoicePickerProps) {
  const listId = useId();
  const [chosen, setChosen] = useState<ChoiceOption | null>(value === '' ? null : { value, label: valueLabel ?? `#${value}` });
  const [text, setText] = useState(chosen?.label ?? '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  const hidden = useRef<HTMLInputElement>(null);
  const choseNow = useRef(false);
  // Each answer starts at its first option.
  const { options, loading, ask } = useAskedChoices(search, input, (found) => setActive(found.length > 0 ? 0 : -1));
  useEffect(() => {
    // After the hidden input holds the new id: a filter applies it.
    if (choseNow.current && submitOnChoose) hidden.current?.form?.requestSubmit();
    choseNow.current = false;
  }, [chosen, submitOnChoose]);

  const show = (q: string) => {
    setOpen(true);
    ask(q);
  };
  const choose = (option: ChoiceOption | null) => {
    choseNow.current = (option?.value ?? '') !== (chosen?.value ?? '');
    setChosen(option);
    setText(option?.label ?? '');
    setOpen(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) show(text === chosen?.label ? '' : text);
      else if (options.length > 0) setActive((i) => (i + (event.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
    } else if (event.key === 'Enter') {
      // Enter chooses while the list is open; it never submits the form from here.
      if (open && options[active]) {
        event.preventDefault();
        choose(options[active]);
      }
    } else if (event.key === 'Escape') {
      if (open) {
        event.preventDefault();
        setOpen(false);
      } else if (text !== (chosen?.label ?? '')) {
        event.preventDefault();
        setText(chosen?.label ?? '');
      }
    }
  };

  const optionId = (index: number) => `${listId}-${index}`;
  const showList = open && options.length > 0;
  return (
    <div className={cn('relative', className)}>
      <input ref={hidden} type="hidden" name={name} value={chosen?.value ?? ''} />
      <input
        ref={input}
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && active >= 0 ? optionId(active) : undefined}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        aria-required={required || undefined}
        autoFocus={autoFocus}
        value={text}
        placeholder="Type to search…"
        onChange={(event) => {
          setText(event.target.value);
          // An emptied box chooses none.
          if (event.target.value === '' && chosen) choose(null);
          show(event.target.value);
        }}
        onClick={() => (open ? setOpen(false) : show(text === chosen?.label ? '' : text))}
        onBlur={() => {
          setOpen(false);
          // What was typed and not chosen is dropped: the box shows what the form posts.
          setText(chosen?.label ?? '');
        }}
        onKeyDown={onKeyDown}
        className="block w-full rounded-md border-0 bg-white px-2.5 py-1.5 text-sm text-zinc-900 shadow-xs ring-1 ring-inset ring-zinc-300 placeholder:text-zinc-400 focus:ring-2 focus:ring-accent-600 focus-visible:outline-none aria-invalid:ring-red-500"
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={`${label}: choices`}
        hidden={!showList}
        className="absolute z-20 mt-1 max-h-60 w-full min-w-48 overflow-auto rounded-md bg-white py-1 text-sm shadow-lg ring-1 ring-zinc-200"
      >
        {options.map((option, index) => (
          <li
            key={option.value}
            id={optionId(index)}
            role="option"
            aria-selected={option.value === chosen?.value}
            // Chosen on mouse down, before the input's blur closes the list.
            onMouseDown={(event) => {
              event.preventDefault();
              choose(option);
            }}
            onMouseEnter={() => setActive(index)}
            className={cn('cursor-pointer px-3 py-1.5', index === active && 'bg-accent-50')}
          >
            {option.label}
          </li>
        ))}
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
