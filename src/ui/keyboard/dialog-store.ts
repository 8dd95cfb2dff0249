import { useSyncExternalStore } from 'react';

/**
 * Which of the shell's keyboard dialogs is open: the command palette or the list of shortcuts.
 * One small store, so that the page's key listener, the palette's button and the dialogs agree
 * without a context provider around the whole page.
 */
export type ShellDialog = 'palette' | 'shortcuts';

let open: ShellDialog | null = null;
const listeners = new Set<() => void>();

export function openShellDialog(dialog: ShellDialog): void {
  open = dialog;
  for (const listener of listeners) listener();
}

/** Closes this dialog, if it is the one open (another may have replaced it meanwhile). */
export function closeShellDialog(dialog: ShellDialog): void {
  if (open !== dialog) return;
  open = null;
  for (const listener of listeners) listener();
}

export function currentShellDialog(): ShellDialog | null {
  return open;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useShellDialog(): ShellDialog | null {
  return useSyncExternalStore(
    subscribe,
    () => open,
    () => null,
  );
}
