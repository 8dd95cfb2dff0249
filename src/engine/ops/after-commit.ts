import { AsyncLocalStorage } from 'node:async_hooks';

/*
 * Work that must wait for a transaction's commit, and must not happen after a rollback: nudging
 * this process's notification dispatcher once the outbox rows it would read are visible. ops'
 * transactions (inTransaction, atomically) run inside `committing`; `afterCommit` called in
 * them runs once the outermost one has committed, and never if it threw.
 */

const pending = new AsyncLocalStorage<Set<() => void>>();

/** Runs `fn` after the surrounding ops transaction commits; at once outside one. */
export function afterCommit(fn: () => void): void {
  const queue = pending.getStore();
  if (queue) queue.add(fn);
  else fn();
}

/** Runs a transaction, then what it queued with afterCommit (nothing when it throws). */
export async function committing<T>(transaction: () => Promise<T>): Promise<T> {
  const queue = new Set<() => void>();
  const result = await pending.run(queue, transaction);
  for (const fn of queue) fn();
  return result;
}
