import { defaultPlural } from '../naming';
import { paramName, pathSegments } from '../screens/routes';
import { checkCondition, queryableColumns } from './conditions';
import {
  at,
  describeValue,
  IDENTIFIER,
  IDENTIFIER_RULE,
  isRecord,
  isString,
  quoteList,
  type EntityInfo,
  type Issues,
  type Rec,
  type Symbols,
} from './context';
import { RESERVED_PLURALS } from './entities';
import { checkWidgets, type WidgetPage } from './home';
import { PUBLIC_ROLE } from './public';
import { ADMIN_ROLE } from '../../access/policy';

const ROUTE_KEYS = ['path', 'title', 'description', 'params', 'roles', 'navigation', 'show'];
const SHOW_KEYS = {
  list: ['list', 'where', 'sort', 'columns'],
  record: ['record', 'id'],
  widgets: ['widgets'],
  component: ['component'],
} as const;
type ShowKind = keyof typeof SHOW_KEYS;
const SHOW_KINDS = Object.keys(SHOW_KEYS) as ShowKind[];
const PARAM_TYPES = ['integer', 'text', 'boolean'];
/**
 * A fixed segment: lower-case letters, digits and dashes, like an entity's plural (so never
 * Next.js's own /_next). The first segments the application serves itself are RESERVED_PLURALS.
 */
const WORD = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** A parameter segment: {name}, the name an identifier. */
const PARAM = /^\{[a-z][A-Za-z0-9]*\}$/;
/** The last segment of an entity record's sub-pages: /<plural>/<id>/edit and /<plural>/<id>/delete. */
const RECORD_SUB_PAGES = ['edit', 'delete'];

/**
 * Checks `screens.routes`: each route's path (its syntax, its parameters, no collision with the
 * pages the application serves itself nor with another route), roles and what it shows.
 */
export function checkRoutes(spec: Rec, screens: Rec, symbols: Symbols, issues: Issues): void {
  const routes = screens.routes;
  if (routes === undefined || !issues.record(routes, 'screens.routes', 'routes')) return;
  const plurals = entityPlurals(spec);
  const shapes = new Map<string, string>();
  for (const [name, route] of Object.entries(routes)) {
    const path = at('screens.routes', name);
    if (!IDENTIFIER.test(name)) issues.add(path, `route names are identifiers: ${IDENTIFIER_RULE}`);
    if (!issues.record(route, path, 'a route')) continue;
    issues.unknownKeys(route, ROUTE_KEYS, path, 'a route');
    issues.requiredText(route, 'title', path);
    issues.optionalString(route, 'description', path);
    issues.optionalBoolean(route, 'navigation', path);
    const params = checkParams(route, path, issues);
    const segments = checkPath(route, path, plurals, issues);
    if (segments) {
      const shape = segments.map((s) => (paramName(s) === null ? s : '{}')).join('/');
      const other = shapes.get(shape);
      if (other !== undefined) issues.add(at(path, 'path'), `route "${other}" already answers addresses of this shape (/${shape})`);
      else shapes.set(shape, name);
    }
    if (route.navigation === true && Object.keys(params).length > 0) {
      issues.add(at(path, 'navigation'), 'only a route without parameters can be linked from the navigation');
    }
    if (route.roles !== undefined) checkRoles(route.roles, at(path, 'roles'), symbols, issues);
    if (route.show === undefined) issues.add(at(path, 'show'), 'is required: a list, a record, widgets or a component');
    else if (issues.record(route.show, at(path, 'show'), 'what a route shows')) {
      const page: WidgetPage = { kind: 'route', roles: Array.isArray(route.roles) ? route.roles.filter(isString) : null };
      checkShow(route.show, at(path, 'show'), params, symbols, issues, page);
    }
  }
}

/** Plural of each entity, raw (the entities' own checks report bad ones). */
function entityPlurals(spec: Rec): Map<string, string> {
  const plurals = new Map<string, string>();
  for (const [name, entity] of Object.entries(isRecord(spec.entities) ? spec.entities : {})) {
    plurals.set(isRecord(entity) && isString(entity.plural) ? entity.plural : defaultPlural(name), name);
  }
  return plurals;
}

/** The declared parameters and their types (valid ones only; the others are reported). */
function checkParams(route: Rec, path: string, issues: Issues): Record<string, string> {
  if (route.params === undefined) return {};
  if (!issues.record(route.params, at(path, 'params'), 'params')) return {};
  const params: Record<string, string> = {};
  for (const [name, type] of Object.entries(route.params)) {
    const paramPath = at(at(path, 'params'), name);
    if (!IDENTIFIER.test(name)) issues.add(paramPath, `parameter names are identifiers: ${IDENTIFIER_RULE}`);
    if (!isString(type) || !PARAM_TYPES.includes(type))
      issues.add(paramPath, `unknown parameter type ${describeValue(type)} (expected one of ${PARAM_TYPES.join(', ')})`);
    else params[name] = type;
  }
  return params;
}

/**
 * The path's segments when its syntax holds. Besides the syntax: every {param} is declared and
 * every declared one is used, and the address does not fall on a page the application serves.
 */
function checkPath(route: Rec, path: string, plurals: ReadonlyMap<string, string>, issues: Issues): string[] | null {
  const where = at(path, 'path');
  const value = route.path;
  if (value === undefined) {
    issues.add(where, 'is required: the address, e.g. "/queue" or "/organizations/{id}/open"');
    return null;
  }
  const segments = isString(value) ? pathSegments(value) : [];
  if (!isString(value) || !value.startsWith('/') || value.includes('//') || (value.length > 1 && value.endsWith('/'))) {
    issues.add(where, `must be an address starting with "/", its segments separated by single "/", got ${describeValue(value)}`);
    return null;
  }
  if (segments.length === 0) {
    issues.add(where, '"/" is the home page; a route needs a segment of its own');
    return null;
  }
  const bad = segments.find((s) => !WORD.test(s) && !PARAM.test(s));
  if (bad !== undefined) {
    issues.add(where, `segment "${bad}" must be a word of lower-case letters, digits and dashes, or a {parameter}`);
    return null;
  }
  const used = segments.map(paramName).filter((n): n is string => n !== null);
  issues.duplicates(used, where, 'parameter');
  const declared = isRecord(route.params) ? route.params : {};
  for (const name of used) if (!Object.hasOwn(declared, name)) issues.add(where, `parameter "{${name}}" is not declared in params`);
  for (const name of Object.keys(declared)) {
    if (!used.includes(name)) issues.add(at(at(path, 'params'), name), `parameter "${name}" does not appear in the path ${value}`);
  }
  const collision = builtInCollision(segments, plurals);
  if (collision) {
    issues.add(where, collision);
    return null;
  }
  return segments;
}

/**
 * Why the address would fall on a page the application serves itself, or null. Entity pages are
 * /<plural>, /<plural>/new, /<plural>/<id>, /<plural>/<id>/edit and /<plural>/<id>/delete, and
 * Next.js routes any two-segment address to the record page and any /x/y/edit to the edit page,
 * whatever x is: so a route has one segment, or three or more not ending like a record's sub-page.
 */
function builtInCollision(segments: readonly string[], plurals: ReadonlyMap<string, string>): string | null {
  const [first, , third] = segments;
  // checkPath has refused a path without segments.
  if (first === undefined) return null;
  if (paramName(first) !== null) return 'the first segment must be a fixed word: a parameter there would take the addresses of every page';
  if (RESERVED_PLURALS.includes(first)) return `/${first} is served by the application itself`;
  const entity = plurals.get(first);
  if (segments.length === 1 && entity !== undefined) return `/${first} is the list of ${entity}; choose another address`;
  if (segments.length === 2) {
    return entity !== undefined
      ? `/${first}/… with one more segment is a page of ${entity} (a record, or the new-record form); choose another address`
      : 'a route has one segment, or three or more: two-segment addresses are the shape of record pages (/<plural>/<id>)';
  }
  if (segments.length === 3 && third !== undefined && (RECORD_SUB_PAGES.includes(third) || paramName(third) !== null)) {
    return `an address ending in /${third} after two segments is the shape of a record's ${RECORD_SUB_PAGES.join(' and ')} pages; choose another last segment`;
  }
  return null;
}

function checkRoles(roles: unknown, path: string, symbols: Symbols, issues: Issues): void {
  const names = issues.stringList(roles, path);
  if (Array.isArray(roles) && roles.length === 0)
    issues.add(path, 'no role could open this route; name at least one, or leave roles out for every signed-in user');
  names.forEach((name, index) => {
    // `public` opens the route to visitors who are not signed in, as well as to every signed-in user.
    if (!symbols.roles.has(name) && name !== ADMIN_ROLE && name !== PUBLIC_ROLE)
      issues.add(at(path, index), `unknown role "${name}" (roles: ${quoteList(symbols.roles)})`);
  });
  issues.duplicates(names, path, 'role');
}

function checkShow(
  show: Rec,
  path: string,
  params: Readonly<Record<string, string>>,
  symbols: Symbols,
  issues: Issues,
  page: WidgetPage,
): void {
  const kinds = SHOW_KINDS.filter((kind) => kind in show);
  const [kind, ...others] = kinds;
  if (kind === undefined || others.length > 0) {
    issues.add(path, `must hold exactly one of ${SHOW_KINDS.join(', ')}, got ${kinds.length === 0 ? 'none' : kinds.join(' and ')}`);
    return;
  }
  issues.unknownKeys(show, SHOW_KEYS[kind], path, `a route showing a ${kind}`);
  switch (kind) {
    case 'list': {
      const entity = knownEntity(show.list, at(path, 'list'), symbols, issues);
      if (!entity) return;
      if (show.where !== undefined)
        checkCondition(show.where, at(path, 'where'), entity, symbols, issues, { actor: true, params, exists: true });
      checkColumns(show, path, entity, issues);
      return;
    }
    case 'record': {
      knownEntity(show.record, at(path, 'record'), symbols, issues);
      if (!isString(show.id) || !Object.hasOwn(params, show.id)) {
        issues.add(at(path, 'id'), `unknown parameter ${describeValue(show.id)} (parameters: ${quoteList(Object.keys(params))})`);
      } else if (params[show.id] !== 'integer') {
        issues.add(at(path, 'id'), `parameter "${show.id}" holds a record id, so it must be an integer parameter`);
      }
      return;
    }
    case 'widgets':
      checkWidgets(show.widgets, at(path, 'widgets'), symbols, issues, { actor: true, params }, page);
      return;
    case 'component':
      if (typeof show.component !== 'function')
        issues.add(at(path, 'component'), `must be a function (a React Server Component), got ${describeValue(show.component)}`);
      return;
  }
}

function knownEntity(name: unknown, path: string, symbols: Symbols, issues: Issues): EntityInfo | null {
  const entity = isString(name) ? symbols.entities.get(name) : undefined;
  if (!entity) issues.add(path, `unknown entity ${describeValue(name)} (entities: ${quoteList(symbols.entities.keys())})`);
  return entity ?? null;
}

function checkColumns(show: Rec, path: string, entity: EntityInfo, issues: Issues): void {
  const columns = queryableColumns(entity);
  const unknown = (name: string) => `unknown column "${name}" of ${entity.name}`;
  if (show.columns !== undefined) {
    const names = issues.stringList(show.columns, at(path, 'columns'));
    if (Array.isArray(show.columns) && show.columns.length === 0) issues.add(at(path, 'columns'), 'a list needs at least one column');
    names.forEach((name, index) => {
      if (!columns.has(name)) issues.add(at(at(path, 'columns'), index), unknown(name));
    });
    issues.duplicates(names, at(path, 'columns'), 'column');
  }
  if (show.sort !== undefined) {
    if (!isString(show.sort))
      issues.add(at(path, 'sort'), `must be a column name, "-" first for descending, got ${describeValue(show.sort)}`);
    else {
      const name = show.sort.startsWith('-') ? show.sort.slice(1) : show.sort;
      if (!columns.has(name)) issues.add(at(path, 'sort'), unknown(name));
    }
  }
}
