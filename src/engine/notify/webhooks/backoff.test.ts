import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, nextAttemptAt, retryScheduleText } from './backoff';

const at = new Date('2026-11-28T00:00:00.000Z');
const after = (attempts: number) => {
  const next = nextAttemptAt(attempts, at);
  return next === null ? null : (next.getTime() - at.getTime()) / 1000;
};

describe('webhook retries', () => {
  it('wait longer after each failed attempt', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(after)).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
  });

  it('stop after the eighth attempt, about a day after the first', () => {
    expect(MAX_ATTEMPTS).toBe(8);
    expect(after(8)).toBeNull();
    const total = [1, 2, 3, 4, 5, 6, 7].reduce((sum, n) => sum + after(n)!, 0);
    expect(total / 3600).toBeGreaterThan(24);
    expect(total / 3600).toBeLessThan(30);
  });

  it('read as words for /spec', () => {
    expect(retryScheduleText()).toBe('5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h');
  });
});
