import type { Instrumentation } from 'next';
import { loggablePath } from './engine/identity/loggable-path';

export async function register(): Promise<void> {
  // Not while building: the build must never open the database.
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const { bootEngine } = await import('./server/boot');
  // Not awaited: the first request loads its route while the database checks the schema (in
  // PGlite's worker thread or PostgreSQL), then awaits the same opening through getEngine().
  void bootEngine();
}

/**
 * One JSON line on stderr per server error. The digest is the one Next.js sends to the browser
 * (it is set on the error before this hook runs), so the fallback's "Digest:" finds the log line.
 */
export const onRequestError: Instrumentation.onRequestError = (error, request, context) => {
  if (alreadyLogged(error, `${request.method} ${request.path}`)) return;
  const line = JSON.stringify({
    level: 'error',
    msg: 'request failed',
    digest: digestOf(error),
    // Never the query string or an invitation's token: a log holds no secret (log-secrets.ts).
    path: loggablePath(request.path),
    method: request.method,
    routerKind: context.routerKind,
    routePath: context.routePath,
    routeType: context.routeType,
    error: error instanceof Error ? error.message : String(error),
  });
  if (process.env.NEXT_RUNTIME === 'nodejs') process.stderr.write(`${line}\n`);
  else console.error(line);
};

function digestOf(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'digest' in error && typeof error.digest === 'string') return error.digest;
  return undefined;
}

/**
 * Next.js reports an error once per place it surfaced (a layout and its metadata awaiting the
 * same failed promise, say); the log gets it once per request path.
 */
const logged = new WeakMap<object, Set<string>>();

function alreadyLogged(error: unknown, key: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const keys = logged.get(error) ?? new Set<string>();
  if (keys.has(key)) return true;
  keys.add(key);
  logged.set(error, keys);
  return false;
}
