import { describe, expect, it } from 'vitest';
import { FixedWindowLimiter, rateLimitHeaders } from './rate-limit';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

describe('FixedWindowLimiter', () => {
  it('allows the limit per window and key, then refuses until the window ends', () => {
    const time = clock();
    const limiter = new FixedWindowLimiter('default', 3, 60_000, 100, time.now);
    expect([1, 2, 3].map(() => limiter.hit('a').remaining)).toEqual([2, 1, 0]);
    const refused = limiter.hit('a');
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 60, limit: 3, windowSeconds: 60 });
    expect(limiter.hit('b').allowed).toBe(true);
    time.advance(59_500);
    expect(limiter.hit('a')).toMatchObject({ allowed: false, resetSeconds: 1 });
    time.advance(500);
    expect(limiter.hit('a')).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 60 });
  });

  it('keeps at most maxKeys keys, forgetting ended windows first, then the oldest', () => {
    const time = clock();
    const limiter = new FixedWindowLimiter('ip', 1, 60_000, 10, time.now);
    for (let i = 0; i < 10; i += 1) limiter.hit(`old-${i}`);
    time.advance(61_000);
    limiter.hit('new');
    expect(limiter.size).toBe(1);
    for (let i = 0; i < 100; i += 1) limiter.hit(`k-${i}`);
    expect(limiter.size).toBeLessThanOrEqual(10);
    // The newest keys are still counted.
    expect(limiter.hit('k-99').allowed).toBe(false);
  });
});

describe('rateLimitHeaders', () => {
  it('writes one item per policy in the draft-09 syntax', () => {
    const headers = rateLimitHeaders([
      { policy: 'default', limit: 600, windowSeconds: 60, allowed: true, remaining: 599, resetSeconds: 42 },
      { policy: 'ip', limit: 1200, windowSeconds: 60, allowed: true, remaining: 1000, resetSeconds: 7 },
    ]);
    expect(headers).toEqual({
      'RateLimit-Policy': '"default";q=600;w=60, "ip";q=1200;w=60',
      RateLimit: '"default";r=599;t=42, "ip";r=1000;t=7',
    });
    expect(rateLimitHeaders([])).toEqual({});
  });
});
