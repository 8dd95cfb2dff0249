import type { RequestPlace } from '@/api/build-routes.mjs';
import { CLIENT_IP_HEADER } from '@/api/client-address.mjs';
import { readCookie, SESSION_COOKIE } from '@/api/credentials';
import { doorPage, wantsPage } from '@/api/door-refusal.mjs';
import { problemType } from '@/api/problem';
import { FixedWindowLimiter, rateLimitHeaders, type RateLimitOutcome } from '@/api/rate-limit';
import { visitorsWelcome } from '@/engine/access/policy';
import type { Engine } from '@/engine/engine';
import { BUILT_IN_ERRORS } from '@/engine/errors/catalogue';
import { resolveLimits } from '@/engine/limits';
import type { AppModel } from '@/engine/spec/model';
import type { OutageAnswer, OutageRequest } from './outage';

/**
 * Visitors' page requests (and server-action posts), counted per client address. When the spec
 * lets visitors in, anyone may ask for pages without signing in, and each such page costs the
 * database queries that a signed-in page costs: so, like the API's visitors (src/api/handler.ts),
 * they are limited per address, here by `npm start`'s server (scripts/server.mjs) before Next.js,
 * after the outage door. The API keeps its own counters (/api/v1 is not counted here); signed-in
 * users are never counted here. A spec without `public` grants registers no door: nothing changes.
 */
export const VISITOR_DOOR = Symbol.for('ninefold.visitorDoor');

/**
 * Null: let the request through. A promise while a session cookie is being checked. `place` is
 * where scripts/server.mjs found the request goes: its normalised path, the one Next.js serves.
 */
export type VisitorDoor = (request: OutageRequest, place: RequestPlace) => OutageAnswer | null | Promise<OutageAnswer | null>;

/** Whether a session token names a live session (the identity's cached read). */
export type SessionCheck = (token: string) => Promise<boolean>;

/**
 * Requests this door leaves alone: the API (its own limits), health, and the build's own files. A
 * made-up address that only looks like a file (`/_next/x`, `/x.css`) renders the 404 page: counted.
 */
function notCounted(place: RequestPlace): boolean {
  return place.kind === 'api' || place.kind === 'file' || place.path === '/api/health';
}

/** The 429 for one refused request: a page for a browser, problem+json for a script (exported for tests). */
export function rateLimitedAnswer(request: OutageRequest, outcome: RateLimitOutcome): OutageAnswer {
  const { status, title, message } = BUILT_IN_ERRORS.RATE_LIMITED;
  // The API's words for the same refusal (src/api/handler.ts).
  const detail = `Too many requests: at most ${outcome.limit} a minute. Try again in ${outcome.resetSeconds} s.`;
  const headers: Record<string, string> = {
    'retry-after': String(outcome.resetSeconds),
    'cache-control': 'no-store',
    ...Object.fromEntries(Object.entries(rateLimitHeaders([outcome])).map(([name, value]) => [name.toLowerCase(), value])),
  };
  if (!wantsPage(request.headers)) {
    const problem = { type: problemType('RATE_LIMITED'), title, status, detail, code: 'RATE_LIMITED' };
    return { status, headers: { ...headers, 'content-type': 'application/problem+json; charset=utf-8' }, body: JSON.stringify(problem) };
  }
  // No script: the page reloads itself once the window has ended.
  const body = doorPage({
    status,
    title,
    paragraphs: [message, detail],
    link: { href: '', label: 'Try again' },
    refreshSeconds: outcome.resetSeconds,
  });
  return { status, headers: { ...headers, 'content-type': 'text/html; charset=utf-8' }, body };
}

function headerText(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join('; ') : value;
}

/**
 * The door for one model; null when the spec lets no visitor in. A request with a session cookie
 * is counted only when the cookie names no live session: otherwise any made-up cookie would slip
 * past the limit (the check is the identity's cached read, which the page makes anyway).
 */
export function visitorDoor(model: AppModel, sessionIsLive: SessionCheck, now: () => number = Date.now): VisitorDoor | null {
  if (!visitorsWelcome(model)) return null;
  const limiter = new FixedWindowLimiter('visitor', resolveLimits(model).rateLimitPerMinutePerIp, 60_000, 50_000, now);
  const count = (request: OutageRequest): OutageAnswer | null => {
    const address = headerText(request.headers[CLIENT_IP_HEADER]) ?? 'unknown';
    const outcome = limiter.hit(address);
    return outcome.allowed ? null : rateLimitedAnswer(request, outcome);
  };
  return (request, place) => {
    if (notCounted(place)) return null;
    const token = readCookie(headerText(request.headers.cookie), SESSION_COOKIE);
    if (token === null) return count(request);
    return sessionIsLive(token).then(
      (live) => (live ? null : count(request)),
      // The database cannot say: the page will meet the same trouble and report it itself.
      () => null,
    );
  };
}

/** Puts this engine's visitor door where scripts/server.mjs looks for it (or removes it when visitors are not welcome). */
export function registerVisitorDoor(engine: Pick<Engine, 'model' | 'identity'>): void {
  const door = visitorDoor(engine.model, async (token) => (await engine.identity.actorForSession(token)) !== null);
  const doors = globalThis as Record<symbol, unknown>;
  if (door) doors[VISITOR_DOOR] = door;
  else delete doors[VISITOR_DOOR];
}
