import { sql } from 'kysely';
import { createHash } from 'node:crypto';
import type { DynamicDatabase } from '../store/types';

/**
 * Sign-in attempts counted per account and per client address in a fixed window (from the first
 * attempt counted in it), in the table nf_sign_in_attempt rather than in memory: several servers behind one
 * load balancer then count the same attempts, and a restart forgets nothing.
 *
 * An attempt is counted before its secret is checked, each key in one statement that also answers
 * whether it is within the key's limit. Parallel attempts, on one server or many, each see the others' counts,
 * so no more than the limit are ever checked in a window (reading the count, checking, then
 * counting let every attempt of a burst through). What turns out not to be a failure is given
 * back: a refused attempt checked nothing, and a right secret starts the account afresh.
 */
export interface SignInThrottle {
  /** Counts one attempt for each key, and says whether its secret may be checked now. */
  attempt(keys: ThrottleKeys): Promise<ThrottledAttempt>;
}

/**
 * Refused: a key is past its limit; the attempt is not counted and nothing may be checked.
 * Let through: check the secret; a wrong one stays counted, a right one calls `succeeded`.
 */
export type ThrottledAttempt =
  | { readonly refused: true; readonly retryAfterSeconds: number }
  | {
      readonly refused: false;
      /** The secret was right: the account's failures are forgotten, the address gets this attempt back. */
      succeeded(): Promise<void>;
    };

export interface ThrottleKeys {
  readonly account: string;
  readonly ip?: string;
}

export interface ThrottleLimits {
  readonly perAccount: number;
  readonly perIp: number;
  readonly windowMs: number;
}

interface CountedKey {
  readonly key: string;
  readonly failures: number;
  readonly window_started_at: Date;
}

/** The keys of an attempt. The email is stored as a hash: the table never holds an address. */
export function throttleKeys(normalizedEmail: string, ip: string | undefined): ThrottleKeys {
  const account = `account:${createHash('sha256').update(normalizedEmail).digest('hex')}`;
  return ip ? { account, ip: `ip:${ip.slice(0, 100)}` } : { account };
}

export function createSignInThrottle(db: DynamicDatabase, limits: ThrottleLimits): SignInThrottle {
  const limitOf = (key: string) => (key.startsWith('ip:') ? limits.perIp : limits.perAccount);
  // Always the account first (see attempt).
  const list = (keys: ThrottleKeys) => (keys.ip ? [keys.account, keys.ip] : [keys.account]);

  /** One more attempt on a key, in one statement; a window that has ended starts again with it. */
  const count = async (key: string, now: Date): Promise<CountedKey> => {
    const cutoff = new Date(now.getTime() - limits.windowMs);
    const result = await sql<CountedKey>`
      insert into nf_sign_in_attempt as a (key, failures, window_started_at) values (${key}, 1, ${now})
      on conflict (key) do update set
        failures = case when a.window_started_at <= ${cutoff} then 1 else a.failures + 1 end,
        window_started_at = case when a.window_started_at <= ${cutoff} then excluded.window_started_at else a.window_started_at end
      returning key, failures, window_started_at
    `.execute(db);
    const [row] = result.rows;
    if (!row) throw new Error(`The sign-in count of ${key.split(':')[0]} returned no row.`);
    return row;
  };

  /**
   * Takes one attempt back from these keys, in the windows it was counted in (a window begun since
   * owes it nothing). One statement per key: a statement holding one row while it waits for
   * another, as one over both keys would, deadlocks with a count holding them the other way round.
   */
  const giveBack = async (counted: readonly CountedKey[]): Promise<void> => {
    for (const { key, window_started_at } of counted) {
      await sql`update nf_sign_in_attempt set failures = greatest(failures - 1, 0) where key = ${key} and window_started_at = ${window_started_at}`.execute(
        db,
      );
    }
  };

  /**
   * Ended windows say nothing any more: keep the table as small as the attacks under way. Rows
   * another statement holds are left for a later sweep rather than waited for (no deadlock).
   */
  const sweep = async (now: Date): Promise<void> => {
    const cutoff = new Date(now.getTime() - limits.windowMs);
    await sql`
      delete from nf_sign_in_attempt where key in (
        select key from nf_sign_in_attempt where window_started_at <= ${cutoff} for update skip locked
      )
    `.execute(db);
  };

  return {
    async attempt(keys) {
      const now = new Date();
      // Key by key, the account first, stopping at the first one past its limit: an attempt its
      // account refuses never counts against the address, not even for the moment before it is
      // given back (a burst on a few accounts would otherwise fill the address's count with
      // attempts on their way out, and refuse one that was within every limit).
      const counted: CountedKey[] = [];
      for (const key of list(keys)) {
        const mark = await count(key, now);
        counted.push(mark);
        if (mark.failures > limitOf(key)) {
          await giveBack(counted);
          const ends = mark.window_started_at.getTime() + limits.windowMs;
          return { refused: true, retryAfterSeconds: Math.max(1, Math.ceil((ends - now.getTime()) / 1000)) };
        }
      }
      await sweep(now);
      return {
        refused: false,
        async succeeded() {
          await db.deleteFrom('nf_sign_in_attempt').where('key', '=', keys.account).execute();
          await giveBack(counted.filter((c) => c.key !== keys.account));
        },
      };
    },
  };
}
