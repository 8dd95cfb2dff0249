import type { RouteModel, RouteSegment, RouteShowModel } from './route-model';
import { PUBLIC_ROLE } from '../../access/visitor';
import type { EntityModel } from '../model';
import type { AppSpec, RouteSpec } from '../types';
import { parsePathParam, type PathParamValue } from '../path-params';
import { buildWidgets } from './home';
import { declaredValue } from '../own-names';

/**
 * Custom routes of `screens.routes`, checked by validate/routes.ts before they are built here.
 * The engine only describes them; the pages door (src/server/custom-routes.ts) matches addresses
 * against their segments and renders what they show.
 */

export function buildRoutes(spec: AppSpec, entitiesByName: Readonly<Record<string, EntityModel>>): readonly RouteModel[] {
  return Object.entries(spec.screens?.routes ?? {}).map(([name, route]) => buildRoute(name, route, entitiesByName));
}

/** The segments of a path: "/organizations/{id}/open" → organizations, {id}, open. */
export function pathSegments(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

/** "{id}" → "id"; null for a fixed word. */
export function paramName(segment: string): string | null {
  const match = /^\{([^{}]+)\}$/.exec(segment);
  return match?.[1] ?? null;
}

function buildRoute(name: string, route: RouteSpec, entitiesByName: Readonly<Record<string, EntityModel>>): RouteModel {
  const params = route.params ?? {};
  return {
    name,
    path: route.path,
    segments: pathSegments(route.path).map((segment): RouteSegment => {
      const param = paramName(segment);
      return param === null
        ? { kind: 'literal', value: segment }
        : { kind: 'param', name: param, type: declaredValue(params, param, 'route parameter') };
    }),
    title: route.title,
    description: route.description ?? null,
    roles: route.roles ?? null,
    navigation: route.navigation ?? false,
    show: buildShow(route.show, entitiesByName),
  };
}

function buildShow(show: RouteSpec['show'], entitiesByName: Readonly<Record<string, EntityModel>>): RouteShowModel {
  if ('list' in show)
    return { kind: 'list', entity: show.list, where: show.where ?? null, sort: show.sort ?? null, columns: show.columns ?? null };
  if ('record' in show) return { kind: 'record', entity: show.record, idParam: show.id };
  if ('widgets' in show) return { kind: 'widgets', widgets: buildWidgets(show.widgets, entitiesByName) };
  return { kind: 'component', component: show.component };
}

/** A route matched by an address, with its parameters parsed to their types. */
export interface RouteMatch {
  readonly route: RouteModel;
  readonly params: Readonly<Record<string, PathParamValue>>;
}

/**
 * The route an address (its segments, decoded) opens, or null. A parameter that does not parse
 * to its type does not match, so a wrong value is a plain "not found". Where a fixed word and a
 * parameter could both take a segment, the route with more fixed words wins.
 */
export function matchRoute(routes: readonly RouteModel[], segments: readonly string[]): RouteMatch | null {
  const candidates = routes.filter((route) => route.segments.length === segments.length).sort((a, b) => literalCount(b) - literalCount(a));
  for (const route of candidates) {
    const params: Record<string, PathParamValue> = {};
    const matches = route.segments.every((segment, index) => {
      if (segment.kind === 'literal') return segment.value === segments[index];
      const given = segments[index];
      // The candidates have as many segments as the address.
      if (given === undefined) return false;
      const value = parsePathParam(segment.name, segment.type, given);
      if (typeof value === 'object') return false;
      params[segment.name] = value;
      return true;
    });
    if (matches) return { route, params };
  }
  return null;
}

function literalCount(route: RouteModel): number {
  return route.segments.filter((s) => s.kind === 'literal').length;
}

/**
 * Whether a user with these roles may open the route. Only visitors hold `public` (no user is
 * given it): they open the routes that name it, and nothing else; every signed-in user opens them too.
 */
export function mayOpenRoute(route: RouteModel, roles: readonly string[]): boolean {
  if (roles.includes(PUBLIC_ROLE)) return route.roles?.includes(PUBLIC_ROLE) ?? false;
  return route.roles === null || route.roles.some((role) => role === PUBLIC_ROLE || roles.includes(role));
}
