import { SYSTEM_COLUMNS } from '../build';
import type { DocBlock } from '../document';
import type { AppModel, EntityModel } from '../model';
import type { RouteModel, RouteShowModel } from '../screens/route-model';
import { code, conditionText } from './text';
import { inSentence } from '../naming';
import { declaredValue } from '../own-names';
import { widgetAudience } from './home';

/**
 * The custom routes of `screens.routes` in words: their address, who may open them and what
 * they show, exactly as src/app/[plural]/custom-route-page.tsx renders them.
 */
export function routeBlocks(model: AppModel): DocBlock[] {
  if (model.routes.length === 0) return [];
  return [
    { kind: 'heading', text: 'Custom routes' },
    {
      kind: 'table',
      columns: ['Route', 'Title', 'Who may open it', 'Shows'],
      rows: model.routes.map((route) => [addressText(route), titleText(route), whoText(route), showText(model, route.show)]),
    },
    {
      kind: 'paragraph',
      text: `A parameter of the wrong type (a word for an integer) is "not found"; a signed-out visitor is sent to sign in${model.routes.some((r) => r.roles?.includes('public')) ? ` (except on the routes that name ${code('public')})` : ''}; a user whose roles may not open the route gets the 403 page.`,
    },
  ];
}

function addressText(route: RouteModel): string {
  const params = route.segments.flatMap((s) => (s.kind === 'param' ? [`${s.name}: ${s.type}`] : []));
  return `${code(route.path)}${params.length > 0 ? ` (${params.join(', ')})` : ''}`;
}

function titleText(route: RouteModel): string {
  const title = route.navigation ? `${route.title} (in the navigation)` : route.title;
  return route.description ? `${title}: ${route.description}` : title;
}

/** The navigation's links to routes, first in the navigation: `My queue: /queue (agent, admin)`. */
export function routeNavigationItems(model: AppModel): string[] {
  return model.routes.filter((r) => r.navigation).map((r) => `${r.title}: ${code(r.path)} (${whoText(r)})`);
}

function whoText(route: RouteModel): string {
  if (route.roles === null) return 'every signed-in user';
  return route.roles.includes('public') ? 'anyone, signed in or not' : route.roles.join(', ');
}

function showText(model: AppModel, show: RouteShowModel): string {
  switch (show.kind) {
    case 'list': {
      const entity = declaredValue(model.entitiesByName, show.entity, 'entity');
      const sort = show.sort ?? (entity.list.sort.direction === 'desc' ? `-${entity.list.sort.field}` : entity.list.sort.field);
      const columns = show.columns ?? entity.list.columns;
      return [
        `${entity.pluralLabel}${show.where ? ` where ${conditionText(show.where, entity)}` : ''}, sorted by ${columnLabel(entity, sort.replace(/^-/, ''))}, ${sort.startsWith('-') ? 'descending' : 'ascending'}`,
        `columns ${columns.map((c) => columnLabel(entity, c)).join(', ')}`,
        `the filters, search, pages and bulk actions of ${code(`/${entity.plural}`)} on top, within what the user may list`,
      ].join('; ');
    }
    case 'record': {
      const entity = declaredValue(model.entitiesByName, show.entity, 'entity');
      return `One ${inSentence(entity.label)}, its id from ${code(`{${show.idParam}}`)}: the page of ${code(`/${entity.plural}/<id>`)} (not found where the user may not read it)`;
    }
    case 'widgets':
      return `A dashboard like the home: ${show.widgets.map((w) => `"${w.title}"${widgetAudience(w) ? ` (${widgetAudience(w)})` : ''}`).join(', ')}, every number within what the user may list`;
    case 'component':
      return "A page of the spec's own (a React Server Component), given the address's parameters, the user and the operations under the user's access";
  }
}

function columnLabel(entity: EntityModel, name: string): string {
  if (entity.workflow && name === entity.workflow.field) return 'State';
  return entity.fieldsByName[name]?.label ?? SYSTEM_COLUMNS.find((c) => c.name === name)?.label ?? name;
}
