import 'server-only';
import { forbidden, notFound } from 'next/navigation';
import type { Engine } from '@/engine/engine';
import type { Actor } from '@/engine/ground/actor';
import { matchRoute, mayOpenRoute, type RouteMatch } from '@/engine/spec/screens/routes';
import { getEngine } from './engine';
import { requireViewer, signInIfVisitor } from './viewer';

/** What an address's segments open: the route, its typed parameters and the address itself, re-encoded. */
export interface FoundRoute extends RouteMatch {
  readonly engine: Engine;
  readonly address: string;
}

/** A custom route opened by a signed-in user allowed to: what its page renders from. */
export interface OpenedRoute extends FoundRoute {
  readonly actor: Actor;
}

/**
 * The custom route at these address segments as Next.js hands them over (still percent-encoded),
 * or a 404: no route, a parameter of the wrong type, or a segment that is not valid encoding.
 */
export async function customRouteOrNotFound(rawSegments: readonly string[]): Promise<FoundRoute> {
  const decoded: string[] = [];
  for (const raw of rawSegments) {
    const segment = decodeSegment(raw);
    if (segment === null) notFound();
    decoded.push(segment);
  }
  const engine = await getEngine();
  const match = matchRoute(engine.model.routes, decoded);
  if (!match) notFound();
  return { engine, ...match, address: `/${decoded.map(encodeURIComponent).join('/')}` };
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * Opens a custom route like any other page: unknown addresses are a 404 for everyone, a
 * signed-out visitor is sent to sign in (and back to the address with its `search`), a role the
 * route does not name gets the 403 page.
 */
export async function openCustomRoute(rawSegments: readonly string[], search: string): Promise<OpenedRoute> {
  const match = await customRouteOrNotFound(rawSegments);
  const actor = await requireViewer(`${match.address}${search}`);
  if (!mayOpenRoute(match.route, actor.roles)) {
    // A visitor at a route not named for `public` is sent to sign in, like at any other page.
    signInIfVisitor(actor, `${match.address}${search}`);
    forbidden();
  }
  return { ...match, actor };
}

/** Whether a first address segment is an entity's list; any other may be a custom route. */
export async function isEntityPlural(plural: string): Promise<boolean> {
  const engine = await getEngine();
  return Object.hasOwn(engine.model.entitiesByPlural, plural);
}
