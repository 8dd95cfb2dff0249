import { sql } from 'kysely';
import { createHash } from 'node:crypto';
import type { DynamicDatabase } from '../store/types';

/**
 * Failed sign-ins counted per account and per client address in a fixed window (from the first
 * failure), in the table nf_sign_in_attempt rather than in memory: several servers behind one
 * load balancer then count the same attempts, and a restart forgets nothing.
 */
export interface SignInThrottle {
  /** Seconds until a sign-in for these keys may be tried again, or null when it may be tried now. */
  retryAfter(keys: ThrottleKeys): Promise<number | null>;
  /** Counts one failed attempt for each key. */
  fail(keys: ThrottleKeys): Promise<void>;
  /** Forgets the account's failures (after a successful sign-in); the address keeps its count. */
  reset(keys: Pick<ThrottleKeys, 'account'>): Promise<void>;
}

export interface ThrottleKeys {
  readonly account: string;
  readonly ip?: string;
}

export interface ThrottleLimits {
  readonly perAccount: number;
  readonly perIp: number;
  readonly windowMs: number;
}

const TABLE = 'nf_sign_in_attempt';

/** The keys of an attempt. The email is stored as a hash: the table never holds an address. */
export function throttleKeys(normalizedEmail: string, ip: string | undefined): ThrottleKeys {
  const account = `account:${createHash('sha256').update(normalizedEmail).digest('hex')}`;
  return ip ? { account, ip: `ip:${ip.slice(0, 100)}` } : { account };
}

export function createSignInThrottle(db: DynamicDatabase, limits: ThrottleLimits): SignInThrottle {
  const limitOf = (key: string) => (key.startsWith('ip:') ? limits.perIp : limits.perAccount);
  const list = (keys: ThrottleKeys) => (keys.ip ? [keys.account, keys.ip] : [keys.account]);

  return {
    async retryAfter(keys) {
      const now = Date.now();
      const rows = (await db
        .selectFrom(TABLE)
        .select(['key', 'failures', 'window_started_at'])
        .where('key', 'in', list(keys))
        .where('window_started_at', '>', new Date(now - limits.windowMs))
        .execute()) as { key: string; failures: number; window_started_at: Date }[];
      let wait: number | null = null;
      for (const row of rows) {
        if (row.failures < limitOf(row.key)) continue;
        const seconds = Math.max(1, Math.ceil((row.window_started_at.getTime() + limits.windowMs - now) / 1000));
        wait = Math.max(wait ?? 0, seconds);
      }
      return wait;
    },

    async fail(keys) {
      const now = new Date();
      const cutoff = new Date(now.getTime() - limits.windowMs);
      for (const key of list(keys)) {
        // A window that has ended starts again with this failure.
        await sql`
          insert into nf_sign_in_attempt as a (key, failures, window_started_at) values (${key}, 1, ${now})
          on conflict (key) do update set
            failures = case when a.window_started_at <= ${cutoff} then 1 else a.failures + 1 end,
            window_started_at = case when a.window_started_at <= ${cutoff} then excluded.window_started_at else a.window_started_at end
        `.execute(db);
      }
      // Ended windows say nothing any more: keep the table as small as the attacks under way.
      await db.deleteFrom(TABLE).where('window_started_at', '<=', cutoff).execute();
    },

    async reset(keys) {
      await db.deleteFrom(TABLE).where('key', '=', keys.account).execute();
    },
  };
}
