import type { Engine } from '@/engine/engine';
import { BUILT_IN_ERRORS } from '@/engine/errors/catalogue';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '@/engine/store/unavailable';
import type { RequestPlace } from '@/api/build-routes.mjs';
import { doorPage } from '@/api/door-refusal.mjs';
import { problemType } from './problem';

/**
 * While the database is known to be down, `npm start`'s server (scripts/server.mjs) answers here,
 * before Next.js: a page cannot set its own status in the App Router, and rendering one only to
 * meet the same connection error would show the generic "Application error" fallback. The state
 * is the store's (src/engine/store/availability.ts): set by a confirmed connection error, cleared
 * by the next successful probe (every 2 s) or query. The request that finds the outage out is
 * already in Next.js: the API answers it 503 with Retry-After, and a page's 500 is replaced by this
 * door's 503 once the probe it started confirms the outage (src/api/outage-errors.mjs).
 */
export const OUTAGE_DOOR = Symbol.for('ninefold.outageDoor');

/** The part of a Node request this door reads. */
export interface OutageRequest {
  readonly url?: string;
  readonly method?: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

export interface OutageAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * Null: let the request through. A promise while a probe decides whether the database is down.
 * `place` is where scripts/server.mjs found the request goes (its normalised path).
 */
export type OutageDoor = (request: OutageRequest, place: RequestPlace) => OutageAnswer | null | Promise<OutageAnswer | null>;

/** Requests that need no database, or report the outage themselves: left to their handler. */
function passesThrough(place: RequestPlace): boolean {
  // Health says what is unreachable itself; the build's files need no database.
  return place.path === '/api/health' || place.kind === 'file';
}

/**
 * A page address gets a page; a script gets problem+json: the API, the live stream, a client-side
 * navigation or server action (Next.js's own headers), and a client that asks for JSON only.
 */
function wantsPage(request: OutageRequest, pathname: string): boolean {
  if (pathname.startsWith('/api/')) return false;
  const { headers } = request;
  if (headers['next-action'] !== undefined || headers.rsc !== undefined) return false;
  const accept = String(headers.accept ?? '');
  return accept.includes('text/html') || !accept.includes('json');
}

/** The answer for one request while the database cannot be reached (exported for tests). */
export function outageAnswer(request: OutageRequest, place: RequestPlace): OutageAnswer | null {
  if (passesThrough(place)) return null;
  const pathname = place.path;
  const { status, title, message } = BUILT_IN_ERRORS.SERVICE_UNAVAILABLE;
  const headers: Record<string, string> = {
    'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
    'cache-control': 'no-store',
  };
  if (!wantsPage(request, pathname)) {
    const problem = { type: problemType('SERVICE_UNAVAILABLE'), title, status, detail: message, code: 'SERVICE_UNAVAILABLE' };
    return { status, headers: { ...headers, 'content-type': 'application/problem+json; charset=utf-8' }, body: JSON.stringify(problem) };
  }
  // No script: the page reloads itself (a GET of the same address) after Retry-After.
  const body = doorPage({
    status,
    title,
    paragraphs: [message],
    link: { href: '', label: 'Try again' },
    refreshSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
  });
  return { status, headers: { ...headers, 'content-type': 'text/html; charset=utf-8' }, body };
}

/** Puts this engine's outage door where scripts/server.mjs looks for it. */
export function registerOutageDoor(engine: Pick<Engine, 'availability'>): void {
  const { availability } = engine;
  const door: OutageDoor = (request, place) => {
    if (availability.down) return outageAnswer(request, place);
    // The database went quiet and a probe is deciding: the first pages of an outage get the
    // 503 page too, instead of rendering only to meet the same silence and fail with a 500.
    const checking = availability.checking;
    if (checking === null || outageAnswer(request, place) === null) return null;
    return checking.then(() => (availability.down ? outageAnswer(request, place) : null));
  };
  (globalThis as Record<symbol, unknown>)[OUTAGE_DOOR] = door;
}
