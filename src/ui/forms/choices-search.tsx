'use client';

import { createContext, useContext, type ReactNode } from 'react';
import type { ChoiceOption } from './state';

/** The server's search of a field's options (a server action the root layout passes down). */
export type SearchChoices = (entity: string, field: string, query: { q: string; within: number | null }) => Promise<ChoiceOption[]>;

const SearchContext = createContext<SearchChoices | null>(null);

/** Gives every picker below it the server's search; the UI itself imports no server code. */
export function ChoicesSearchProvider({ search, children }: { search: SearchChoices; children: ReactNode }) {
  return <SearchContext value={search}>{children}</SearchContext>;
}

/** The search action, or null outside a provider (a picker then stays the plain input, as without JavaScript). */
export function useSearchChoices(): SearchChoices | null {
  return useContext(SearchContext);
}
