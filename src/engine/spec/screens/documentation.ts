import type { AppSpec } from '../types';
import { ADMIN_ROLE } from '../../ground/admin-role';

/**
 * Who may read the documents that describe the whole product — the spec (/spec) and the API
 * reference (/api/docs) — with every role's permissions and every field, internal ones included.
 * Checked by validate/documentation.ts; the pages door enforces it, the navigation follows it.
 */
export interface DocumentationModel {
  /** The roles that may read them; by default the built-in administrators. */
  readonly roles: readonly string[];
}

export const DEFAULT_DOCUMENTATION_ROLES: readonly string[] = [ADMIN_ROLE];

export function buildDocumentation(spec: AppSpec): DocumentationModel {
  return { roles: spec.screens?.documentation?.roles ?? DEFAULT_DOCUMENTATION_ROLES };
}

/** Whether a user with these roles may read the spec and the API reference. */
export function mayReadDocumentation(documentation: DocumentationModel, roles: readonly string[]): boolean {
  return documentation.roles.some((role) => roles.includes(role));
}
