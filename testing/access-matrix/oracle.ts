/**
 * The permission matrix of a spec, as the spec states it: for an actor with some roles, an
 * entity, an action and one record (or one record to create), what must happen. It reads
 * `model.permissions` and evaluates scopes in memory, record by record, and shares no code with
 * the engine's access module (which compiles the same scopes to SQL), so the matrix tests compare
 * two readings of the spec: what it says, and what every door does.
 *
 * The rules it encodes are those the README states for point 6: deny by default; an entity with
 * no permissions is for the built-in `admin` only; roles combine generously (any granting role's
 * scope; a field writable when any granting role lets it be written); a record out of the read
 * scope is as absent, for every action (an update, a delete or a transition of a record the
 * actor may not read is refused as if it did not exist); out of an action's scope but readable
 * is forbidden. Who created and changed a record (createdBy, updatedBy) are read like fields,
 * hidden from `public` by default. A transition needs both: who, from its `allow` list, and on
 * which records, from the grant of the role allowed (or of any role of an allowed owner).
 */
import { evaluateCondition } from '@/engine/condition/evaluate';
import { actorOperand, conditionPaths, splitPath } from '@/engine/rules/condition-paths';
import type { AppModel, EntityModel, FieldModel } from '@/engine/spec/model';
import { DEFAULT_GUARD_CODE } from '@/engine/spec/guards';
import type { Condition, GrantSpec, Scope } from '@/engine/spec/types';

export const MATRIX_ACTIONS = ['list', 'read', 'create', 'update', 'delete'] as const;
export type MatrixAction = (typeof MATRIX_ACTIONS)[number];

/**
 * What a door must do. `allowed`: done (listed, read, written). `hidden`: as if the record did
 * not exist (not listed; 404; for a create, its reference refused as unknown). `forbidden`:
 * FORBIDDEN (403). `forbiddenField`: FORBIDDEN_FIELD (403) naming a field. `final`: the record (or,
 * for a create, the record it is added under) is in a final state, which freezes it: the
 * workflow's finalError. For a transition, `notAllowed`: TRANSITION_NOT_ALLOWED (wrong state, not
 * the actor's to take on this record, a required field missing, a guard without a code of its
 * own); `conditionCode`: the spec's own code for an owner's `when` (or a guard) that does not hold.
 */
export type Outcome = 'allowed' | 'hidden' | 'forbidden' | 'forbiddenField' | 'final' | 'notAllowed' | 'conditionCode';

/** Who acts: a name for messages and the roles of that user. */
export interface Persona {
  readonly name: string;
  readonly roles: readonly string[];
  /** Not signed in: acts as the visitor (src/engine/access/visitor.ts). */
  readonly visitor?: boolean;
  /**
   * Moved to another team: the user's fields (`users.fields`, e.g. `team`) changed after the
   * records made for them were written, so "yours" on those records is their former value.
   */
  readonly moved?: boolean;
}

/** Who created and who changed a record last: read like fields, and hidden from `public` (whose grant cannot show them). */
export const AUTHOR_COLUMNS = ['createdBy', 'updatedBy'] as const;

const BUILT_IN_ADMIN = 'admin';
/** Visitors who are not signed in; the README's point 6 on the `public` role. */
const BUILT_IN_PUBLIC = 'public';

/** Whether some scope of the role's grants compares with one of the user's fields (`{ actor: 'team' }`). */
function scopesReadUserFields(model: AppModel, role: string): boolean {
  return model.entities.some((entity) => {
    const grant = Object.hasOwn(entity.permissions, role) ? entity.permissions[role] : undefined;
    return (grant ? everyScope(grant) : []).some(
      (scope) =>
        scope !== true &&
        scope.where !== undefined &&
        leaves(scope.where as Condition).some((leaf) => {
          const operand = actorOperand(leaf.value);
          return (operand !== null && operand !== 'id') || splitPath(leaf.field) !== null;
        }),
    );
  });
}

/**
 * One user per declared role (and the built-in admin), one with no role, one with every role;
 * and for each role whose scopes compare with the user's fields (`{ actor: 'team' }`), one user
 * of that role moved to another team after writing their records.
 */
export function personasOf(model: AppModel): Persona[] {
  // A user never holds `public` (the visitor persona does); the others hold its grants anyway.
  const roles = Object.keys(model.roles).filter((role) => role !== BUILT_IN_PUBLIC);
  const single = roles.includes(BUILT_IN_ADMIN) ? roles : [...roles, BUILT_IN_ADMIN];
  const movable = model.users.fields.some((f) => f.referenceTo !== undefined)
    ? roles.filter((role) => scopesReadUserFields(model, role))
    : [];
  return [
    ...single.map((role) => ({ name: role, roles: [role] })),
    { name: 'no role', roles: [] },
    ...(roles.length > 1 ? [{ name: roles.join('+'), roles }] : []),
    ...movable.map((role) => ({ name: `${role} moved to another team`, roles: [role], moved: true })),
    // Visitors, where the spec lets them in at all (elsewhere they are refused before any door).
    ...(model.entities.some((e) => Object.hasOwn(e.permissions, BUILT_IN_PUBLIC))
      ? [{ name: 'visitor', roles: [BUILT_IN_PUBLIC], visitor: true }]
      : []),
  ];
}

/** A stored record as the matrix sees it: field values by spec name, the state, the id. */
export type MatrixRecord = Readonly<Record<string, unknown>> & { readonly id: number };

/** The records of other entities, for `via` (a reference is in scope when its target is readable). */
export type RecordLookup = (entity: string, id: number) => MatrixRecord | undefined;

/** What a RecordLookup answers for users, under this name: `{ id, ...their user fields }` (for paths like `requester.organization`). */
export const USER_RECORDS = '@users';

export interface MatrixActor {
  readonly userId: number;
  readonly roles: readonly string[];
  /** A visitor who is not signed in (the `public` role): no account, so nothing defaults to them. */
  readonly visitor?: boolean;
  /** The values of the spec's user fields for this user (`{ actor: 'team' }`). */
  readonly fields?: Readonly<Record<string, unknown>>;
}

/** The record with the values of the paths the condition reads (`requester.organization`), from the lookup. */
function withPaths(entity: EntityModel, condition: Condition, record: MatrixRecord, lookup: RecordLookup): MatrixRecord {
  const values: Record<string, unknown> = {};
  for (const path of conditionPaths([condition])) {
    const { head, tail } = splitPath(path)!;
    const id = record[head];
    if (typeof id !== 'number') continue;
    const target = entity.fieldsByName[head]?.referenceTo ?? USER_RECORDS;
    values[path] = lookup(target, id)?.[tail] ?? null;
  }
  return { ...record, ...values };
}

/** The grants of the roles (and of `public`, which everyone holds), each with its role. */
function roleGrantsOf(entity: EntityModel, roles: readonly string[]): { role: string; grant: GrantSpec }[] {
  const declared = entity.permissions;
  if (Object.keys(declared).length === 0) {
    const transitions = Object.fromEntries((entity.workflow?.transitions ?? []).map((t) => [t.name, true as const]));
    return roles.includes(BUILT_IN_ADMIN)
      ? [{ role: BUILT_IN_ADMIN, grant: { list: true, read: true, create: true, update: true, delete: true, transitions } }]
      : [];
  }
  // Everyone, signed in or not, holds what the built-in `public` role is granted.
  return [...new Set([...roles, BUILT_IN_PUBLIC])].flatMap((role) => {
    const grant = Object.hasOwn(declared, role) ? declared[role] : undefined;
    return grant ? [{ role, grant }] : [];
  });
}

/** An entity the model declares: a reference's target (the spec's validation checked it). */
function entityNamed(model: AppModel, name: string): EntityModel {
  const entity = model.entitiesByName[name];
  if (!entity) throw new Error(`The model declares no entity "${name}"`);
  return entity;
}

function grantsOf(entity: EntityModel, roles: readonly string[]): GrantSpec[] {
  return roleGrantsOf(entity, roles).map((g) => g.grant);
}

/** Whether the role's grant hides the field (or author column) from it. */
function hides(role: string, grant: GrantSpec, field: string): boolean {
  return (
    (grant.hiddenFields?.includes(field) ?? false) || (role === BUILT_IN_PUBLIC && (AUTHOR_COLUMNS as readonly string[]).includes(field))
  );
}

const NOW = () => new Date();

function scopeHolds(
  model: AppModel,
  entity: EntityModel,
  scope: Scope,
  actor: MatrixActor,
  record: MatrixRecord,
  lookup: RecordLookup,
): boolean {
  if (scope === true) return true;
  if (scope.own !== undefined && record[scope.own] !== actor.userId) return false;
  if (scope.where !== undefined) {
    const where = scope.where as Condition;
    const context = { actorId: actor.visitor ? null : actor.userId, actorFields: actor.fields ?? {} };
    if (!evaluateCondition(model, where, withPaths(entity, where, record, lookup), NOW(), context)) return false;
  }
  if (scope.via !== undefined) {
    const field = entity.fieldsByName[scope.via];
    const id = record[scope.via];
    if (typeof id !== 'number' || !field?.referenceTo) return false;
    const target = lookup(field.referenceTo, id);
    if (!target || !may(model, entityNamed(model, field.referenceTo), 'read', actor, target, lookup)) return false;
  }
  return true;
}

/** Whether some role of the actor grants the action on the entity at all. */
export function grants(model: AppModel, entity: EntityModel, action: MatrixAction, roles: readonly string[]): boolean {
  return grantsOf(entity, roles).some((g) => g[action] !== undefined);
}

/** Whether the action is granted on this very record (some granting role's scope holds). */
export function may(
  model: AppModel,
  entity: EntityModel,
  action: MatrixAction,
  actor: MatrixActor,
  record: MatrixRecord,
  lookup: RecordLookup,
): boolean {
  return grantsOf(entity, actor.roles).some((g) => {
    const scope = g[action];
    return scope !== undefined && scopeHolds(model, entity, scope, actor, record, lookup);
  });
}

/** Whether the actor may write the field with a create or an update (never the spec's read-only ones). */
export function mayWrite(entity: EntityModel, field: FieldModel, action: 'create' | 'update', roles: readonly string[]): boolean {
  if (field.readOnly) return false;
  return grantsOf(entity, roles).some(
    (g) =>
      g[action] !== undefined &&
      !g.hiddenFields?.includes(field.name) &&
      !g.readOnlyFields?.includes(field.name) &&
      (g.writableFields === undefined || g.writableFields.includes(field.name)),
  );
}

/** Whether the actor may read the field or author column (some role that lists or reads the entity does not hide it). */
export function mayRead(entity: EntityModel, field: string, roles: readonly string[]): boolean {
  return roleGrantsOf(entity, roles).some(
    ({ role, grant }) => (grant.list !== undefined || grant.read !== undefined) && !hides(role, grant, field),
  );
}

/**
 * Whether the actor reads the field or author column on this record: some role whose list or
 * read scope holds for the record does not hide it (a grant's field rules hold on the records
 * that grant lets the actor see).
 */
export function mayReadOn(
  model: AppModel,
  entity: EntityModel,
  field: string,
  actor: MatrixActor,
  record: MatrixRecord,
  lookup: RecordLookup,
): boolean {
  return roleGrantsOf(entity, actor.roles).some(
    ({ role, grant }) =>
      !hides(role, grant, field) &&
      [grant.list, grant.read].some((scope) => scope !== undefined && scopeHolds(model, entity, scope, actor, record, lookup)),
  );
}

/**
 * The keys of a record as the actor reads it (a read, a list row, a write's answer): its id,
 * version and times, its state, and the fields and authors they may read on it; only the first
 * four (a receipt) when the actor may not read the record.
 */
export function expectedKeys(
  model: AppModel,
  entity: EntityModel,
  actor: MatrixActor,
  record: MatrixRecord,
  lookup: RecordLookup,
  readable: boolean,
): string[] {
  const receipt = ['id', 'version', 'createdAt', 'updatedAt'];
  if (!readable) return receipt;
  const ruled = [...entity.fields.map((f) => f.name), ...AUTHOR_COLUMNS].filter((name) =>
    mayReadOn(model, entity, name, actor, record, lookup),
  );
  return [...receipt, ...(entity.workflow ? [entity.workflow.field] : []), ...ruled].sort();
}

/** list, read, update (with no change) or delete of an existing record. */
export function expectedOn(
  model: AppModel,
  entity: EntityModel,
  action: Exclude<MatrixAction, 'create'>,
  actor: MatrixActor,
  record: MatrixRecord,
  lookup: RecordLookup,
): Outcome {
  if (!grants(model, entity, action, actor.roles)) return 'forbidden';
  if (action === 'list' || action === 'read') return may(model, entity, action, actor, record, lookup) ? 'allowed' : 'hidden';
  // What the actor may not read is as absent, whatever the write's own scope says.
  if (!may(model, entity, 'read', actor, record, lookup)) return 'hidden';
  // A final state freezes the record: an update says so to whoever may read it.
  const frozen = action === 'update' && inFinalState(entity, record);
  if (frozen) return 'final';
  return may(model, entity, action, actor, record, lookup) ? 'allowed' : 'forbidden';
}

/**
 * Taking the workflow transition `name` on an existing record (no comment, no input): FORBIDDEN
 * for a visitor, or when no role of the actor reads the entity; refused as absent when the actor
 * may not read the record;
 * then the state must be one it leaves; then who (a role in `allow`, or the owner by an `allow`
 * entry whose `when` holds) and on which records (the grant of that role for the transition, or
 * for an owner any of their roles' grants for it; everywhere when none is declared); then the
 * required fields and the guard.
 */
export function expectedTransition(
  model: AppModel,
  entity: EntityModel,
  name: string,
  actor: MatrixActor,
  record: MatrixRecord,
  lookup: RecordLookup,
): Outcome {
  const transition = entity.workflow!.transitions.find((t) => t.name === name)!;
  // Visitors look and send: the public is granted no transition.
  if (actor.visitor || !grants(model, entity, 'read', actor.roles)) return 'forbidden';
  if (!may(model, entity, 'read', actor, record, lookup)) return 'hidden';
  if (!transition.from.includes(String(record[entity.workflow!.field]))) return 'notAllowed';
  const context = { actorId: actor.visitor ? null : actor.userId, actorFields: actor.fields ?? {} };
  const holds = (condition: Condition) => evaluateCondition(model, condition, withPaths(entity, condition, record, lookup), NOW(), context);
  const declared = roleGrantsOf(entity, actor.roles).filter(
    ({ grant }) => grant.transitions !== undefined && Object.hasOwn(grant.transitions, name),
  );
  const onRecords = (grantsOfRoles: typeof declared) =>
    grantsOfRoles.length === 0 ||
    grantsOfRoles.some(({ grant }) => {
      const scope = grant.transitions?.[name];
      return scope !== undefined && scopeHolds(model, entity, scope, actor, record, lookup);
    });
  // The built-in admin's full grant, on an entity without permissions, allows every transition.
  const allow = Object.keys(entity.permissions).length === 0 ? [...transition.allow, BUILT_IN_ADMIN] : transition.allow;
  let ownerCode: string | null = null;
  const granted = allow.some((entry) => {
    if (typeof entry === 'string') return actor.roles.includes(entry) && onRecords(declared.filter((g) => g.role === entry));
    if (actor.visitor || record[entry.owner] !== actor.userId) return false;
    if (entry.when && !holds(entry.when)) {
      if (entry.error) ownerCode = entry.error;
      return false;
    }
    return onRecords(declared);
  });
  if (!granted) return ownerCode ? 'conditionCode' : 'notAllowed';
  const missing = transition.requires.some((field) => {
    const value = record[field];
    return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
  });
  if (missing) return 'notAllowed';
  // Guards in the spec's order: the first that fails answers with its own code.
  const failed = transition.guards.find((guard) => !holds(guard.when));
  if (failed) return failed.code !== DEFAULT_GUARD_CODE ? 'conditionCode' : 'notAllowed';
  return 'allowed';
}

function inFinalState(entity: EntityModel, record: MatrixRecord): boolean {
  const workflow = entity.workflow;
  return workflow !== null && workflow.states.some((s) => s.final && s.name === record[workflow.field]);
}

/** An update setting one field (or the state) of an existing record to the value it has. */
export function expectedFieldWrite(
  model: AppModel,
  entity: EntityModel,
  field: string,
  actor: MatrixActor,
  record: MatrixRecord,
  lookup: RecordLookup,
): Outcome {
  if (!grants(model, entity, 'update', actor.roles)) return 'forbidden';
  const declared = entity.fieldsByName[field];
  if (!declared || !mayWrite(entity, declared, 'update', actor.roles)) return 'forbiddenField';
  return expectedOn(model, entity, 'update', actor, record, lookup);
}

/**
 * A create with `input`: the record it would make is the input over the declared defaults, in
 * the workflow's initial state; the actor must be granted create, may give only fields it may
 * write, may refer only to records it may read, and the new record must be in the create scope.
 */
export function expectedCreate(
  model: AppModel,
  entity: EntityModel,
  actor: MatrixActor,
  input: Readonly<Record<string, unknown>>,
  lookup: RecordLookup,
): Outcome {
  if (!grants(model, entity, 'create', actor.roles)) return 'forbidden';
  for (const name of Object.keys(input)) {
    const field = entity.fieldsByName[name];
    if (!field || !mayWrite(entity, field, 'create', actor.roles)) return 'forbiddenField';
  }
  const record = createdRecord(entity, actor, input);
  for (const field of entity.fields) {
    const id = record[field.name];
    if (field.type !== 'reference' || typeof id !== 'number') continue;
    const target = lookup(field.referenceTo!, id);
    if (!target || !may(model, entityNamed(model, field.referenceTo!), 'read', actor, target, lookup)) return 'hidden';
  }
  // Under a record in a final state, where its detail page shows this entity: only if that page allows it.
  for (const field of entity.fields) {
    const id = record[field.name];
    if (field.type !== 'reference' || typeof id !== 'number') continue;
    const parent = entityNamed(model, field.referenceTo!);
    const sections = parent.details.related.filter((s) => s.entity === entity.name && s.via === field.name);
    if (sections.length > 0 && !sections.some((s) => s.addWhenFinal) && inFinalState(parent, lookup(parent.name, id)!)) return 'final';
  }
  return may(model, entity, 'create', actor, record, lookup) ? 'allowed' : 'forbidden';
}

/** The record a create with `input` would make: the input over the declared defaults, in the initial state, by the actor. */
export function createdRecord(entity: EntityModel, actor: MatrixActor, input: Readonly<Record<string, unknown>>): MatrixRecord {
  const record: Record<string, unknown> = {
    id: 0,
    createdBy: actor.visitor ? null : actor.userId,
    updatedBy: actor.visitor ? null : actor.userId,
  };
  for (const field of entity.fields) record[field.name] = defaultOf(field, actor);
  Object.assign(record, input);
  if (entity.workflow) record[entity.workflow.field] = entity.workflow.initial;
  return record as MatrixRecord;
}

/** The record after the transition: its new state and the values its effects set. */
export function transitionedRecord(entity: EntityModel, name: string, actor: MatrixActor, record: MatrixRecord): MatrixRecord {
  const transition = entity.workflow!.transitions.find((t) => t.name === name)!;
  const after: Record<string, unknown> = { ...record, [entity.workflow!.field]: transition.to };
  for (const effect of transition.effects)
    after[effect.set] = effect.to === 'now' ? new Date() : effect.to === 'actor' ? actor.userId : effect.to;
  return after as MatrixRecord;
}

/** A field's declared default as stored for this actor (null when none). */
export function defaultOf(field: FieldModel, actor: MatrixActor): unknown {
  const spec = field.spec;
  if (!('default' in spec) || spec.default === undefined) return null;
  if (spec.type === 'user') return spec.default === 'actor' && !actor.visitor ? actor.userId : null;
  if (spec.type === 'datetime') return null;
  return spec.default;
}

// ---------------------------------------------------------------- what varies between records

/** The fields whose values decide a scope of the entity: its "scope cases". */
export interface ScopeDimensions {
  /** User fields named by `own`: a record of the actor's own, or another user's. */
  readonly own: readonly string[];
  /** Fields named by `where` conditions, with the values worth trying. */
  readonly where: ReadonlyMap<string, readonly unknown[]>;
  /** Reference fields named by `via`: a readable target, or not. */
  readonly via: readonly string[];
  /** Fields compared with one of the user's fields (`team` with `{ actor: 'team' }`), by that user field: the user's value, or another. */
  readonly actor: ReadonlyMap<string, string>;
  /** `own` user fields a path reads the user fields of (`requester.organization`): also a colleague sharing the user's. */
  readonly colleagues: readonly string[];
  /** Reference fields a path follows (`patient.account`): the records they may point at. */
  readonly paths: readonly string[];
}

function everyScope(grant: GrantSpec): Scope[] {
  const scopes: Scope[] = [];
  for (const action of MATRIX_ACTIONS) if (grant[action] !== undefined) scopes.push(grant[action]);
  for (const scope of Object.values(grant.transitions ?? {})) scopes.push(scope);
  return scopes;
}

/** What the workflow's transitions look at besides grants: owners and their `when`, guards (as scopes). */
function transitionScopes(entity: EntityModel): Scope[] {
  return (entity.workflow?.transitions ?? []).flatMap((t) => [
    ...t.allow.flatMap((entry): Scope[] =>
      typeof entry === 'string' ? [] : [entry.when ? { own: entry.owner, where: entry.when } : { own: entry.owner }],
    ),
    ...t.guards.map((guard): Scope => ({ where: guard.when })),
  ]);
}

function leaves(condition: Condition): { field: string; value?: unknown }[] {
  if ('all' in condition) return condition.all.flatMap(leaves);
  if ('any' in condition) return condition.any.flatMap(leaves);
  if ('not' in condition) return leaves(condition.not);
  // An `exists` asks about other records: it names no field of this one.
  if ('exists' in condition) return [];
  return [{ field: condition.field, value: condition.value }];
}

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * The values to try for a field in a `where`: every one of a closed set; for a time, one long
 * past and one far ahead (either side of any window relative to now, an empty one failing as the
 * past does); else those the conditions name, and empty.
 */
function candidateValues(entity: EntityModel, field: string, named: readonly unknown[]): unknown[] {
  if (entity.workflow && entity.workflow.field === field) return entity.workflow.states.map((s) => s.name);
  const declared = entity.fieldsByName[field];
  if (declared?.type === 'boolean') return [true, false];
  if (declared?.type === 'enum') return [...declared.enumValues!];
  if (declared?.type === 'datetime' || declared?.type === 'date') {
    const times = [new Date(Date.now() - YEAR_MS), new Date(Date.now() + YEAR_MS)];
    return declared.type === 'date' ? times.map((t) => t.toISOString().slice(0, 10)) : times;
  }
  const literals = named
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .filter((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v));
  return [...new Set([...literals, ...(declared?.required ? [] : [null])])];
}

export function scopeDimensions(entity: EntityModel): ScopeDimensions {
  const own = new Set<string>();
  const via = new Set<string>();
  const named = new Map<string, unknown[]>();
  const actor = new Map<string, string>();
  const colleagues = new Set<string>();
  const paths = new Set<string>();
  for (const scope of [...Object.values(entity.permissions).flatMap(everyScope), ...transitionScopes(entity)]) {
    if (scope === true) continue;
    if (scope.own !== undefined) own.add(scope.own);
    if (scope.via !== undefined) via.add(scope.via);
    if (scope.where !== undefined) {
      for (const leaf of leaves(scope.where as Condition)) {
        const path = splitPath(leaf.field);
        const operand = actorOperand(leaf.value);
        if (path) {
          // Through a user field: whose it is decides (the user's, a colleague's, a stranger's); through a reference: which record.
          if (entity.fieldsByName[path.head]?.referenceTo) paths.add(path.head);
          else {
            own.add(path.head);
            colleagues.add(path.head);
          }
        } else if (operand === 'id') own.add(leaf.field);
        else if (operand !== null) actor.set(leaf.field, operand);
        else named.set(leaf.field, [...(named.get(leaf.field) ?? []), leaf.value]);
      }
    }
  }
  const where = new Map<string, readonly unknown[]>();
  for (const [field, values] of named)
    if (!own.has(field) && !via.has(field) && !actor.has(field) && !paths.has(field))
      where.set(field, candidateValues(entity, field, values));
  for (const field of [...own, ...via]) {
    actor.delete(field);
    paths.delete(field);
  }
  return { own: [...own], where, via: [...via], actor, colleagues: [...colleagues], paths: [...paths].filter((f) => !actor.has(f)) };
}
