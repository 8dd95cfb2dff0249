import { describe, expect, it } from 'vitest';
import helpdesk from '../../../../examples/helpdesk/ninefold.spec';
import { buildModel } from '../build';
import { matchRoute, mayOpenRoute } from '../screens/routes';
import type { AppSpec, RouteSpec } from '../types';
import { validateSpec } from '../validate';

/** The helpdesk with its custom routes replaced by these (raw: a spec from a JavaScript file may hold anything). */
function withRoutes(routes: Readonly<Record<string, unknown>>): AppSpec {
  return { ...helpdesk, screens: { ...helpdesk.screens, routes: routes as Record<string, RouteSpec> } };
}

const queue = {
  path: '/queue',
  title: 'My queue',
  show: { list: 'ticket', where: { field: 'assignee', op: 'eq', value: { actor: true } } },
};
const open = {
  path: '/organizations/{id}/open',
  title: 'Open tickets',
  params: { id: 'integer' },
  show: { list: 'ticket', where: { field: 'organization', op: 'eq', value: { param: 'id' } } },
};

interface Case {
  readonly kind: string;
  readonly route: Readonly<Record<string, unknown>>;
  readonly path: string;
  readonly message: string;
}

const CASES: readonly Case[] = [
  {
    kind: 'unknown key',
    route: { ...queue, roels: ['agent'] },
    path: 'screens.routes.r.roels',
    message: 'unknown key in a route (did you mean "roles"?)',
  },
  { kind: 'title missing', route: { ...queue, title: undefined }, path: 'screens.routes.r.title', message: 'is required' },
  { kind: 'path missing', route: { ...queue, path: undefined }, path: 'screens.routes.r.path', message: 'is required' },
  {
    kind: 'path without a leading slash',
    route: { ...queue, path: 'queue' },
    path: 'screens.routes.r.path',
    message: 'must be an address starting with "/"',
  },
  {
    kind: 'path with an empty segment',
    route: { ...queue, path: '/my//queue' },
    path: 'screens.routes.r.path',
    message: 'separated by single "/"',
  },
  { kind: 'path of the home', route: { ...queue, path: '/' }, path: 'screens.routes.r.path', message: '"/" is the home page' },
  {
    kind: 'path with a bad segment',
    route: { ...queue, path: '/My_Queue' },
    path: 'screens.routes.r.path',
    message: 'segment "My_Queue" must be a word',
  },
  {
    kind: 'parameter not declared',
    route: { ...open, params: undefined },
    path: 'screens.routes.r.path',
    message: 'parameter "{id}" is not declared in params',
  },
  {
    kind: 'parameter not in the path',
    route: { ...queue, params: { id: 'integer' } },
    path: 'screens.routes.r.params.id',
    message: 'parameter "id" does not appear in the path /queue',
  },
  {
    kind: 'parameter of an unknown type',
    route: { ...open, params: { id: 'number' } },
    path: 'screens.routes.r.params.id',
    message: 'unknown parameter type "number"',
  },
  {
    kind: 'parameter first',
    route: { ...open, path: '/{id}/open/x' },
    path: 'screens.routes.r.path',
    message: 'the first segment must be a fixed word',
  },
  {
    kind: 'built-in page',
    route: { ...queue, path: '/admin' },
    path: 'screens.routes.r.path',
    message: '/admin is served by the application itself',
  },
  {
    kind: 'built-in page below',
    route: { ...queue, path: '/api/v2/queue' },
    path: 'screens.routes.r.path',
    message: '/api is served by the application itself',
  },
  {
    kind: "Next.js's own files",
    route: { ...queue, path: '/_next' },
    path: 'screens.routes.r.path',
    message: 'segment "_next" must be a word',
  },
  { kind: 'entity list', route: { ...queue, path: '/tickets' }, path: 'screens.routes.r.path', message: '/tickets is the list of ticket' },
  { kind: 'entity record page', route: { ...queue, path: '/tickets/mine' }, path: 'screens.routes.r.path', message: 'is a page of ticket' },
  {
    kind: 'two segments',
    route: { ...queue, path: '/reports/weekly' },
    path: 'screens.routes.r.path',
    message: 'a route has one segment, or three or more',
  },
  {
    kind: 'record edit page',
    route: { ...open, path: '/organizations/{id}/edit' },
    path: 'screens.routes.r.path',
    message: "the shape of a record's edit and delete pages",
  },
  {
    kind: 'unknown role',
    route: { ...queue, roles: ['agent', 'boss'] },
    path: 'screens.routes.r.roles[1]',
    message: 'unknown role "boss"',
  },
  { kind: 'no role', route: { ...queue, roles: [] }, path: 'screens.routes.r.roles', message: 'no role could open this route' },
  {
    kind: 'navigation with parameters',
    route: { ...open, navigation: true },
    path: 'screens.routes.r.navigation',
    message: 'only a route without parameters',
  },
  { kind: 'show missing', route: { ...queue, show: undefined }, path: 'screens.routes.r.show', message: 'is required' },
  {
    kind: 'show of two kinds',
    route: { ...queue, show: { list: 'ticket', record: 'ticket' } },
    path: 'screens.routes.r.show',
    message: 'must hold exactly one of list, record, widgets, component, got list and record',
  },
  {
    kind: 'list of an unknown entity',
    route: { ...queue, show: { list: 'tickets' } },
    path: 'screens.routes.r.show.list',
    message: 'unknown entity "tickets"',
  },
  {
    kind: 'unknown field in the condition',
    route: { ...queue, show: { list: 'ticket', where: { field: 'asignee', op: 'eq', value: { actor: true } } } },
    path: 'screens.routes.r.show.where.field',
    message: 'unknown field "asignee" of ticket',
  },
  {
    kind: 'unknown parameter in the condition',
    route: { ...open, show: { list: 'ticket', where: { field: 'organization', op: 'eq', value: { param: 'org' } } } },
    path: 'screens.routes.r.show.where.value.param',
    message: 'unknown route parameter "org" (parameters: id)',
  },
  {
    kind: 'unknown column',
    route: { ...queue, show: { list: 'ticket', columns: ['subject', 'titel'] } },
    path: 'screens.routes.r.show.columns[1]',
    message: 'unknown column "titel" of ticket',
  },
  {
    kind: 'unknown sort',
    route: { ...queue, show: { list: 'ticket', sort: '-due' } },
    path: 'screens.routes.r.show.sort',
    message: 'unknown column "due" of ticket',
  },
  {
    kind: 'unknown key of a list',
    route: { ...queue, show: { list: 'ticket', filter: {} } },
    path: 'screens.routes.r.show.filter',
    message: 'unknown key in a route showing a list',
  },
  {
    kind: 'record of an unknown parameter',
    route: { ...open, show: { record: 'organization', id: 'orgId' } },
    path: 'screens.routes.r.show.id',
    message: 'unknown parameter "orgId" (parameters: id)',
  },
  {
    kind: 'record id not an integer',
    route: { ...open, params: { id: 'text' }, show: { record: 'organization', id: 'id' } },
    path: 'screens.routes.r.show.id',
    message: 'must be an integer parameter',
  },
  {
    kind: 'widget of an unknown entity',
    route: { ...queue, show: { widgets: [{ kind: 'counts', entity: 'tiket', by: 'state' }] } },
    path: 'screens.routes.r.show.widgets[0].entity',
    message: 'unknown entity "tiket"',
  },
  {
    kind: 'component not a function',
    route: { ...queue, show: { component: 'Queue' } },
    path: 'screens.routes.r.show.component',
    message: 'must be a function',
  },
  {
    kind: 'widget for a role that cannot open the route',
    route: {
      ...queue,
      roles: ['agent'],
      show: { widgets: [{ kind: 'counts', entity: 'ticket', by: 'state', roles: ['agent', 'customer'] }] },
    },
    path: 'screens.routes.r.show.widgets[0].roles[1]',
    message: 'role "customer" cannot open this route (its roles: agent), so would never see this widget',
  },
  {
    kind: 'widget for visitors on a route not open to them',
    route: { ...queue, show: { widgets: [{ kind: 'counts', entity: 'ticket', by: 'state', roles: ['public'] }] } },
    path: 'screens.routes.r.show.widgets[0].roles[0]',
    message: 'this route is not open to them (add "public" to its roles first)',
  },
  {
    kind: 'widget for an unknown role',
    route: { ...queue, show: { widgets: [{ kind: 'counts', entity: 'ticket', by: 'state', roles: ['agnet'] }] } },
    path: 'screens.routes.r.show.widgets[0].roles[0]',
    message: 'unknown role "agnet"',
  },
];

describe('screens.routes validation', () => {
  it('accepts every kind of route', () => {
    const issues = validateSpec(
      withRoutes({
        queue: {
          ...queue,
          roles: ['agent', 'admin'],
          navigation: true,
          show: { ...queue.show, sort: 'slaDueAt', columns: ['id', 'subject'] },
        },
        open,
        organization: {
          path: '/orgs/{id}/page',
          title: 'Organization',
          params: { id: 'integer' },
          show: { record: 'organization', id: 'id' },
        },
        board: {
          path: '/board/{mine}/x',
          title: 'Board',
          params: { mine: 'boolean' },
          show: { widgets: [{ kind: 'counts', entity: 'ticket', by: 'state' }] },
        },
        // Widgets for some of those who may open the route, visitors among them where the route is open to them.
        agents: {
          path: '/agents',
          title: 'Agents',
          roles: ['agent', 'admin'],
          show: { widgets: [{ kind: 'counts', entity: 'ticket', by: 'state', roles: ['admin'] }] },
        },
        wall: {
          path: '/wall',
          title: 'Wall',
          roles: ['public'],
          show: {
            widgets: [
              { kind: 'counts', entity: 'ticket', by: 'state', roles: ['public'] },
              { kind: 'counts', entity: 'ticket', by: 'priority', roles: ['customer'] },
            ],
          },
        },
        custom: { path: '/hello', title: 'Hello', show: { component: () => null } },
      }),
    );
    expect(issues).toEqual([]);
  });

  it.each(CASES)('reports $kind', ({ route, path, message }) => {
    const issues = validateSpec(withRoutes({ r: route }));
    const found = issues.find((i) => i.path === path && i.message.includes(message));
    expect(found, `expected ${path}: …${message}… in\n${issues.map((i) => `${i.path}: ${i.message}`).join('\n')}`).toBeDefined();
  });

  it('reports a route name that is not an identifier', () => {
    expect(validateSpec(withRoutes({ 'my-queue': queue }))).toEqual([
      { path: 'screens.routes.my-queue', message: expect.stringContaining('route names are identifiers') },
    ]);
  });

  it('reports two routes of the same shape, whatever their parameters are called', () => {
    const issues = validateSpec(
      withRoutes({ open, other: { ...open, path: '/organizations/{org}/open', params: { org: 'integer' }, show: { list: 'ticket' } } }),
    );
    expect(issues).toEqual([
      { path: 'screens.routes.other.path', message: 'route "open" already answers addresses of this shape (/organizations/{}/open)' },
    ]);
  });
});

describe('matchRoute', () => {
  const model = buildModel(
    withRoutes({
      queue,
      open,
      mine: { path: '/organizations/mine/open', title: 'Mine', show: { list: 'ticket' } },
      flag: { path: '/flags/{on}/x', title: 'Flag', params: { on: 'boolean' }, roles: ['agent'], show: { list: 'ticket' } },
    }),
  );

  it('matches fixed words and parses parameters to their types', () => {
    expect(matchRoute(model.routes, ['queue'])).toMatchObject({ route: { name: 'queue' }, params: {} });
    expect(matchRoute(model.routes, ['organizations', '12', 'open'])).toMatchObject({ route: { name: 'open' }, params: { id: 12 } });
    expect(matchRoute(model.routes, ['flags', 'false', 'x'])).toMatchObject({ route: { name: 'flag' }, params: { on: false } });
  });

  it('prefers the route with more fixed words', () => {
    expect(matchRoute(model.routes, ['organizations', 'mine', 'open'])?.route.name).toBe('mine');
  });

  it('matches nothing when a parameter has the wrong type or the address another shape', () => {
    expect(matchRoute(model.routes, ['organizations', 'twelve', 'open'])).toBeNull();
    expect(matchRoute(model.routes, ['organizations', '1.5', 'open'])).toBeNull();
    expect(matchRoute(model.routes, ['flags', 'yes', 'x'])).toBeNull();
    expect(matchRoute(model.routes, ['queue', 'x'])).toBeNull();
    expect(matchRoute(model.routes, ['queues'])).toBeNull();
  });

  it('opens a route to the roles it names, or to everyone when it names none', () => {
    const flag = model.routes.find((r) => r.name === 'flag')!;
    const anyone = model.routes.find((r) => r.name === 'queue')!;
    expect(mayOpenRoute(flag, ['customer'])).toBe(false);
    expect(mayOpenRoute(flag, ['customer', 'agent'])).toBe(true);
    expect(mayOpenRoute(anyone, ['customer'])).toBe(true);
  });
});
