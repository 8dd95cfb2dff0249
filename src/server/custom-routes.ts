import 'server-only';
import { forbidden, notFound } from 'next/navigation';
import type { Engine } from '@/engine/engine';
import type { Actor } from '@/engine/ops/types';
import { matchRoute, mayOpenRoute, type RouteMatch } from '@/engine/spec/screens/routes';
import { getEngine } from './engine';
import { requireActor } from './session';

/** A custom route opened by a signed-in user allowed to: what its page renders from. */
export interface OpenedRoute extends RouteMatch {
  readonly engine: Engine;
  readonly actor: Actor;
}

/** The custom route at these address segments, or a 404 (no route, or a parameter of the wrong type). */
export async function customRouteOrNotFound(segments: readonly string[]): Promise<RouteMatch & { readonly engine: Engine }> {
  const engine = await getEngine();
  const match = matchRoute(engine.model.routes, segments);
  if (!match) notFound();
  return { engine, ...match };
}

/**
 * Opens a custom route like any other page: unknown addresses are a 404 for everyone, a signed-out
 * visitor is sent to sign in (and back to `returnTo`), a role the route does not name gets the 403 page.
 */
export async function openCustomRoute(segments: readonly string[], returnTo: string): Promise<OpenedRoute> {
  const match = await customRouteOrNotFound(segments);
  const actor = await requireActor(returnTo);
  if (!mayOpenRoute(match.route, actor.roles)) forbidden();
  return { ...match, actor };
}

/** Whether a first address segment is an entity's list; any other may be a custom route. */
export async function isEntityPlural(plural: string): Promise<boolean> {
  const engine = await getEngine();
  return Object.hasOwn(engine.model.entitiesByPlural, plural);
}
