import { ADMIN_ROLE } from '../../access/policy';
import { withArticle } from '../naming';
import { checkCondition, queryableColumns, type ColumnKind, type ConditionContext } from './conditions';
import { at, describeValue, isInteger, isString, quoteList, type EntityInfo, type Issues, type Rec, type Symbols } from './context';
import { PUBLIC_ROLE, refusePublicRole } from './public';

const HOME_KEYS = ['title', 'widgets'];
const KINDS = ['counts', 'list', 'chart'] as const;
const WIDGET_KEYS: Readonly<Record<(typeof KINDS)[number], readonly string[]>> = {
  counts: ['kind', 'entity', 'by', 'title', 'where', 'sum', 'roles'],
  list: ['kind', 'entity', 'title', 'where', 'sort', 'columns', 'limit', 'roles'],
  chart: ['kind', 'entity', 'title', 'days', 'series', 'roles'],
};
const SERIES_KEYS = ['field', 'label'];
/** Fields whose values are few or stand for someone: what a count can be split by. */
const GROUPABLE: readonly ColumnKind[] = ['state', 'enum', 'boolean', 'reference', 'user'];
const NUMERIC: readonly ColumnKind[] = ['integer', 'decimal', 'money'];
export const MAX_CHART_DAYS = 366;
export const MAX_LIST_LIMIT = 50;

/** Checks `screens.home`: an optional title and its widgets (which may use `{ actor: true }`). */
export function checkHome(screens: Rec, symbols: Symbols, issues: Issues): void {
  const home = screens.home;
  if (home === undefined || !issues.record(home, 'screens.home', 'the home')) return;
  issues.unknownKeys(home, HOME_KEYS, 'screens.home', 'the home');
  issues.optionalString(home, 'title', 'screens.home');
  if (home.widgets === undefined) issues.add('screens.home.widgets', 'is required (a list of widgets)');
  else checkWidgets(home.widgets, 'screens.home.widgets', symbols, issues, {});
}

/** The page widgets are on, for who may be shown them: the home (signed-in users), or a route with its `roles` (null: every signed-in user). */
export type WidgetPage = { readonly kind: 'home' } | { readonly kind: 'route'; readonly roles: readonly string[] | null };
const HOME: WidgetPage = { kind: 'home' };

/**
 * Checks a list of widgets found at `path` (the home's, or a dashboard route's). Conditions may
 * always use the signed-in user; `context.params` adds a route's parameters. Shared with the
 * custom routes: keep its signature stable (`page` is the route's, the home by default).
 */
export function checkWidgets(
  widgets: unknown,
  path: string,
  symbols: Symbols,
  issues: Issues,
  context: ConditionContext,
  page: WidgetPage = HOME,
): void {
  if (!Array.isArray(widgets)) {
    issues.add(path, `must be a list of widgets, got ${describeValue(widgets)}`);
    return;
  }
  widgets.forEach((widget: unknown, index) => {
    const place = at(path, index);
    if (!issues.record(widget, place, 'a widget')) return;
    checkWidget(widget, place, symbols, issues, { ...context, actor: true, exists: true });
    if (widget.roles !== undefined) checkWidgetRoles(widget.roles, at(place, 'roles'), symbols, issues, page);
  });
}

function checkWidget(widget: Rec, path: string, symbols: Symbols, issues: Issues, context: ConditionContext): void {
  const kind = KINDS.find((k) => k === widget.kind);
  if (!kind) {
    issues.add(at(path, 'kind'), `unknown widget kind ${describeValue(widget.kind)} (expected one of ${KINDS.join(', ')})`);
    return;
  }
  issues.unknownKeys(widget, WIDGET_KEYS[kind], path, `a "${kind}" widget`);
  if (kind === 'list') issues.requiredText(widget, 'title', path);
  else issues.optionalString(widget, 'title', path);
  if (!isString(widget.entity)) {
    issues.add(at(path, 'entity'), `a widget needs an entity name, got ${describeValue(widget.entity)}`);
    return;
  }
  const entity = symbols.entities.get(widget.entity);
  if (!entity) {
    issues.add(at(path, 'entity'), `unknown entity "${widget.entity}" (entities: ${quoteList(symbols.entities.keys())})`);
    return;
  }
  const columns = queryableColumns(entity);
  if (widget.where !== undefined) checkCondition(widget.where, at(path, 'where'), entity, symbols, issues, context);
  if (kind === 'counts') checkCounts(widget, path, entity, columns, issues);
  else if (kind === 'list') checkList(widget, path, entity, columns, issues);
  else checkChart(widget, path, entity, columns, issues);
}

/**
 * A widget's `roles`: known roles who can open its page. `public` (visitors) only on a route
 * open to them: the home is for signed-in users.
 */
function checkWidgetRoles(roles: unknown, path: string, symbols: Symbols, issues: Issues, page: WidgetPage): void {
  const names = issues.stringList(roles, path);
  if (Array.isArray(roles) && roles.length === 0)
    issues.add(path, 'no one would be shown this widget; name at least one role, or leave roles out for everyone who opens the page');
  const opens = page.kind === 'route' ? page.roles : null;
  names.forEach((name, index) => {
    const place = at(path, index);
    if (name === PUBLIC_ROLE) {
      if (page.kind === 'home') refusePublicRole(name, place, issues, 'open the home, which is for signed-in users');
      else if (!opens?.includes(PUBLIC_ROLE))
        issues.add(
          place,
          `"${PUBLIC_ROLE}" is the built-in role of visitors who are not signed in; this route is not open to them (add "${PUBLIC_ROLE}" to its roles first)`,
        );
    } else if (!symbols.roles.has(name) && name !== ADMIN_ROLE) {
      issues.add(place, `unknown role "${name}" (roles: ${quoteList(new Set([ADMIN_ROLE, ...symbols.roles]))})`);
    } else if (opens && !opens.includes(name) && !opens.includes(PUBLIC_ROLE)) {
      issues.add(place, `role "${name}" cannot open this route (its roles: ${opens.join(', ')}), so would never see this widget`);
    }
  });
  issues.duplicates(names, path, 'role');
}

function checkCounts(widget: Rec, path: string, entity: EntityInfo, columns: ReadonlyMap<string, ColumnKind>, issues: Issues): void {
  const fieldOfKind = (key: 'by' | 'sum', kinds: readonly ColumnKind[], what: string) => {
    const name = widget[key];
    if (!isString(name)) {
      issues.add(at(path, key), `must be a field name, got ${describeValue(name)}`);
      return;
    }
    const kind = columns.get(name);
    if (!kind) issues.add(at(path, key), unknownColumn(name, entity));
    else if (!kinds.includes(kind)) issues.add(at(path, key), `"${name}" is ${withArticle(kind)} field; ${what} (${kinds.join(', ')})`);
  };
  fieldOfKind('by', GROUPABLE, 'counts are split by a field with few values or a person');
  if (widget.sum !== undefined) fieldOfKind('sum', NUMERIC, 'only a number can be summed');
}

function checkList(widget: Rec, path: string, entity: EntityInfo, columns: ReadonlyMap<string, ColumnKind>, issues: Issues): void {
  if (widget.columns !== undefined) {
    const names = issues.stringList(widget.columns, at(path, 'columns'));
    names.forEach((name, index) => {
      if (!columns.has(name)) issues.add(at(at(path, 'columns'), index), unknownColumn(name, entity));
    });
    issues.duplicates(names, at(path, 'columns'), 'column');
    if (Array.isArray(widget.columns) && widget.columns.length === 0) issues.add(at(path, 'columns'), 'a list needs at least one column');
  }
  if (widget.sort !== undefined) {
    const sort = widget.sort;
    if (!isString(sort)) issues.add(at(path, 'sort'), `must be a column name, "-" first for descending, got ${describeValue(sort)}`);
    else {
      const name = sort.startsWith('-') ? sort.slice(1) : sort;
      if (!columns.has(name)) issues.add(at(path, 'sort'), unknownColumn(name, entity));
    }
  }
  checkRange(widget.limit, at(path, 'limit'), MAX_LIST_LIMIT, issues);
}

function checkChart(widget: Rec, path: string, entity: EntityInfo, columns: ReadonlyMap<string, ColumnKind>, issues: Issues): void {
  checkRange(widget.days, at(path, 'days'), MAX_CHART_DAYS, issues);
  const series = widget.series;
  if (!Array.isArray(series) || series.length === 0) {
    issues.add(at(path, 'series'), `must be a non-empty list of { field, label? }, got ${describeValue(series)}`);
    return;
  }
  const fields: unknown[] = [];
  series.forEach((item: unknown, index) => {
    const place = at(at(path, 'series'), index);
    if (!issues.record(item, place, 'a series')) return;
    issues.unknownKeys(item, SERIES_KEYS, place, 'a series');
    issues.optionalString(item, 'label', place);
    fields.push(item.field);
    if (!isString(item.field)) issues.add(at(place, 'field'), `must be a field name, got ${describeValue(item.field)}`);
    else {
      const kind = columns.get(item.field);
      if (!kind) issues.add(at(place, 'field'), unknownColumn(item.field, entity));
      else if (kind !== 'datetime')
        issues.add(at(place, 'field'), `"${item.field}" is ${withArticle(kind)} field; a chart counts records per day of a datetime field`);
    }
  });
  issues.duplicates(fields, at(path, 'series'), 'series field');
}

function checkRange(value: unknown, path: string, max: number, issues: Issues): void {
  if (value !== undefined && (!isInteger(value) || value < 1 || value > max)) {
    issues.add(path, `must be an integer from 1 to ${max}, got ${describeValue(value)}`);
  }
}

function unknownColumn(name: string, entity: EntityInfo): string {
  return `unknown field "${name}" of ${entity.name} (fields: ${quoteList(queryableColumns(entity).keys())})`;
}
