import 'server-only';
import type { Engine } from '@/engine/engine';
import type { Actor } from '@/engine/ops/types';
import { mayOpenRoute } from '@/engine/spec/screens/routes';

/** A place in the main navigation; `children` sit under it (an entity's saved views). */
export interface NavigationEntry {
  readonly href: string;
  readonly label: string;
  readonly children?: readonly NavigationEntry[];
}

/**
 * Where the actor may go, in the order the navigation shows it: the spec's routes, the entities
 * whose lists the actor may open, the spec and API documents, and the administrator's pages.
 * One list for the navigation bar and the command palette, so they never disagree.
 */
export async function navigationFor(engine: Engine, actor: Actor): Promise<NavigationEntry[]> {
  const { model, ops } = engine;
  return [
    ...model.routes.filter((route) => route.navigation && mayOpenRoute(route, actor.roles)).map((route) => ({ href: route.path, label: route.title })),
    ...model.navigation
      .filter((entity) => ops.access(actor, entity.name).actions.list)
      .map((entity) => ({ href: `/${entity.plural}`, label: entity.pluralLabel })),
    { href: '/spec', label: 'Spec' },
    { href: '/api/docs', label: 'API' },
    ...(actor.roles.includes('admin') ? [{ href: '/admin/users', label: 'Users' }] : []),
  ];
}
