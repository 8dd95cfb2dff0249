import { useSyncExternalStore } from 'react';

/**
 * What can be done with the record the page shows, as its page offers it (from ops: Edit where
 * the user may change it, the transitions they may take now): the palette lists these and `e`
 * edits. A link goes somewhere; a transition is taken by the page's own form for it.
 */
export type RecordCommand =
  | { readonly kind: 'link'; readonly label: string; readonly href: string; readonly shortcut?: 'edit' }
  | { readonly kind: 'transition'; readonly label: string; readonly name: string };

export interface RecordCommands {
  /** "Ticket #12": the palette's heading for them. */
  readonly title: string;
  readonly commands: readonly RecordCommand[];
}

let current: RecordCommands | null = null;
const listeners = new Set<() => void>();

/** Shows these as the current record's commands; the returned function takes them back (only if still current). */
export function showRecordCommands(commands: RecordCommands): () => void {
  current = commands;
  for (const listener of listeners) listener();
  return () => {
    if (current !== commands) return;
    current = null;
    for (const listener of listeners) listener();
  };
}

export function currentRecordCommands(): RecordCommands | null {
  return current;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useRecordCommands(): RecordCommands | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}
