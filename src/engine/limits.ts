import type { AppModel } from './spec/model';

/**
 * The limits of the API and of accounts, each with a default that a spec constant of the same
 * name replaces (`constants: { apiMaxPageSize: { value: 50 } }`). The spec check makes sure such
 * a constant is a positive whole number (see LIMIT_CONSTANTS), so resolving them cannot fail.
 */
export interface Limits {
  /** Largest request body accepted, in bytes (413 beyond). */
  readonly maxBodyBytes: number;
  /** Largest `?limit=` of a list page. */
  readonly maxPageSize: number;
  /** Requests per minute per API token or signed-in user (429 beyond). */
  readonly rateLimitPerMinute: number;
  /** Requests per minute per client address, signed in or not (429 beyond). */
  readonly rateLimitPerMinutePerIp: number;
  /** A session unused for this many minutes has ended (idle timeout). */
  readonly sessionIdleMinutes: number;
  /** A session ends this many days after the sign-in that started it, used or not (absolute timeout). */
  readonly sessionMaxDays: number;
  /** Failed sign-ins per account in SIGN_IN_WINDOW_MINUTES before sign-in is refused (RATE_LIMITED: the API's 429, the page's message). */
  readonly signInAttemptsPerAccount: number;
  /** Failed sign-ins per client address in SIGN_IN_WINDOW_MINUTES before sign-in is refused (RATE_LIMITED, as above). */
  readonly signInAttemptsPerIp: number;
  /** Largest CSV file a list page imports, in bytes (PAYLOAD_TOO_LARGE beyond). */
  readonly importMaxBytes: number;
  /**
   * Most rows one import (page or command line) may hold for staff: users one of whose roles may
   * create any record of the entity (`create: true`). PAYLOAD_TOO_LARGE beyond, before any row is checked.
   */
  readonly importMaxRows: number;
  /** The same for everyone else, whose create grant has a condition (a customer's own tickets); never above importMaxRows. */
  readonly importMaxRowsScoped: number;
  /** Live streams (`GET /api/live`) one session may hold open on one server process (RATE_LIMITED beyond). */
  readonly liveStreamsPerSession: number;
  /** Live streams one user may hold open on one server process, all their sessions together (RATE_LIMITED beyond). */
  readonly liveStreamsPerUser: number;
}

/**
 * The largest importMaxBytes may be: a file is posted whole to the import's own route
 * (src/server/csv/import-door.ts without JavaScript, import-stream.ts with it), never to a server
 * action, whose bodies are limited to what forms send (src/server/form-post-limit.ts).
 */
export const IMPORT_MAX_BYTES_CEILING = 32 * 1024 * 1024;

/** The window the failed sign-ins are counted in. */
export const SIGN_IN_WINDOW_MINUTES = 15;

export const DEFAULT_LIMITS: Limits = {
  maxBodyBytes: 1024 * 1024,
  maxPageSize: 100,
  rateLimitPerMinute: 600,
  rateLimitPerMinutePerIp: 1200,
  sessionIdleMinutes: 720,
  sessionMaxDays: 30,
  signInAttemptsPerAccount: 10,
  signInAttemptsPerIp: 50,
  importMaxBytes: IMPORT_MAX_BYTES_CEILING,
  importMaxRows: 100_000,
  importMaxRowsScoped: 1000,
  // The app's tabs in one browser share one stream; six is what a browser opens per host over HTTP/1.1.
  liveStreamsPerSession: 6,
  liveStreamsPerUser: 20,
};

/** The spec constant that sets each limit, what it limits (for messages), and the largest value it may take. */
export const LIMIT_CONSTANTS: Readonly<Record<keyof Limits, { readonly constant: string; readonly what: string; readonly max: number }>> = {
  maxBodyBytes: { constant: 'apiMaxBodyBytes', what: 'an API limit', max: 64 * 1024 * 1024 },
  // ops refuse pages beyond 500 rows whatever the door.
  maxPageSize: { constant: 'apiMaxPageSize', what: 'an API limit', max: 500 },
  rateLimitPerMinute: { constant: 'apiRateLimitPerMinute', what: 'an API limit', max: 1_000_000 },
  rateLimitPerMinutePerIp: { constant: 'apiRateLimitPerIpPerMinute', what: 'an API limit', max: 1_000_000 },
  sessionIdleMinutes: { constant: 'sessionIdleMinutes', what: 'a session timeout', max: 366 * 24 * 60 },
  sessionMaxDays: { constant: 'sessionMaxDays', what: 'a session timeout', max: 3660 },
  signInAttemptsPerAccount: { constant: 'signInAttemptsPerAccount', what: 'a sign-in limit', max: 1_000_000 },
  signInAttemptsPerIp: { constant: 'signInAttemptsPerIp', what: 'a sign-in limit', max: 1_000_000 },
  importMaxBytes: { constant: 'importMaxBytes', what: 'an import limit', max: IMPORT_MAX_BYTES_CEILING },
  importMaxRows: { constant: 'importMaxRows', what: 'an import limit', max: 1_000_000 },
  importMaxRowsScoped: { constant: 'importMaxRowsScoped', what: 'an import limit', max: 1_000_000 },
  liveStreamsPerSession: { constant: 'liveStreamsPerSession', what: 'a live-stream limit', max: 10_000 },
  liveStreamsPerUser: { constant: 'liveStreamsPerUser', what: 'a live-stream limit', max: 100_000 },
};

export function resolveLimits(model: AppModel): Limits {
  const resolved = {} as Record<keyof Limits, number>;
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]) {
    const value = model.constants[LIMIT_CONSTANTS[key].constant]?.value;
    resolved[key] = typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : DEFAULT_LIMITS[key];
  }
  return resolved;
}
