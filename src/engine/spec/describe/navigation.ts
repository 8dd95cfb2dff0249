import type { AppModel } from '../model';
import { code } from './text';

/** Who sees which entry of the navigation, as src/server/navigation.ts derives it. */
export function navigationText(model: AppModel): string {
  return [
    'Each user sees the entries they may open: routes their roles may open, and lists they may read.',
    `An entity a user lists only through a reference to another record (a scope with ${code('via')} alone) is met on that record's page instead, so it is not in their navigation (its list still answers at its address).`,
    `Spec and API are there for ${model.documentation.roles.join(', ')}, Users for administrators.`,
    `Under a list, its saved views: the user's own and those an administrator shared with one of their roles (read-only for them), managed at ${code('/views')}.`,
  ].join(' ');
}

/** Who may read this very document and the API reference, as /spec and /api/docs enforce it. */
export function documentationText(model: AppModel): string {
  return [
    `This document is served at ${code('/spec')}, and the API reference at ${code('/api/docs')}, to ${model.documentation.roles.join(', ')} (${code('screens.documentation')});`,
    'other signed-in users get the 403 page, and visitors are sent to sign in.',
    `The machine-readable ${code('/api/v1/openapi.json')} is served to every API client: it gives the shapes of requests and answers, never a record.`,
  ].join(' ');
}
