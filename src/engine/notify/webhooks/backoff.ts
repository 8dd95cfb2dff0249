/*
 * When a delivery that failed is tried again: the first retry soon (a receiver restarting),
 * then further apart, about a day in all, as the Standard Webhooks guidance suggests. A delivery
 * whose last retry fails too is marked failed; an administrator may send it again.
 */

/** Seconds to wait after attempt 1, 2, … fails: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (27 h 35 min in all). */
export const RETRY_DELAYS_SECONDS: readonly number[] = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];

/** How many attempts a delivery gets before it is failed: the first and one per delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** When to try again after `attempts` failed attempts, or null when that was the last one. */
export function nextAttemptAt(attempts: number, failedAt: Date): Date | null {
  const delay = RETRY_DELAYS_SECONDS[attempts - 1];
  return delay === undefined ? null : new Date(failedAt.getTime() + delay * 1000);
}

/** "5 s, 5 min, 30 min, 2 h, …" for /spec and the README. */
export function retryScheduleText(): string {
  return RETRY_DELAYS_SECONDS.map((seconds) =>
    seconds < 60 ? `${seconds} s` : seconds < 3600 ? `${seconds / 60} min` : `${seconds / 3600} h`,
  ).join(', ');
}
