import type { EntityModel } from './model';
import type { HomeModel, WidgetModel } from './screens/home-model';
import type { RouteModel } from './screens/route-model';
import type { Condition, GrantSpec, Scope } from './types';

/**
 * Every place the model holds a condition: rules, guards, owners' `when`, scopes, limits,
 * `uniqueWhen`, `exclusive`, due times' `doneWhen`, derived fields' `where`, widgets and routes. The model build compiles each once
 * (condition/book.ts).
 */
export function* modelConditions(
  entities: readonly EntityModel[],
  home: HomeModel | null,
  routes: readonly RouteModel[],
): Generator<Condition | null | undefined> {
  for (const entity of entities) {
    for (const rule of Object.values(entity.rules)) yield* [rule.when, rule.assert];
    for (const grant of Object.values(entity.permissions)) for (const scope of scopesOf(grant)) if (scope !== true) yield scope.where;
    for (const limit of Object.values(entity.limits)) yield limit.where;
    for (const rule of entity.uniqueWhen) yield rule.where;
    for (const rule of entity.exclusive) yield rule.where;
    for (const field of entity.fields) yield field.due?.doneWhen;
    for (const field of entity.fields) yield field.derived?.where;
    for (const transition of entity.workflow?.transitions ?? []) {
      for (const guard of transition.guards) yield guard.when;
      for (const actor of transition.allow) if (typeof actor !== 'string') yield actor.when;
      for (const target of transition.to) yield target.when;
    }
  }
  for (const widget of home?.widgets ?? []) yield widgetWhere(widget);
  for (const route of routes) {
    if (route.show.kind === 'list') yield route.show.where;
    if (route.show.kind === 'widgets') for (const widget of route.show.widgets) yield widgetWhere(widget);
  }
}

function scopesOf(grant: GrantSpec): Scope[] {
  const scopes = [grant.list, grant.read, grant.create, grant.update, grant.delete, ...Object.values(grant.transitions ?? {})];
  return scopes.filter((s): s is Scope => s !== undefined);
}

function widgetWhere(widget: WidgetModel): Condition | null {
  return widget.kind === 'chart' ? null : widget.where;
}
