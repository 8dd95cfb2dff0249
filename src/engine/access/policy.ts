import type { Actor } from '../ground/actor';
import { ADMIN_ROLE } from '../ground/admin-role';
import { RECORD_ACTIONS, type RecordAction } from './record-actions';
import { AUTHOR_COLUMNS } from '../spec/author-columns';
import { fileFields } from '../spec/file-fields';
import type { AppModel, EntityModel, FieldModel } from '../spec/model';
import type { GrantSpec, Scope } from '../spec/types';
import { conditionPaths, splitPath } from '../rules/condition-paths';
import { PUBLIC_ROLE } from './visitor';

/*
 * The spec's permissions compiled once per entity: every other module (ops, the live feed, the
 * running totals, OpenAPI, the pages, the spec document, the seed) asks these facts instead of
 * reading the grants itself, so that two readers cannot disagree on what a grant means.
 * Per-actor answers (grantsFor, readableFields, rowScope...) combine the roles' compiled facts.
 */

// Named in the ground module (the spec model's documentation defaults need it below access); the policy is where it is used.
export { ADMIN_ROLE } from '../ground/admin-role';

/** Whether the role is the built-in administrator's, or the actor (or user) holds it. */
export function isAdmin(who: Pick<Actor, 'roles'> | string): boolean {
  return typeof who === 'string' ? who === ADMIN_ROLE : who.roles.includes(ADMIN_ROLE);
}

/** The actions a grant to `public` may hold (the spec check refuses the others). */
export type VisitorAction = 'list' | 'read' | 'create';

/** One role's grant on one entity, compiled. */
export interface RolePolicy {
  readonly role: string;
  /** The scope of each record action the role holds (absent: not granted). */
  readonly scopes: Readonly<Partial<Record<RecordAction, Scope>>>;
  /** Workflow transitions by name: on which records the role takes one its `allow` names it for. */
  readonly transitions: Readonly<Record<string, Scope>>;
  /** Whether the grant names transitions at all (the spec document says so). */
  readonly namesTransitions: boolean;
  /** Whether the role sees records of the entity (list or read). */
  readonly sees: boolean;
  /** Declared fields and author columns the role never reads (`public`: the authors too, by default). */
  readonly hidden: ReadonlySet<string>;
  /** The grant's field rules as the spec wrote them, for the spec document. */
  readonly rules: {
    readonly hiddenFields: readonly string[];
    readonly readOnlyFields: readonly string[];
    readonly writableFields: readonly string[] | undefined;
  };
  /** Declared fields the role's rules let it write (hidden, read-only and unlisted ones not), before any door. */
  readonly writes: ReadonlySet<string>;
}

/** An entity's permissions, compiled. */
export interface EntityPolicy {
  /** Whether the spec declares permissions for the entity; without, the built-in admin alone uses it. */
  readonly declared: boolean;
  /** Each role's compiled grant (the admin's full grant on an entity without declared permissions). */
  readonly roles: ReadonlyMap<string, RolePolicy>;
  /** Whether only the spec's calls (and workflow effects) create, change and delete its records. */
  readonly callsOnly: boolean;
  /** Declared fields only the spec's calls write. */
  readonly callsOnlyFields: ReadonlySet<string>;
  /** Declared fields and author columns some role never reads: what a record may lack. */
  readonly hiddenFromSomeRole: ReadonlySet<string>;
  /** What the spec grants visitors on the entity. */
  readonly visitor: Readonly<Record<VisitorAction, boolean>>;
  /** User fields that some role's list scope is exactly (`{ own: field }`, nothing else). */
  readonly ownListFields: ReadonlySet<string>;
  /**
   * Declared fields some role may write with the action through the pages and the record API
   * (not a call): never the spec's read-only ones, those only calls write, or any of an entity
   * only calls write; otherwise those a granting role's rules let it write.
   */
  readonly doorWritable: Readonly<Record<'create' | 'update', readonly FieldModel[]>>;
  /** The fields whose records the list and read scopes' paths follow (`team.open` → team), each once. */
  readonly seeingPathHeads: readonly string[];
}

function compileRole(entity: EntityModel, role: string, grant: GrantSpec): RolePolicy {
  const scopes: Partial<Record<RecordAction, Scope>> = {};
  for (const action of RECORD_ACTIONS) if (grant[action] !== undefined) scopes[action] = grant[action];
  const hidden = new Set(grant.hiddenFields ?? []);
  if (role === PUBLIC_ROLE) for (const name of AUTHOR_COLUMNS) hidden.add(name);
  const readOnly = new Set(grant.readOnlyFields ?? []);
  const listed = grant.writableFields === undefined ? null : new Set(grant.writableFields);
  const writes = entity.fields.map((f) => f.name).filter((name) => !hidden.has(name) && !readOnly.has(name) && (listed?.has(name) ?? true));
  return {
    role,
    scopes,
    transitions: grant.transitions ?? {},
    namesTransitions: grant.transitions !== undefined,
    sees: grant.list !== undefined || grant.read !== undefined,
    hidden,
    rules: { hiddenFields: grant.hiddenFields ?? [], readOnlyFields: grant.readOnlyFields ?? [], writableFields: grant.writableFields },
    writes: new Set(writes),
  };
}

/** Everything on an entity, every transition of its workflow included. */
function fullGrant(entity: EntityModel): GrantSpec {
  const transitions: Record<string, Scope> = {};
  for (const t of entity.workflow?.transitions ?? []) transitions[t.name] = true;
  return { list: true, read: true, create: true, update: true, delete: true, transitions };
}

function seeingPathHeads(roles: readonly RolePolicy[]): string[] {
  const conditions = roles.flatMap((role) =>
    [role.scopes.list, role.scopes.read].flatMap((scope) => (scope !== undefined && scope !== true && scope.where ? [scope.where] : [])),
  );
  return [...new Set(conditionPaths(conditions).map((path) => splitPath(path)!.head))];
}

function doorWritable(
  entity: EntityModel,
  roles: ReadonlyMap<string, RolePolicy>,
  callsOnly: boolean,
  action: 'create' | 'update',
): FieldModel[] {
  if (callsOnly) return [];
  const granting = [...roles.values()].filter((r) => r.scopes[action] !== undefined);
  return entity.fields.filter((f) => !f.readOnly && f.writtenBy !== 'calls' && granting.some((r) => r.writes.has(f.name)));
}

function compileEntity(entity: EntityModel): EntityPolicy {
  const declared = Object.keys(entity.permissions).length > 0;
  const grants: [string, GrantSpec][] = declared ? Object.entries(entity.permissions) : [[ADMIN_ROLE, fullGrant(entity)]];
  const roles = new Map(grants.map(([role, grant]) => [role, compileRole(entity, role, grant)]));
  const callsOnly = entity.writtenBy === 'calls';
  const ruled = [...entity.fields.map((f) => f.name), ...AUTHOR_COLUMNS];
  const visitorGrant = roles.get(PUBLIC_ROLE);
  const ownListFields = new Set<string>();
  for (const role of roles.values()) {
    const scope = role.scopes.list;
    // Running totals are kept per value of a column: a set (users field) owner has none to count by.
    if (typeof scope === 'object' && Object.keys(scope).length === 1 && typeof scope.own === 'string' && hasOwnColumn(entity, scope.own))
      ownListFields.add(scope.own);
  }
  return {
    declared,
    roles,
    callsOnly,
    callsOnlyFields: new Set(entity.fields.filter((f) => f.writtenBy === 'calls').map((f) => f.name)),
    hiddenFromSomeRole: new Set(ruled.filter((name) => [...roles.values()].some((r) => r.hidden.has(name)))),
    visitor: {
      list: visitorGrant?.scopes.list !== undefined,
      read: visitorGrant?.scopes.read !== undefined,
      // Only the spec's calls write such an entity, and visitors make no calls.
      create: visitorGrant?.scopes.create !== undefined && !callsOnly,
    },
    ownListFields,
    doorWritable: { create: doorWritable(entity, roles, callsOnly, 'create'), update: doorWritable(entity, roles, callsOnly, 'update') },
    seeingPathHeads: seeingPathHeads([...roles.values()]),
  };
}

/** The one memo of the compiled policy: each entity of a model is compiled once, on first use. */
const compiled = new WeakMap<EntityModel, EntityPolicy>();

/** The entity's compiled permissions. */
export function policyOf(entity: EntityModel): EntityPolicy {
  let policy = compiled.get(entity);
  if (!policy) compiled.set(entity, (policy = compileEntity(entity)));
  return policy;
}

/**
 * The compiled grants of the actor's roles (and of `public`, which everyone holds) on the entity.
 * Deny by default: a role without a grant has none, and an entity whose spec declares no
 * permissions at all is open to `admin` only.
 */
export function rolesOf(entity: EntityModel, actor: Actor): readonly RolePolicy[] {
  const { roles, declared } = policyOf(entity);
  const held = new Set(declared ? [...actor.roles, PUBLIC_ROLE] : actor.roles);
  const found: RolePolicy[] = [];
  for (const role of held) {
    const policy = roles.get(role);
    if (policy) found.push(policy);
  }
  return found;
}

/** The compiled grant of one role on the entity, if it holds one (the seed and the spec document ask per role). */
export function roleOn(entity: EntityModel, role: string): RolePolicy | undefined {
  return policyOf(entity).roles.get(role);
}

/** The scopes the roles of the entity declare for the action, one per granting role (for the live feed's images). */
export function declaredScopes(entity: EntityModel, action: RecordAction): readonly Scope[] {
  return [...policyOf(entity).roles.values()].flatMap((r) => (r.scopes[action] === undefined ? [] : [r.scopes[action]]));
}

/** The reference fields of the entity through which a list or read scope's path reaches `target` (`team.open` → team). */
export function scopePathHeadsInto(entity: EntityModel, target: string): readonly string[] {
  return policyOf(entity).seeingPathHeads.filter((head) => entity.fieldsByName[head]?.referenceTo === target);
}

/** Whether only the spec's calls create, change and delete records of the entity (its pages and API offer no writes). */
export function writtenOnlyByCalls(entity: EntityModel): boolean {
  return policyOf(entity).callsOnly;
}

/** Whether only the spec's calls write the field. */
export function fieldWrittenOnlyByCalls(entity: EntityModel, field: FieldModel | string): boolean {
  return policyOf(entity).callsOnlyFields.has(typeof field === 'string' ? field : field.name);
}

/** Whether the spec grants visitors this action on the entity (whatever its scope). */
export function visitorMay(entity: EntityModel, action: VisitorAction): boolean {
  return policyOf(entity).visitor[action];
}

/**
 * Whether visitors may read some record that holds files: the downloads then serve a request
 * without credentials as the visitor's (ops decides which files, by their records' access).
 */
export function visitorsMayReadFiles(model: AppModel): boolean {
  return model.entities.some((entity) => fileFields(entity).length > 0 && visitorMay(entity, 'read'));
}

/** Whether the spec grants visitors anything at all; without, every page and operation needs a sign-in, as before. */
export function visitorsWelcome(model: AppModel): boolean {
  return (
    model.entities.some((e) => {
      const { visitor } = policyOf(e);
      return visitor.list || visitor.read || visitor.create;
    }) || model.routes.some((r) => r.roles?.includes(PUBLIC_ROLE) ?? false)
  );
}

/** An owner field kept in a column (a user field, createdBy): not a set in a join table. */
function hasOwnColumn(entity: EntityModel, name: string): boolean {
  return entity.fieldsByName[name]?.joinTable === undefined;
}
