'use client';

import { createContext, useContext, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { ChoiceOption, PickerSearch } from './state';

/** The server's search of a field's options (a server action the root layout passes down). */
export type SearchChoices = (entity: string, field: string, query: { q: string; within: number | null }) => Promise<ChoiceOption[]>;

/** How long typing pauses before the server is asked. */
const TYPING_PAUSE_MS = 150;

const SearchContext = createContext<SearchChoices | null>(null);

/** Gives every picker below it the server's search; the UI itself imports no server code. */
export function ChoicesSearchProvider({ search, children }: { search: SearchChoices; children: ReactNode }) {
  return <SearchContext value={search}>{children}</SearchContext>;
}

/** The search action, or null outside a provider (a picker then stays the plain input, as without JavaScript). */
export function useSearchChoices(): SearchChoices | null {
  return useContext(SearchContext);
}

/** The form's value of `name`, as it would post it (the last one wins); else the value the server fixed. */
function formValue(input: HTMLInputElement | null, name: string, fixed: string | undefined): number | null {
  const posted = input?.form ? new FormData(input.form).getAll(name).at(-1) : undefined;
  const raw = typeof posted === 'string' ? posted : (fixed ?? '');
  return /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : null;
}

/**
 * A picker's questions to the server: `ask(q)` after typing pauses, with the form's value of the
 * field's `within` read from the form `input` is in; `options` the answer to the latest question
 * only (typing fast must not show an older list), `loading` while it is awaited. `onAnswer` sees
 * each answer as it is shown, in the same render (the active option must never point past the
 * list). Only inside a ChoicesSearchProvider.
 */
export function useAskedChoices(
  search: PickerSearch,
  input: RefObject<HTMLInputElement | null>,
  onAnswer: (found: readonly ChoiceOption[]) => void,
) {
  const searchChoices = useSearchChoices()!;
  const [options, setOptions] = useState<readonly ChoiceOption[]>([]);
  const [loading, setLoading] = useState(false);
  const asked = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(timer.current ?? undefined), []);

  const ask = (q: string) => {
    clearTimeout(timer.current ?? undefined);
    timer.current = setTimeout(() => {
      const question = ++asked.current;
      setLoading(true);
      const within = search.within ? formValue(input.current, search.within.field, search.within.value) : null;
      searchChoices(search.entity, search.field, { q, within })
        .then((found) => {
          if (question !== asked.current) return;
          onAnswer(found);
          setOptions(found);
          setLoading(false);
        })
        .catch(() => {
          if (question === asked.current) setLoading(false);
        });
    }, TYPING_PAUSE_MS);
  };
  return { options, loading, ask };
}
