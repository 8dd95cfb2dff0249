import type { AppSpec } from '../types';

/** The home page's widgets (filled in by the home work). */
export interface HomeModel {
  readonly widgets: readonly unknown[];
}

export function buildHome(_spec: AppSpec): HomeModel | null {
  return null;
}
