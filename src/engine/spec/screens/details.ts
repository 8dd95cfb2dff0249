import type { AppSpec } from '../types';

/** A detail page's sections of related records (filled in by the related-records work). */
export interface DetailModel {
  readonly related: readonly unknown[];
}

export function buildDetails(_spec: AppSpec, _entityName: string): DetailModel {
  return { related: [] };
}
