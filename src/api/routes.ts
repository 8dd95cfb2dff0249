import type { Engine } from '@/engine/engine';
import { NinefoldError } from '@/engine/errors/ninefold-error';
import type { Limits } from '@/engine/limits';
import type { Actor } from '@/engine/ground/actor';
import type { Credentials } from './credentials';

export const API_PREFIX = '/api/v1';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How the door reached this request: the client's address and the application's own origin. */
export interface ApiContext {
  /** For the per-address rate limit. */
  readonly clientIp: string;
  /** "https://desk.example.com": what a browser's Origin header must equal on cookie-authenticated changes. */
  readonly origin: string;
}

/** One request, as a route handler sees it. */
export interface ApiRequest {
  readonly engine: Engine;
  readonly request: Request;
  readonly url: URL;
  readonly limits: Limits;
  readonly context: ApiContext;
  readonly credentials: Credentials;
  /** The caller; never null on routes with access 'signedIn'. */
  readonly actor: Actor | null;
  /** Path parameters by name, as sent (decoded, not yet typed). */
  readonly params: Readonly<Record<string, string>>;
}

export interface Route {
  readonly method: Method;
  /** Literal segments, and parameters as { param } (one whole segment each). */
  readonly path: readonly (string | { readonly param: string })[];
  /**
   * signedIn: a valid session cookie or API token, else 401. public: none needed (credentials
   * are not even read). optional: whatever is sent is used as it is (sign-out).
   */
  readonly access: 'signedIn' | 'public' | 'optional';
  /**
   * On a signedIn route: the spec grants the `public` role this operation, so a request with no
   * credentials at all acts as the visitor (ops still decides what it may see) instead of 401.
   */
  readonly visitors?: boolean;
  /** Sign-in has no session yet, so there is nothing for a cross-site request to abuse. */
  readonly originCheck: boolean;
  readonly run: (request: ApiRequest) => Promise<Response>;
}

/** The caller of a signed-in route. */
export function actorOf(request: ApiRequest): Actor {
  if (!request.actor) throw new NinefoldError('UNAUTHENTICATED');
  return request.actor;
}

/** "/tickets/{id}/escalate" → ['tickets', { param: 'id' }, 'escalate']. */
export function parsePathTemplate(template: string): Route['path'] {
  return template
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      const param = /^\{([^}]+)\}$/.exec(segment)?.[1];
      return param ? { param } : segment;
    });
}

/**
 * More specific first: at the first segment where two paths differ, a literal beats a parameter,
 * so "/tickets/mine" is tried before "/tickets/{id}". Otherwise the order given is kept.
 */
export function sortRoutes(routes: readonly Route[]): Route[] {
  const rank = (route: Route) => route.path.map((segment) => (typeof segment === 'string' ? '0' : '1')).join('');
  return routes
    .map((route, index) => ({ route, index, rank: rank(route) }))
    .sort((a, b) => (a.rank === b.rank ? a.index - b.index : a.rank < b.rank ? -1 : 1))
    .map((entry) => entry.route);
}

export interface RouteMatch {
  readonly route: Route;
  readonly params: Readonly<Record<string, string>>;
}

/** Every route whose path matches the segments (of any method), most specific first. */
export function matchRoutes(routes: readonly Route[], segments: readonly string[]): RouteMatch[] {
  const matches: RouteMatch[] = [];
  for (const route of routes) {
    if (route.path.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const fits = route.path.every((part, index) => {
      const segment = segments[index];
      if (typeof part === 'string') return part === segment;
      // Never undefined: the lengths are equal.
      if (segment === undefined) return false;
      params[part.param] = segment;
      return true;
    });
    if (fits) matches.push({ route, params });
  }
  return matches;
}

/** The Allow header of a path: its methods, HEAD with GET, and OPTIONS. */
export function allowedMethods(matches: readonly RouteMatch[]): string {
  const methods = new Set<string>(matches.map((m) => m.route.method));
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  const order = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
  return [...methods].sort((a, b) => order.indexOf(a) - order.indexOf(b)).join(', ');
}
