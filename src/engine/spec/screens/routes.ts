import type { AppSpec } from '../types';

/** A custom route of `screens.routes` (filled in by the custom-routes work). */
export interface RouteModel {
  readonly name: string;
}

export function buildRoutes(_spec: AppSpec): readonly RouteModel[] {
  return [];
}
