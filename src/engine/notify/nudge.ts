import { afterCommit } from '../ops/after-commit';

/*
 * In-process nudges: a change that wrote outbox rows wakes this process's dispatchers once it
 * commits, so the in-app notification is there within moments rather than at the scheduler's
 * next tick. Other processes of a fleet pick the rows up on their own ticks (or this one does).
 */

const listeners = new Set<() => void>();

/** Called when the current transaction wrote outbox rows. */
export function nudgeDispatchers(): void {
  if (listeners.size === 0) return;
  afterCommit(() => {
    for (const listener of listeners) listener();
  });
}

/** A dispatcher listens while it runs; the function it gets back stops that. */
export function onNudge(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
