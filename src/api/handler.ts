import { inboxRoutes } from './inbox';
import type { Engine } from '@/engine/engine';
import { asNinefoldError, NinefoldError } from '@/engine/errors/ninefold-error';
import { resolveLimits, type Limits } from '@/engine/limits';
import { visitorActor } from '@/engine/access/visitor';
import type { Actor } from '@/engine/ground/actor';
import { authRoutes } from './auth-routes';
import { callRoute } from './calls';
import { credentialKey, isSameOrigin, readCredentials, type Credentials } from './credentials';
import { buildOpenApiDocument } from './openapi/document';
import { logLine } from './log';
import { problemResponse } from './problem';
import { FixedWindowLimiter, rateLimitHeaders, type RateLimitOutcome } from './rate-limit';
import { recordRoutes } from './records';
import { fileRoutes } from './files';
import { hasFileFields } from '@/engine/spec/file-fields';
import { workflowRoutes } from './workflow';
import { bulkRoutes } from './bulk';
import { webhookRoutes } from './webhooks';
import { allowedMethods, API_PREFIX, matchRoutes, sortRoutes, type ApiContext, type Route, type RouteMatch } from './routes';

export type { ApiContext } from './routes';

/**
 * The REST door: every request under /api/v1, over web-standard Request and Response (no
 * framework). It resolves the caller, calls one engine operation and serialises the result;
 * access, validation and workflow are the engine's.
 */

/** What the API keeps per engine: its routes, limits and rate-limit counters. */
interface ApiState {
  readonly routes: readonly Route[];
  readonly limits: Limits;
  readonly perUser: FixedWindowLimiter;
  readonly perIp: FixedWindowLimiter;
  /** Visitors' requests (no credentials, an operation the public is granted): per address, apart from perIp. */
  readonly perVisitorIp: FixedWindowLimiter;
  openApi?: string;
}

const states = new WeakMap<Engine, ApiState>();

function stateOf(engine: Engine): ApiState {
  let state = states.get(engine);
  if (!state) {
    const limits = resolveLimits(engine.model);
    const routes: Route[] = [
      // Custom calls first: among equally specific paths they win for their own method.
      ...Object.entries(engine.model.calls).map(([name, call]) => callRoute(engine.model, name, call)),
      ...engine.model.entities.flatMap((entity) => [...recordRoutes(entity), ...bulkRoutes(entity), ...workflowRoutes(entity)]),
      ...authRoutes,
      ...(engine.model.webhooks.length > 0 ? webhookRoutes : []),
      ...(engine.model.notifications.length > 0 ? inboxRoutes : []),
      ...(hasFileFields(engine.model) ? fileRoutes(engine.model) : []),
      {
        method: 'GET',
        path: ['openapi.json'],
        access: 'public',
        originCheck: false,
        run: async ({ engine: e }) => {
          const current = stateOf(e);
          current.openApi ??= JSON.stringify(buildOpenApiDocument(e.model));
          return new Response(current.openApi, { headers: { 'content-type': 'application/json; charset=utf-8' } });
        },
      },
    ];
    state = {
      routes: sortRoutes(routes),
      limits,
      perUser: new FixedWindowLimiter('default', limits.rateLimitPerMinute),
      perIp: new FixedWindowLimiter('ip', limits.rateLimitPerMinutePerIp),
      perVisitorIp: new FixedWindowLimiter('visitor', limits.rateLimitPerMinutePerIp),
    };
    states.set(engine, state);
  }
  return state;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The path under /api/v1 as decoded segments; null when it is not one (or cannot be decoded). */
function apiSegments(pathname: string): string[] | null {
  if (pathname !== API_PREFIX && !pathname.startsWith(`${API_PREFIX}/`)) return null;
  const rest = pathname.slice(API_PREFIX.length + 1);
  if (rest === '') return null;
  try {
    const segments = rest.split('/').map((segment) => decodeURIComponent(segment));
    return segments.some((segment) => segment === '') ? null : segments;
  } catch {
    return null;
  }
}

function rateLimited(outcome: RateLimitOutcome): NinefoldError {
  return new NinefoldError('RATE_LIMITED', `Too many requests: at most ${outcome.limit} a minute. Try again in ${outcome.resetSeconds} s.`);
}

function unauthenticated(credentials: Credentials): Response {
  const detail =
    credentials.kind === 'none'
      ? 'Sign in, or send an API token as "Authorization: Bearer <token>".'
      : credentials.kind === 'cookie'
        ? 'The session has ended; sign in again.'
        : 'The API token is not valid (malformed, unknown, expired or revoked).';
  const challenge =
    credentials.kind === 'bearer' || credentials.kind === 'malformed' ? 'Bearer realm="api", error="invalid_token"' : 'Bearer realm="api"';
  return problemResponse(new NinefoldError('UNAUTHENTICATED', detail), { headers: { 'www-authenticate': challenge } });
}

async function resolveActor(engine: Engine, credentials: Credentials): Promise<Actor | null> {
  if (credentials.kind === 'bearer') return engine.identity.actorForApiToken(credentials.token);
  if (credentials.kind === 'cookie') return engine.identity.actorForSession(credentials.token);
  return null;
}

/** Routes the request to its handler; every refusal is a problem response (see handleApiRequest). */
async function route(
  engine: Engine,
  state: ApiState,
  request: Request,
  url: URL,
  context: ApiContext,
  counted: RateLimitOutcome[],
): Promise<Response> {
  const segments = apiSegments(url.pathname);
  const matches: RouteMatch[] = segments ? matchRoutes(state.routes, segments) : [];
  const method = request.method.toUpperCase();
  const match = matches.find((m) => m.route.method === (method === 'HEAD' ? 'GET' : method));
  const visitor = match?.route.access === 'signedIn' && match.route.visitors === true && readCredentials(request.headers).kind === 'none';
  // Visitors count per address in a window of their own: a crowd of readers behind one address
  // cannot use up what its signed-in users may send, nor the reverse (each window is bounded,
  // so an address gets at most twice the per-address limit). Everything else counts as before.
  const ip = (visitor ? state.perVisitorIp : state.perIp).hit(context.clientIp);
  counted.push(ip);
  if (!ip.allowed) throw rateLimited(ip);

  if (matches.length === 0)
    throw new NinefoldError('NOT_FOUND', `There is no ${url.pathname} in this API; see ${API_PREFIX}/openapi.json.`);
  const allow = allowedMethods(matches);
  if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow } });
  if (!match) {
    return problemResponse(new NinefoldError('METHOD_NOT_ALLOWED', `${method} is not allowed here; allowed: ${allow}.`), {
      headers: { allow },
    });
  }
  const { route: found, params } = match;

  const credentials: Credentials = found.access === 'public' ? { kind: 'none' } : readCredentials(request.headers);
  if (found.originCheck && credentials.kind === 'cookie' && UNSAFE.has(method) && !isSameOrigin(request.headers, context.origin)) {
    logLine('warn', 'access refused', { code: 'FORBIDDEN', reason: 'cross-site', method, path: url.pathname });
    throw new NinefoldError(
      'FORBIDDEN',
      'Cross-site request refused: a change made with the session cookie must come from this application (Origin header).',
    );
  }
  let actor: Actor | null = null;
  if (visitor) actor = visitorActor();
  else if (found.access === 'signedIn') {
    actor = credentials.kind === 'malformed' ? null : await resolveActor(engine, credentials);
    if (!actor) return unauthenticated(credentials);
    const user = state.perUser.hit(credentialKey(credentials, actor.userId));
    counted.unshift(user);
    if (!user.allowed) throw rateLimited(user);
  }
  return found.run({ engine, request, url, limits: state.limits, context, credentials, actor, params });
}

/**
 * Answers one request under /api/v1. Never throws: a client's mistake is a 4xx problem, anything
 * unexpected a 500 INTERNAL problem with a digest that the server's log line carries too.
 */
export async function handleApiRequest(engine: Engine, request: Request, context: ApiContext): Promise<Response> {
  const counted: RateLimitOutcome[] = [];
  let response: Response;
  let url: URL | null = null;
  try {
    url = new URL(request.url);
    const state = stateOf(engine);
    response = await route(engine, state, request, url, context, counted);
  } catch (error) {
    // A request limit of this door, or one the engine applies itself (sign-in attempts).
    const retryAfter = counted.find((o) => !o.allowed)?.resetSeconds ?? asNinefoldError(error)?.retryAfterSeconds;
    response = problemResponse(error, {
      catalogue: engine.model.errors,
      headers: retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : {},
      log: { method: request.method, path: url?.pathname ?? null },
    });
  }
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(rateLimitHeaders(counted))) headers.set(name, value);
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
  headers.set('x-content-type-options', 'nosniff');
  const body = request.method.toUpperCase() === 'HEAD' || response.status === 204 ? null : response.body;
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}
