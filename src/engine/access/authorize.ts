import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Actor } from '../ops/types';
import { conditionToSql } from '../rules/condition-sql';
import { columnFor } from '../ops/records';
import type { AppModel, EntityModel } from '../spec/model';
import type { Scope } from '../spec/types';
import { writableFields } from './fields';
import { checkWriteDoor } from './call-door';
import { grantsFor, transitionGrantsFor, type RecordAction } from './grants';
import { forbidden } from './refusal';
import { inSentence } from '../spec/naming';

export { RECORD_ACTIONS, type RecordAction } from './grants';

/** The records an action may touch: all of them, or those a SQL predicate selects. */
export interface RowScope {
  /** True when every record is in scope (the predicate is then `true`). */
  readonly all: boolean;
  readonly sql: RawBuilder<SqlBool>;
}

const ALL: RowScope = { all: true, sql: sql<SqlBool>`true` };

/** `via` follows references from entity to entity; the spec is checked for cycles, this is a backstop. */
const MAX_VIA_DEPTH = 8;

/**
 * The one place that says yes or no, for rows. The records the actor may act on with `action`
 * (the union of the scopes of every role that grants it), or null when no role of the actor
 * grants the action at all. Deny by default: no grant, no access.
 */
export function rowScope(model: AppModel, entity: EntityModel, actor: Actor, action: RecordAction, depth = 0): RowScope | null {
  return unionOf(
    model,
    entity,
    actor,
    grantsFor(entity, actor, action).map((g) => g.scope),
    depth,
  );
}

function unionOf(model: AppModel, entity: EntityModel, actor: Actor, scopes: readonly Scope[], depth: number): RowScope | null {
  if (scopes.length === 0) return null;
  if (scopes.some((s) => s === true)) return ALL;
  const predicates = scopes.map((s) => scopeToSql(model, entity, s as Exclude<Scope, true>, actor, depth));
  return { all: false, sql: sql<SqlBool>`(${sql.join(predicates, sql` or `)})` };
}

/**
 * The SQL predicate of the records the actor may act on, or FORBIDDEN (logged) when no role of
 * the actor grants the action.
 */
export function authorize(model: AppModel, entity: EntityModel, actor: Actor, action: RecordAction): RawBuilder<SqlBool> {
  return authorizeScope(model, entity, actor, action).sql;
}

/** As `authorize`, with whether the scope is every record. */
export function authorizeScope(model: AppModel, entity: EntityModel, actor: Actor, action: RecordAction): RowScope {
  checkWriteDoor(entity, actor, action);
  const scope = rowScope(model, entity, actor, action);
  if (!scope) throw forbidden(actor, entity, action, `You are not allowed to ${action} ${inSentence(entity.pluralLabel)}.`);
  return scope;
}

function scopeToSql(model: AppModel, entity: EntityModel, scope: Exclude<Scope, true>, actor: Actor, depth: number): RawBuilder<SqlBool> {
  const parts: RawBuilder<SqlBool>[] = [];
  if (scope.own !== undefined) parts.push(sql<SqlBool>`${sql.ref(columnFor(entity, scope.own))} = ${actor.userId}`);
  if (scope.where !== undefined) parts.push(conditionToSql(model, entity, scope.where, actor));
  if (scope.via !== undefined) parts.push(viaToSql(model, entity, scope.via, actor, depth));
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

/** Records whose reference `field` points at a record the actor may read. */
function viaToSql(model: AppModel, entity: EntityModel, field: string, actor: Actor, depth: number): RawBuilder<SqlBool> {
  if (depth >= MAX_VIA_DEPTH) throw new Error(`Permission scopes of ${entity.name} follow "via" too deep (a cycle?)`);
  const reference = entity.fieldsByName[field];
  const target = reference?.referenceTo ? model.entitiesByName[reference.referenceTo] : undefined;
  if (!reference || !target) throw new Error(`${entity.name}.${field} is not a reference field`);
  const readable = rowScope(model, target, actor, 'read', depth + 1);
  if (!readable) return sql<SqlBool>`false`;
  const column = sql.ref(reference.column);
  if (readable.all) return sql<SqlBool>`${column} is not null`;
  return sql<SqlBool>`${column} in (select ${sql.ref(`${target.table}.id`)} from ${sql.table(target.table)} where ${readable.sql})`;
}

/**
 * The records on which the actor may take the workflow transition `name`, or null when nothing
 * allows it: a grant's `transitions` (permissions[entity][role].transitions), or the
 * transition's own `allow` list (a role of the actor, or the user named by a user field of the
 * record, when its condition holds).
 */
export function transitionScope(model: AppModel, entity: EntityModel, actor: Actor, name: string): RowScope | null {
  const transition = entity.workflow?.transitions.find((t) => t.name === name);
  if (!transition) return null;
  const scopes: Scope[] = transitionGrantsFor(entity, actor, name).map((g) => g.scope);
  for (const allowed of transition.allow) {
    if (typeof allowed === 'string') {
      if (actor.roles.includes(allowed)) scopes.push(true);
    } else {
      scopes.push(allowed.when ? { own: allowed.owner, where: allowed.when } : { own: allowed.owner });
    }
  }
  return unionOf(model, entity, actor, scopes, 0);
}

/**
 * Whether the actor can be the user named by the user field `owner` on records of the entity
 * they see, judged from the spec alone (no query): the owner field is one the actor's roles fill
 * with themselves or that scopes what they see. That is when the actor may create records and
 * the field is the creator, defaults to the creator or is written on create; when the actor may
 * write the field on update (an agent taking a ticket); or when the actor's list or read scope
 * is their own records by that field (a customer sees only the tickets they requested). A reader
 * of everyone's articles who can do none of these never owns one.
 */
function mayOwn(entity: EntityModel, actor: Actor, owner: string): boolean {
  if (grantsFor(entity, actor, 'create').length > 0) {
    const field = entity.fieldsByName[owner];
    const defaultsToActor = field?.type === 'user' && 'default' in field.spec && field.spec.default === 'actor';
    if (owner === 'createdBy' || defaultsToActor || writableFields(entity, actor, 'create').includes(owner)) return true;
  }
  if (writableFields(entity, actor, 'update').includes(owner)) return true;
  const seeing = [...grantsFor(entity, actor, 'list'), ...grantsFor(entity, actor, 'read')];
  return seeing.some((g) => g.scope !== true && g.scope.own === owner);
}

/**
 * Whether the actor may take the transition on some record (what to offer: the bulk toolbar of
 * a list, the API's description). By role or permission grant: yes. By ownership only: when the
 * actor may see records of the entity and can be their owner (mayOwn). Per record, the row scope
 * (transitionScope) decides, and ops.get offers only the transitions the actor may take there.
 */
export function mayTransition(model: AppModel, entity: EntityModel, actor: Actor, name: string): boolean {
  const transition = entity.workflow?.transitions.find((t) => t.name === name);
  if (!transition) return false;
  if (transitionGrantsFor(entity, actor, name).length > 0) return true;
  if (transition.allow.some((a) => typeof a === 'string' && actor.roles.includes(a))) return true;
  if (rowScope(model, entity, actor, 'read') === null) return false;
  return transition.allow.some((a) => typeof a !== 'string' && mayOwn(entity, actor, a.owner));
}
