/**
 * Fixed-window rate limits, kept in memory. Each server instance counts alone: behind a load
 * balancer with N instances a client may get up to N times the limit. Fine for now; a shared
 * counter (Postgres or Redis) is the step after.
 */

export interface RateLimitOutcome {
  /** The policy name in the RateLimit headers ("default", "ip"). */
  readonly policy: string;
  readonly limit: number;
  readonly windowSeconds: number;
  readonly allowed: boolean;
  readonly remaining: number;
  /** Seconds until the current window ends (at least 1). */
  readonly resetSeconds: number;
}

interface Window {
  start: number;
  count: number;
}

export class FixedWindowLimiter {
  /** Insertion order is window start order (a key is re-inserted when its window restarts). */
  private readonly windows = new Map<string, Window>();

  constructor(
    readonly policy: string,
    readonly limit: number,
    readonly windowMs = 60_000,
    /** Keys kept at most; beyond, the oldest windows are forgotten (those clients start afresh). */
    private readonly maxKeys = 50_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request for `key` and says whether it is within the limit. */
  hit(key: string): RateLimitOutcome {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      this.windows.delete(key);
      this.evict(now);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    const allowed = window.count <= this.limit;
    return {
      policy: this.policy,
      limit: this.limit,
      windowSeconds: Math.round(this.windowMs / 1000),
      allowed,
      remaining: Math.max(0, this.limit - window.count),
      resetSeconds: Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000)),
    };
  }

  get size(): number {
    return this.windows.size;
  }

  /** Drops ended windows (the oldest come first), then the oldest live ones while over the cap. */
  private evict(now: number): void {
    for (const [key, window] of this.windows) {
      if (now - window.start < this.windowMs && this.windows.size < this.maxKeys) break;
      this.windows.delete(key);
    }
  }
}

/**
 * The RateLimit-Policy and RateLimit fields of draft-ietf-httpapi-ratelimit-headers-09, one list
 * item per policy that counted this request: `"default";q=600;w=60` and `"default";r=599;t=42`.
 */
export function rateLimitHeaders(outcomes: readonly RateLimitOutcome[]): Record<string, string> {
  if (outcomes.length === 0) return {};
  return {
    'RateLimit-Policy': outcomes.map((o) => `"${o.policy}";q=${o.limit};w=${o.windowSeconds}`).join(', '),
    RateLimit: outcomes.map((o) => `"${o.policy}";r=${o.remaining};t=${o.resetSeconds}`).join(', '),
  };
}
