import { useSyncExternalStore } from 'react';

/**
 * Whether a client-side navigation is under way: started by a link or GET form the router took
 * over (navigation-progress.tsx sees those by itself) or by code that navigates with the router
 * (call `startNavigationProgress` before `router.push`), ended when the address changes.
 */
let since: number | null = null;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

/** Marks a navigation to `href` as started, unless it goes where the page already is. */
export function startNavigationProgress(href: string): void {
  const target = new URL(href, window.location.href);
  const here = new URL(window.location.href);
  if (target.origin !== here.origin || (target.pathname === here.pathname && target.search === here.search)) return;
  since = Date.now();
  emit();
}

export function endNavigationProgress(): void {
  if (since === null) return;
  since = null;
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** When the navigation under way started, or null. */
export function useNavigationStarted(): number | null {
  return useSyncExternalStore(
    subscribe,
    () => since,
    () => null,
  );
}
