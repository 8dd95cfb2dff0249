import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Actor } from '../ground/actor';
import { conditionToSql } from '../condition/bound-sql';
import type { AppModel, EntityModel, TransitionModel } from '../spec/model';
import type { Scope, TransitionActor } from '../spec/types';
import { writableFields } from './fields';
import { checkWriteDoor } from './call-door';
import { grantsFor, transitionGrantsFor } from './grants';
import { ADMIN_ROLE, policyOf } from './policy';
import type { RecordAction } from './record-actions';
import { forbidden } from './refusal';
import { inSentence } from '../spec/naming';
import { ownSql } from './own';

/** The records an action may touch: all of them, or those a SQL predicate selects. */
export interface RowScope {
  /** True when every record is in scope (the predicate is then `true`). */
  readonly all: boolean;
  readonly sql: RawBuilder<SqlBool>;
}

const ALL: RowScope = { all: true, sql: sql<SqlBool>`true` };
const NONE: RowScope = { all: false, sql: sql<SqlBool>`false` };

/** `via` follows references from entity to entity; the spec is checked for cycles, this is a backstop. */
const MAX_VIA_DEPTH = 8;

/**
 * Actions on records that exist, taken only on records the actor may read: their scope is the
 * grants' scope within the read scope, so a record out of sight is refused as absent (NOT_FOUND),
 * never written (a writer moved to another team edits no draft of the old one).
 */
const WITHIN_READ: ReadonlySet<RecordAction> = new Set(['update', 'delete']);

/**
 * The one place that says yes or no, for rows. The records the actor may act on with `action`
 * (the union of the scopes of every role that grants it; for an update or a delete, within the
 * records the actor may read), or null when no role of the actor grants the action at all. Deny
 * by default: no grant, no access.
 */
export function rowScope(model: AppModel, entity: EntityModel, actor: Actor, action: RecordAction, depth = 0): RowScope | null {
  const scope = unionOf(
    model,
    entity,
    actor,
    grantsFor(entity, actor, action).map((g) => g.scope),
    depth,
  );
  return scope && WITHIN_READ.has(action) ? withinRead(model, entity, actor, scope, depth) : scope;
}

/** The records any of these scopes (of the actor's grants) holds for, or null when there are none. */
export function scopesUnion(model: AppModel, entity: EntityModel, actor: Actor, scopes: readonly Scope[]): RowScope | null {
  return unionOf(model, entity, actor, scopes, 0);
}

function unionOf(model: AppModel, entity: EntityModel, actor: Actor, scopes: readonly Scope[], depth: number): RowScope | null {
  if (scopes.length === 0) return null;
  if (scopes.some((s) => s === true)) return ALL;
  const predicates = scopes.map((s) => scopeToSql(model, entity, s as Exclude<Scope, true>, actor, depth));
  return { all: false, sql: sql<SqlBool>`(${sql.join(predicates, sql` or `)})` };
}

/** Records in both scopes. */
function both(a: RowScope, b: RowScope): RowScope {
  if (a.all) return b;
  if (b.all) return a;
  return { all: false, sql: sql<SqlBool>`(${a.sql} and ${b.sql})` };
}

/** Records in any of the scopes (none when there are none). */
function anyOf(scopes: readonly RowScope[]): RowScope {
  if (scopes.length === 0) return NONE;
  if (scopes.some((s) => s.all)) return ALL;
  return {
    all: false,
    sql: sql<SqlBool>`(${sql.join(
      scopes.map((s) => s.sql),
      sql` or `,
    )})`,
  };
}

/** The scope's records the actor may also read (none when no role of the actor reads the entity). */
function withinRead(model: AppModel, entity: EntityModel, actor: Actor, scope: RowScope, depth: number): RowScope {
  const read = rowScope(model, entity, actor, 'read', depth);
  return read ? both(scope, read) : NONE;
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
  if (scope.own !== undefined) parts.push(ownSql(entity, scope.own, actor.userId));
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
 * Who the transition allows: its `allow` list; on an entity whose spec declares no permissions,
 * the built-in admin too, whose full grant there is every transition of the workflow.
 */
function allowedBy(entity: EntityModel, transition: TransitionModel): readonly TransitionActor[] {
  return policyOf(entity).declared ? transition.allow : [...transition.allow, ADMIN_ROLE];
}

/**
 * The records on which the actor may take the workflow transition `name`, or null when nothing
 * allows it. Both must hold: WHO, from the transition's `allow` list (a role of the actor, or the
 * user named by a user field of the record, when its condition holds), and WHICH RECORDS, from
 * the grants (permissions[entity][role].transitions[name]): a role allowed by name takes it where
 * its own grant says (everywhere when it declares none), an owner where any of their roles'
 * grants for it says (everywhere when none declares one). A grant alone allows nobody. Always
 * within the records the actor may read.
 */
export function transitionScope(model: AppModel, entity: EntityModel, actor: Actor, name: string): RowScope | null {
  const transition = entity.workflow?.transitions.find((t) => t.name === name);
  if (!transition) return null;
  const grants = transitionGrantsFor(entity, actor, name);
  const granted = (scopes: readonly Scope[]) => unionOf(model, entity, actor, scopes.length > 0 ? scopes : [true], 0)!;
  const allowed: RowScope[] = [];
  for (const entry of allowedBy(entity, transition)) {
    if (typeof entry === 'string') {
      if (actor.roles.includes(entry)) allowed.push(granted(grants.filter((g) => g.role === entry).map((g) => g.scope)));
      continue;
    }
    const owner = unionOf(model, entity, actor, [entry.when ? { own: entry.owner, where: entry.when } : { own: entry.owner }], 0)!;
    allowed.push(both(owner, granted(grants.map((g) => g.scope))));
  }
  if (allowed.length === 0) return null;
  return withinRead(model, entity, actor, anyOf(allowed), 0);
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
    const defaultsToActor = field?.spec.type === 'user' && field.spec.default === 'actor';
    if (owner === 'createdBy' || defaultsToActor || writableFields(entity, actor, 'create').includes(owner)) return true;
  }
  if (writableFields(entity, actor, 'update').includes(owner)) return true;
  const seeing = [...grantsFor(entity, actor, 'list'), ...grantsFor(entity, actor, 'read')];
  return seeing.some((g) => g.scope !== true && g.scope.own === owner);
}

/**
 * Whether the actor may take the transition on some record (what to offer: the bulk toolbar of
 * a list, the API's description): the actor must see records of the entity, and be allowed by
 * role, or be able to own records by an owner field the transition allows. Per record, the row
 * scope (transitionScope) decides, and ops.get offers only the transitions the actor may take there.
 */
export function mayTransition(model: AppModel, entity: EntityModel, actor: Actor, name: string): boolean {
  const transition = entity.workflow?.transitions.find((t) => t.name === name);
  if (!transition || rowScope(model, entity, actor, 'read') === null) return false;
  return allowedBy(entity, transition).some((a) => (typeof a === 'string' ? actor.roles.includes(a) : mayOwn(entity, actor, a.owner)));
}
