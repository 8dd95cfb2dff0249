import type { ChartWidgetModel, CountsWidgetModel, HomeModel, ListWidgetModel, WidgetModel } from './home-model';
import { PUBLIC_ROLE } from '../../access/visitor';
import type { AppModel, EntityModel } from '../model';
import type { AppSpec, Condition, WidgetSpec } from '../types';
import { inSentence } from '../naming';
import { declaredValue } from '../own-names';
import type { CompiledCondition } from '../../condition/types';

/**
 * The home page (and dashboard routes) as widgets with their defaults filled in. Widgets are
 * checked by `checkWidgets` (validate/home.ts) before they are built here.
 */

export const DEFAULT_CHART_DAYS = 30;
export const DEFAULT_LIST_LIMIT = 5;
/**
 * A list widget counts its records up to here ("99+"): enough to say how long a queue is, and
 * the count stays a short index range however many records match.
 */
export const LIST_WIDGET_COUNT_CAP = 99;
/** Columns of a list widget when the spec names none: the first of the entity's list columns. */
const DEFAULT_LIST_COLUMNS = 4;

export function buildHome(spec: AppSpec, entitiesByName: Readonly<Record<string, EntityModel>>): HomeModel | null {
  const home = spec.screens?.home;
  if (!home) return null;
  return { title: home.title ?? null, widgets: buildWidgets(home.widgets, entitiesByName) };
}

/**
 * Fills in the defaults of checked widgets (titles, sort, columns, limits). Shared by the home
 * and by dashboard routes (`RouteContent.widgets`); keep its signature stable.
 */
export function buildWidgets(widgets: readonly WidgetSpec[], entitiesByName: Readonly<Record<string, EntityModel>>): WidgetModel[] {
  return widgets.map((widget) => ({
    ...buildWidget(widget, declaredValue(entitiesByName, widget.entity, 'entity')),
    roles: widget.roles ?? null,
  }));
}

/**
 * Whether a user with these roles is shown the widget, as a route's `roles` decide who opens it
 * (screens/routes.ts): one of its roles, or `public` among them; no roles: everyone who opens the
 * page. Administrators are no exception: a widget for editors is for editors.
 */
export function showsWidgetTo(widget: WidgetModel, roles: readonly string[]): boolean {
  return widget.roles === null || widget.roles.some((role) => role === PUBLIC_ROLE || roles.includes(role));
}

/**
 * What a widget's query uses: the fields it counts, sums, sorts or charts by, and its condition
 * (a list's columns are not among them: one the viewer may not read is left out, not refused).
 */
export function widgetQuery(widget: WidgetModel): { readonly fields: readonly string[]; readonly where: Condition | null } {
  switch (widget.kind) {
    case 'counts':
      return { fields: widget.sum === null ? [widget.by] : [widget.by, widget.sum], where: widget.where };
    case 'list':
      return { fields: [widget.sort.replace(/^-/, '')], where: widget.where };
    case 'chart':
      return { fields: widget.series.map((s) => s.field), where: null };
  }
}

function buildWidget(widget: WidgetSpec, entity: EntityModel): CountsWidgetModel | ListWidgetModel | ChartWidgetModel {
  switch (widget.kind) {
    case 'counts': {
      const sum = widget.sum ?? null;
      const what = sum ? labelOf(entity, sum) : entity.pluralLabel;
      return {
        kind: 'counts',
        entity: entity.name,
        title: widget.title ?? `${what} by ${inSentence(labelOf(entity, widget.by))}`,
        by: widget.by,
        where: widget.where ?? null,
        sum,
        values: knownValues(entity, widget.by),
      };
    }
    case 'list':
      return {
        kind: 'list',
        entity: entity.name,
        title: widget.title,
        where: widget.where ?? null,
        sort: widget.sort ?? sortText(entity),
        columns: widget.columns ?? entity.list.columns.slice(0, DEFAULT_LIST_COLUMNS),
        limit: widget.limit ?? DEFAULT_LIST_LIMIT,
      };
    case 'chart':
      return {
        kind: 'chart',
        entity: entity.name,
        title: widget.title ?? `${entity.pluralLabel} per day`,
        days: widget.days ?? DEFAULT_CHART_DAYS,
        series: widget.series.map((s) => ({ field: s.field, label: s.label ?? labelOf(entity, s.field) })),
      };
  }
}

/** Every widget the spec declares: the home's and those of dashboard routes. */
export function declaredWidgets(model: AppModel): WidgetModel[] {
  const routes = model.routes.flatMap((r) => (r.show.kind === 'widgets' ? r.show.widgets : []));
  return [...(model.home?.widgets ?? []), ...routes];
}

/** The label of a field, a system column or the state field. */
export function labelOf(entity: EntityModel, name: string): string {
  if (entity.workflow && name === entity.workflow.field) return name === 'state' ? 'State' : (entity.fieldsByName[name]?.label ?? name);
  return entity.fieldsByName[name]?.label ?? entity.systemColumns.find((c) => c.name === name)?.label ?? name;
}

function knownValues(entity: EntityModel, name: string): readonly string[] | null {
  if (entity.workflow && name === entity.workflow.field) return entity.workflow.states.map((s) => s.name);
  const field = entity.fieldsByName[name];
  if (field?.type === 'enum') return field.enumValues ?? null;
  if (field?.type === 'boolean') return ['true', 'false'];
  return null;
}

function sortText(entity: EntityModel): string {
  const { field, direction } = entity.list.sort;
  return direction === 'desc' ? `-${field}` : field;
}

/** Where "see all" of a list widget leads: the list filtered by equalities, or a custom route. */
export type SeeAllTarget =
  /** The entity's list with these filters; `{ actor: true }` stands for the viewer's id. */
  | { readonly kind: 'list'; readonly filters: Readonly<Record<string, string | { readonly actor: true }>> }
  | { readonly kind: 'route'; readonly path: string };

/**
 * The page that shows exactly the records of a list widget, if any: the entity's list when the
 * condition is only equalities its list screen can filter by, else a custom route (without
 * parameters) listing the same entity with the same condition. Null: no page does.
 */
export function seeAllTarget(model: AppModel, widget: ListWidgetModel): SeeAllTarget | null {
  if (!widget.where) return { kind: 'list', filters: {} };
  const entity = declaredValue(model.entitiesByName, widget.entity, 'entity');
  const filters = equalities(model.conditions.of(widget.where));
  if (filters && Object.keys(filters).every((name) => entity.list.filters.includes(name))) return { kind: 'list', filters };
  const same = JSON.stringify(widget.where);
  const route = model.routes.find(
    (r) =>
      r.show.kind === 'list' &&
      r.show.entity === entity.name &&
      JSON.stringify(r.show.where) === same &&
      r.segments.every((s) => s.kind === 'literal'),
  );
  return route ? { kind: 'route', path: route.path } : null;
}

/** The condition as field = value pairs, or null when it is anything more. */
function equalities(condition: CompiledCondition): Record<string, string | { readonly actor: true }> | null {
  const leaves = condition.kind === 'all' ? condition.items : [condition];
  const filters: Record<string, string | { readonly actor: true }> = {};
  for (const leaf of leaves) {
    if (leaf.kind !== 'compare' || leaf.op !== 'eq' || leaf.subject.tail !== null) return null;
    const { operand } = leaf;
    if (operand.kind === 'literal' && operand.constant === undefined && operand.value !== null)
      filters[leaf.subject.field] = String(operand.value);
    // The viewer's id is a filter the list takes; one of their user fields (`{ actor: 'team' }`) is not.
    else if (operand.kind === 'actor' && operand.name === 'id') filters[leaf.subject.field] = { actor: true };
    else return null;
  }
  return filters;
}
