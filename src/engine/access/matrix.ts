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
 * scope is as absent; out of an action's scope but readable is forbidden.
 */
import { evaluateCondition } from '../rules/condition-eval';
import { actorOperand, conditionPaths, splitPath } from '../rules/condition-paths';
import type { AppModel, EntityModel, FieldModel } from '../spec/model';
import type { Condition, GrantSpec, Scope } from '../spec/types';

export const MATRIX_ACTIONS = ['list', 'read', 'create', 'update', 'delete'] as const;
export type MatrixAction = (typeof MATRIX_ACTIONS)[number];

/**
 * What a door must do. `allowed`: done (listed, read, written). `hidden`: as if the record did
 * not exist (not listed; 404; for a create, its reference refused as unknown). `forbidden`:
 * FORBIDDEN (403). `forbiddenField`: FORBIDDEN_FIELD (403) naming a field. `final`: the record (or,
 * for a create, the record it is added under) is in a final state, which freezes it: the
 * workflow's finalError.
 */
export type Outcome = 'allowed' | 'hidden' | 'forbidden' | 'forbiddenField' | 'final';

/** Who acts: a name for messages and the roles of that user. */
export interface Persona {
  readonly name: string;
  readonly roles: readonly string[];
  /** Not signed in: acts as the visitor (src/engine/access/visitor.ts). */
  readonly visitor?: boolean;
}

const BUILT_IN_ADMIN = 'admin';
/** Visitors who are not signed in; the README's point 6 on the `public` role. */
const BUILT_IN_PUBLIC = 'public';

/** One user per declared role (and the built-in admin), one with no role, one with every role. */
export function personasOf(model: AppModel): Persona[] {
  // A user never holds `public` (the visitor persona does); the others hold its grants anyway.
  const roles = Object.keys(model.roles).filter((role) => role !== BUILT_IN_PUBLIC);
  const single = roles.includes(BUILT_IN_ADMIN) ? roles : [...roles, BUILT_IN_ADMIN];
  return [
    ...single.map((role) => ({ name: role, roles: [role] })),
    { name: 'no role', roles: [] },
    ...(roles.length > 1 ? [{ name: roles.join('+'), roles }] : []),
    // Visitors, where the spec lets them in at all (elsewhere they are refused before any door).
    ...(model.entities.some((e) => Object.hasOwn(e.permissions, BUILT_IN_PUBLIC)) ? [{ name: 'visitor', roles: [BUILT_IN_PUBLIC], visitor: true }] : []),
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

function grantsOf(entity: EntityModel, roles: readonly string[]): GrantSpec[] {
  const declared = entity.permissions;
  if (Object.keys(declared).length === 0) {
    return roles.includes(BUILT_IN_ADMIN) ? [{ list: true, read: true, create: true, update: true, delete: true }] : [];
  }
  // Everyone, signed in or not, holds what the built-in `public` role is granted.
  return [...new Set([...roles, BUILT_IN_PUBLIC])].filter((role) => Object.hasOwn(declared, role)).map((role) => declared[role]);
}

const NOW = () => new Date();

function scopeHolds(model: AppModel, entity: EntityModel, scope: Scope, actor: MatrixActor, record: MatrixRecord, lookup: RecordLookup): boolean {
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
    if (!target || !may(model, model.entitiesByName[field.referenceTo], 'read', actor, target, lookup)) return false;
  }
  return true;
}

/** Whether some role of the actor grants the action on the entity at all. */
export function grants(model: AppModel, entity: EntityModel, action: MatrixAction, roles: readonly string[]): boolean {
  return grantsOf(entity, roles).some((g) => g[action] !== undefined);
}

/** Whether the action is granted on this very record (some granting role's scope holds). */
export function may(model: AppModel, entity: EntityModel, action: MatrixAction, actor: MatrixActor, record: MatrixRecord, lookup: RecordLookup): boolean {
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

/** Whether the actor may read the field (some role that lists or reads the entity does not hide it). */
export function mayRead(entity: EntityModel, field: string, roles: readonly string[]): boolean {
  return grantsOf(entity, roles).some((g) => (g.list !== undefined || g.read !== undefined) && !g.hiddenFields?.includes(field));
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
  // A final state freezes the record: an update says so to whoever may read it.
  const frozen = action === 'update' && inFinalState(entity, record);
  if (may(model, entity, action, actor, record, lookup)) return frozen ? 'final' : 'allowed';
  if (action === 'list' || action === 'read') return 'hidden';
  // Out of the write's scope: forbidden when the actor may still read it, else as absent.
  return may(model, entity, 'read', actor, record, lookup) ? (frozen ? 'final' : 'forbidden') : 'hidden';
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
  const record: Record<string, unknown> = { id: 0 };
  for (const field of entity.fields) record[field.name] = defaultOf(field, actor);
  Object.assign(record, input);
  if (entity.workflow) record[entity.workflow.field] = entity.workflow.initial;
  for (const field of entity.fields) {
    const id = record[field.name];
    if (field.type !== 'reference' || typeof id !== 'number') continue;
    const target = lookup(field.referenceTo!, id);
    if (!target || !may(model, model.entitiesByName[field.referenceTo!], 'read', actor, target, lookup)) return 'hidden';
  }
  // Under a record in a final state, where its detail page shows this entity: only if that page allows it.
  for (const field of entity.fields) {
    const id = record[field.name];
    if (field.type !== 'reference' || typeof id !== 'number') continue;
    const parent = model.entitiesByName[field.referenceTo!];
    const sections = parent.details.related.filter((s) => s.entity === entity.name && s.via === field.name);
    if (sections.length > 0 && !sections.some((s) => s.addWhenFinal) && inFinalState(parent, lookup(parent.name, id)!)) return 'final';
  }
  return may(model, entity, 'create', actor, record as MatrixRecord, lookup) ? 'allowed' : 'forbidden';
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

function leaves(condition: Condition): { field: string; value?: unknown }[] {
  if ('all' in condition) return condition.all.flatMap(leaves);
  if ('any' in condition) return condition.any.flatMap(leaves);
  if ('not' in condition) return leaves(condition.not);
  return [{ field: condition.field, value: condition.value }];
}

/** The values to try for a field in a `where`: every one of a closed set, else those the conditions name and empty. */
function candidateValues(entity: EntityModel, field: string, named: readonly unknown[]): unknown[] {
  if (entity.workflow && entity.workflow.field === field) return entity.workflow.states.map((s) => s.name);
  const declared = entity.fieldsByName[field];
  if (declared?.type === 'boolean') return [true, false];
  if (declared?.type === 'enum') return [...declared.enumValues!];
  const literals = named.flatMap((v) => (Array.isArray(v) ? v : [v])).filter((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v));
  return [...new Set([...literals, ...(declared?.required ? [] : [null])])];
}

export function scopeDimensions(entity: EntityModel): ScopeDimensions {
  const own = new Set<string>();
  const via = new Set<string>();
  const named = new Map<string, unknown[]>();
  const actor = new Map<string, string>();
  const colleagues = new Set<string>();
  const paths = new Set<string>();
  for (const grant of Object.values(entity.permissions)) {
    for (const scope of everyScope(grant)) {
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
  }
  const where = new Map<string, readonly unknown[]>();
  for (const [field, values] of named) if (!own.has(field) && !via.has(field) && !actor.has(field) && !paths.has(field)) where.set(field, candidateValues(entity, field, values));
  for (const field of [...own, ...via]) {
    actor.delete(field);
    paths.delete(field);
  }
  return { own: [...own], where, via: [...via], actor, colleagues: [...colleagues], paths: [...paths].filter((f) => !actor.has(f)) };
}
