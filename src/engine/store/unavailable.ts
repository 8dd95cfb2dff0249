import { NinefoldError } from '../errors/ninefold-error';

/** What Retry-After says when the database cannot be reached: about two background probes. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Socket and name-resolution errors (Node's `code`): the database server cannot be reached. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs that say the server will not (or cannot now) serve this connection: 57P01
 * admin_shutdown (PostgreSQL stopping), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting
 * or in recovery), 53300 too_many_connections. Class 08 (connection exception) is matched whole.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * Errors `pg`, pg-pool and the embedded database's worker raise without a code; their messages
 * are all the driver gives. Matched at the start only, so that a SQL error quoting one of these
 * words is not mistaken for an outage.
 */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/, // pg: the socket closed under a query ("... unexpectedly", "... due to connection timeout")
  /^timeout exceeded when trying to connect/, // pg-pool: connectionTimeoutMillis passed
  /^timeout expired$/, // pg: a client's own connectionTimeoutMillis passed
  /^Query read timeout$/, // pg: query_timeout passed
  /^Client has encountered a connection error and is not queryable/,
  /^Connection is not open/,
  /^The embedded database worker stopped/, // ./pglite/worker-client.ts: the worker thread died
];

/** Why a connection failed, in one line for the log (never shown to users). */
export function connectionErrorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && !error.message.includes(code) ? `${code} ${error.message}` : error.message || error.name;
}

/**
 * Whether `error` says the database cannot be reached (down, restarting, unreachable, out of
 * connections), as opposed to a problem with the statement itself. A NinefoldError is never one:
 * it was already classified, or is the application's own refusal.
 */
export function isConnectionError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || error instanceof NinefoldError) return false;
  // Node raises an AggregateError when every address of a host refused (localhost: ::1 and 127.0.0.1).
  if (error instanceof AggregateError && error.errors.some(isConnectionError)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  const message = error instanceof Error ? error.message : '';
  return UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message));
}

/**
 * The catalogue's SERVICE_UNAVAILABLE (503), which the doors send with Retry-After. Its code is
 * also its `digest`: React's server rendering sends the browser an error's digest (never its
 * message) and keeps one the error already has, so a page that meets the outage can show the
 * catalogue's words (src/ui/error-fallback.tsx) instead of the generic fallback.
 */
export function serviceUnavailable(): NinefoldError {
  const error = new NinefoldError('SERVICE_UNAVAILABLE', undefined, { retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS });
  return Object.assign(error, { digest: error.code });
}

/**
 * SERVICE_UNAVAILABLE for a connection error, keeping the driver's error as its `cause` for
 * operators (a server that cannot start says which host refused); any other error unchanged.
 */
export function classifyDatabaseError(error: unknown): unknown {
  return isConnectionError(error) ? Object.assign(serviceUnavailable(), { cause: error }) : error;
}
