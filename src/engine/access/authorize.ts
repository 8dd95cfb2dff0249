import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { NinefoldError } from '../errors/ninefold-error';
import type { Actor } from '../ops/types';
import { conditionToSql } from '../rules/condition-sql';
import { columnFor } from '../ops/records';
import type { AppModel, EntityModel } from '../spec/model';
import type { Scope } from '../spec/types';

export type RecordAction = 'list' | 'read' | 'create' | 'update' | 'delete';

/**
 * The one place that says yes or no. Returns the SQL predicate that limits the records the
 * actor may act on (`true` for all), or throws FORBIDDEN when no role of the actor grants the
 * action. An entity without any permissions declared is open to every signed-in user.
 */
export function authorize(model: AppModel, entity: EntityModel, actor: Actor, action: RecordAction): RawBuilder<SqlBool> {
  const grants = entity.permissions;
  if (Object.keys(grants).length === 0) return sql<SqlBool>`true`;
  const scopes: Scope[] = [];
  for (const role of actor.roles) {
    const scope = grants[role]?.[action];
    if (scope !== undefined) scopes.push(scope);
  }
  if (scopes.length === 0) {
    throw new NinefoldError('FORBIDDEN', `You are not allowed to ${action} ${entity.pluralLabel.toLowerCase()}.`);
  }
  if (scopes.some((s) => s === true)) return sql<SqlBool>`true`;
  const predicates = scopes.map((s) => scopeToSql(model, entity, s as Exclude<Scope, true>, actor));
  return sql<SqlBool>`(${sql.join(predicates, sql` or `)})`;
}

function scopeToSql(model: AppModel, entity: EntityModel, scope: Exclude<Scope, true>, actor: Actor): RawBuilder<SqlBool> {
  const parts: RawBuilder<SqlBool>[] = [];
  if ('own' in scope) parts.push(sql<SqlBool>`${sql.ref(columnFor(entity, scope.own))} = ${actor.userId}`);
  if ('where' in scope) parts.push(conditionToSql(model, entity, scope.where, actor));
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}
