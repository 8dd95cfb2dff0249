import 'server-only';
import { isVisitor } from '@/engine/access/visitor';
import type { Engine } from '@/engine/engine';
import type { Actor } from '@/engine/ground/actor';
import { mayReadDocumentation } from '@/engine/spec/screens/documentation';
import { mayOpenRoute } from '@/engine/spec/screens/routes';
import { openableViewsByEntity, type OpenableView } from './views';
import { isAdmin } from '@/engine/access/policy';

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
 *
 * Each user sees only what they use: an entity the actor lists only through a parent (a
 * customer's comments, through their tickets) is met on the parent's page, not in the bar (its
 * list still answers at its address, within the same access); the documents are for the roles of
 * `screens.documentation`.
 */
export async function navigationFor(engine: Engine, actor: Actor): Promise<NavigationEntry[]> {
  const { model, ops } = engine;
  const documentation = mayReadDocumentation(model.documentation, actor.roles);
  // Saved views are an account's; a visitor has none.
  const views = isVisitor(actor) ? new Map<string, OpenableView[]>() : await openableViewsByEntity(engine, actor);
  return [
    ...model.routes
      .filter((route) => route.navigation && mayOpenRoute(route, actor.roles))
      .map((route) => ({ href: route.path, label: route.title })),
    ...model.navigation
      .filter((entity) => {
        const access = ops.access(actor, entity.name);
        return access.actions.list && access.listedVia === null;
      })
      .map((entity) => {
        const children = (views.get(entity.name) ?? []).map(({ view, href }) => ({ href, label: view.name }));
        return { href: `/${entity.plural}`, label: entity.pluralLabel, ...(children.length > 0 ? { children } : {}) };
      }),
    ...(documentation
      ? [
          { href: '/spec', label: 'Spec' },
          { href: '/api/docs', label: 'API' },
        ]
      : []),
    ...(isAdmin(actor) ? [{ href: '/admin/users', label: 'Users' }] : []),
    ...(isAdmin(actor) && model.webhooks.length > 0 ? [{ href: '/admin/webhooks', label: 'Webhooks' }] : []),
  ];
}
