import type { Faker } from '@faker-js/faker';
import { ADMIN_ROLE } from '../access/grants';
import { evaluateCondition } from '../rules/condition-eval';
import { checkEntityRules } from '../rules/entity-rules';
import { dueHours } from '../spec/due';
import type { AppModel, EntityModel, FieldModel, TransitionModel } from '../spec/model';
import type { LimitSpec, Scope } from '../spec/types';
import { demoValue } from './demo-values';
import type { DemoUsers } from './demo-users';
import { creatorRoles, readScope, rolesForUserField, transitionRoles } from './user-pools';
import { walkWorkflow, type Values, type WalkStep } from './workflow-walk';

/** The records of an entity seeded so far: ids, and what later records need to know of each. */
export interface SeededRecords {
  readonly ids: number[];
  /** Per record (same index as ids): its values other than texts, with createdAt and updatedAt. */
  readonly facts: Values[];
}

/** What every record of one seeding run shares. */
export interface SeedRun {
  readonly model: AppModel;
  readonly faker: Faker;
  readonly now: Date;
  /** The span the main records' creation times are spread over. */
  readonly spanMs: number;
  readonly users: DemoUsers;
  readonly seeded: Map<string, SeededRecords>;
  /** Records counting towards each limit per owner: `<entity>:<limit>:<owner>`. */
  readonly limitCounts: Map<string, number>;
  /** Users that fit each user field: `<entity>.<field>`. */
  readonly pools: Map<string, readonly number[]>;
  /** Values of unique fields already used (lower case): `<entity>.<field>`. */
  readonly taken: Map<string, Set<string>>;
  /** Seeded records by the value of a field: `<entity>.<field>` (see indexOf). */
  readonly indexes: Map<string, Map<unknown, number[]>>;
}

/** One row of nf_audit, as the seeder inserts it. */
export interface HistoryRow {
  readonly at: Date;
  readonly actor_id: number | null;
  readonly action: string;
  /** JSON, in the shape ops write (history.ts): `{ fields: { name: [from, to] }, transition? }`. */
  readonly changes: string;
}

export interface DemoRecord {
  readonly row: Record<string, unknown>;
  readonly facts: Values;
  readonly history: readonly HistoryRow[];
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const RULE_ATTEMPTS = 12;

function pickFrom<T>(faker: Faker, list: readonly T[]): T | null {
  return list.length > 0 ? faker.helpers.arrayElement(list) : null;
}

function usersOf(run: SeedRun, roles: readonly string[]): number[] {
  return [...new Set(roles.flatMap((role) => run.users.byRole.get(role) ?? []))];
}

function hasRole(run: SeedRun, user: unknown, role: string): user is number {
  return typeof user === 'number' && (run.users.rolesOf.get(user)?.includes(role) ?? false);
}

function poolOf(run: SeedRun, entity: EntityModel, field: FieldModel): readonly number[] {
  const key = `${entity.name}.${field.name}`;
  let pool = run.pools.get(key);
  if (!pool) {
    pool = usersOf(run, rolesForUserField(run.model, entity, field.name));
    run.pools.set(key, pool);
  }
  return pool;
}

function limitMax(run: SeedRun, limit: LimitSpec): number {
  return typeof limit.max === 'number' ? limit.max : Number(run.model.constants[limit.max.$constant]?.value ?? Infinity);
}

/** The key of an owner's count towards a limit in SeedRun.limitCounts. */
export function limitKey(entity: EntityModel, name: string, owner: unknown): string {
  return `${entity.name}:${name}:${String(owner)}`;
}

function countsTowards(run: SeedRun, limit: LimitSpec, record: Values): boolean {
  const owner = record[limit.per];
  return owner !== null && owner !== undefined && (!limit.where || evaluateCondition(run.model, limit.where, record, run.now));
}

/** A user for a user field: one of the roles that fit it, preferring owners below their limits. */
function userFor(run: SeedRun, entity: EntityModel, field: FieldModel): number | null {
  const pool = poolOf(run, entity, field);
  const limited = Object.entries(entity.limits).filter(([, limit]) => limit.per === field.name);
  for (let attempt = 0; attempt < 20; attempt++) {
    const user = pickFrom(run.faker, pool);
    if (user === null) return null;
    if (limited.every(([name, limit]) => (run.limitCounts.get(limitKey(entity, name, user)) ?? 0) < limitMax(run, limit))) return user;
  }
  return pickFrom(run.faker, pool);
}

/** The title of the first record this one refers to by a required reference (a deal's company). */
function aboutOf(run: SeedRun, entity: EntityModel, record: Values): string | undefined {
  for (const field of entity.fields) {
    if (field.type !== 'reference' || !field.required || record[field.name] === null) continue;
    const target = run.model.entitiesByName[field.referenceTo!];
    const index = indexOf(run, target.name, 'id').get(record[field.name])?.[0];
    const title = index === undefined || !target.titleField ? undefined : run.seeded.get(target.name)?.facts[index][target.titleField];
    if (typeof title === 'string') return title;
  }
  return undefined;
}

function takenOf(run: SeedRun, entity: EntityModel, field: FieldModel): Set<string> {
  const key = `${entity.name}.${field.name}`;
  let taken = run.taken.get(key);
  if (!taken) run.taken.set(key, (taken = new Set()));
  return taken;
}

/** A value for one field of a record being made (`present`: never empty). */
function valueFor(run: SeedRun, entity: EntityModel, field: FieldModel, record: Values, at: Date, unique: number, present: boolean): unknown {
  if (!present && !field.required && field.type !== 'boolean' && run.faker.datatype.boolean({ probability: field.type === 'user' ? 0.3 : 0.2 })) return null;
  if (field.type === 'user') return userFor(run, entity, field);
  if (field.type === 'reference') return null;
  return demoValue(run.faker, { ...field, required: true }, unique, {
    entityName: entity.name,
    at,
    constants: run.model.constants,
    record,
    titleField: entity.titleField,
    taken: takenOf(run, entity, field),
    about: aboutOf(run, entity, record),
  });
}

/** Who among the role's users may read the record described by `facts`: everyone, some, or none. */
function readersOf(run: SeedRun, entity: EntityModel, role: string, facts: Values): 'all' | number[] {
  const scope = readScope(entity, role);
  if (scope === undefined) return [];
  if (scope === true) return 'all';
  if (scope.where && !evaluateCondition(run.model, scope.where, facts, run.now)) return [];
  // Two hops of `via` are not followed: the creator is then picked from another role.
  if (scope.via) return [];
  if (scope.own) return hasRole(run, facts[scope.own], role) ? [facts[scope.own] as number] : [];
  return 'all';
}

/** A user of the role who may create this record within the scope, or null when none may. */
function creatorInScope(run: SeedRun, entity: EntityModel, role: string, scope: Scope, record: Values, parents: Record<string, Values>, at: Date): number | null {
  const roleUsers = run.users.byRole.get(role) ?? [];
  if (scope === true) return pickFrom(run.faker, roleUsers);
  let user: number | null = null;
  if (scope.own) {
    if (!hasRole(run, record[scope.own], role)) return null;
    user = record[scope.own] as number;
  }
  if (scope.via) {
    const parent = parents[scope.via];
    const parentEntity = run.model.entitiesByName[entity.fieldsByName[scope.via]?.referenceTo ?? ''];
    if (!parent || !parentEntity) return null;
    const readers = readersOf(run, parentEntity, role, parent);
    if (readers !== 'all') {
      if (user !== null && !readers.includes(user)) return null;
      user ??= pickFrom(run.faker, readers);
    }
  }
  user ??= pickFrom(run.faker, roleUsers);
  if (user === null) return null;
  if (scope.where && !evaluateCondition(run.model, scope.where, record, at, { actorId: user })) return null;
  return user;
}

/**
 * Who created the record: the user a field defaulting to the actor names (a ticket's requester),
 * or a user of a role whose create scope admits the record as it is (a customer comments only
 * on their own tickets and never internally), staff roles before the built-in admin.
 */
function creatorOf(run: SeedRun, entity: EntityModel, record: Values, parents: Record<string, Values>, at: Date): number | null {
  for (const field of entity.fields) {
    if (field.spec.type === 'user' && field.spec.default === 'actor' && typeof record[field.name] === 'number') return record[field.name] as number;
  }
  const roles = creatorRoles(run.model, entity);
  const ordered = [...run.faker.helpers.shuffle(roles.filter((r) => r.role !== ADMIN_ROLE)), ...roles.filter((r) => r.role === ADMIN_ROLE)];
  for (const { role, scope } of ordered) {
    const user = creatorInScope(run, entity, role, scope, record, parents, at);
    if (user !== null) return user;
  }
  return pickFrom(run.faker, usersOf(run, roles.map((r) => r.role))) ?? pickFrom(run.faker, [...run.users.rolesOf.keys()]);
}

/**
 * Regenerates the fields named by the entity's rules that the record breaks (a due time before
 * creation, an urgent ticket without assignee) until it keeps them all; first with values that
 * are never empty, then allowing empty ones.
 */
function keepRules(run: SeedRun, entity: EntityModel, record: Values, at: Date, before: Values | null, unique: number): string[] {
  const changed = new Set<string>();
  for (let attempt = 0; attempt < RULE_ATTEMPTS; attempt++) {
    const broken = checkEntityRules(run.model, entity, record, at, before);
    if (broken.length === 0) break;
    for (const { field: name } of broken) {
      const field = entity.fieldsByName[name];
      if (!field || field.readOnly || field.type === 'reference') continue;
      record[name] = valueFor(run, entity, field, record, at, unique, attempt < RULE_ATTEMPTS / 2);
      changed.add(name);
    }
  }
  return [...changed];
}

/** Who takes a transition: the owner it names, else a person the record names who may, else anyone who may. */
function transitionActor(run: SeedRun, entity: EntityModel, transition: TransitionModel, record: Values, at: Date): number | null {
  for (const allowed of transition.allow) {
    if (typeof allowed === 'string') continue;
    const owner = record[allowed.owner];
    if (typeof owner === 'number' && (!allowed.when || evaluateCondition(run.model, allowed.when, record, at))) return owner;
  }
  const roles = transitionRoles(run.model, entity, transition);
  const staff = roles.filter((r) => r !== ADMIN_ROLE).length > 0 ? roles.filter((r) => r !== ADMIN_ROLE) : roles;
  const named = entity.fields.filter((f) => f.type === 'user').map((f) => record[f.name]).filter((u) => staff.some((role) => hasRole(run, u, role)));
  return (pickFrom(run.faker, named) as number | null) ?? pickFrom(run.faker, usersOf(run, staff));
}

/** Due times the engine keeps itself (an SLA: created at + hours for the priority), set as ops set them. */
function setDueTimes(entity: EntityModel, record: Values): void {
  for (const field of entity.fields) {
    if (!field.due) continue;
    const hours = dueHours(field.due, record);
    const from = record[field.due.from];
    record[field.name] = hours !== null && from instanceof Date ? new Date(from.getTime() + hours * HOUR_MS) : null;
  }
}

/** The declared fields whose value differs, as history stores them: name → [from, to]. */
function fieldDiff(entity: EntityModel, before: Values | null, after: Values): Record<string, [unknown, unknown]> {
  const diff: Record<string, [unknown, unknown]> = {};
  for (const field of entity.fields) {
    const from = before?.[field.name] ?? null;
    const to = after[field.name] ?? null;
    const same = from instanceof Date && to instanceof Date ? from.getTime() === to.getTime() : from === to;
    if (!same) diff[field.name] = [from, to];
  }
  return diff;
}

function historyOf(entity: EntityModel, creator: number | null, created: Values, steps: readonly WalkStep[]): HistoryRow[] {
  return [
    { at: created.createdAt as Date, actor_id: creator, action: 'create', changes: JSON.stringify({ fields: fieldDiff(entity, null, created) }) },
    ...steps.map((step) => ({
      at: step.at,
      actor_id: step.actorId,
      action: step.transition.name,
      changes: JSON.stringify({
        fields: fieldDiff(entity, step.before, step.after),
        transition: { name: step.transition.name, from: step.from, to: step.transition.to, comment: step.comment },
      }),
    })),
  ];
}

/** Positions of the seeded records of an entity by the value of one of their fields ("id" too). */
function indexOf(run: SeedRun, entityName: string, field: string): ReadonlyMap<unknown, number[]> {
  const key = `${entityName}.${field}`;
  let index = run.indexes.get(key);
  if (!index) {
    index = new Map();
    const seeded = run.seeded.get(entityName);
    seeded?.facts.forEach((facts, i) => {
      const value = field === 'id' ? seeded.ids[i] : facts[field];
      const list = index!.get(value) ?? [];
      list.push(i);
      index!.set(value, list);
    });
    run.indexes.set(key, index);
  }
  return index;
}

/**
 * A record for a reference that agrees with the references chosen before it: a deal's contact
 * works at the deal's company (the contact refers to the same company), and the other way round
 * (the company is the one the contact refers to). Unconstrained when nothing ties them; empty
 * (or, when required, any record) when nothing agrees.
 */
function pickReference(run: SeedRun, entity: EntityModel, field: FieldModel, targets: SeededRecords, record: Values, parents: Record<string, Values>): number | null {
  const target = run.model.entitiesByName[field.referenceTo!];
  let candidates: readonly number[] | null = null;
  const narrow = (found: readonly number[]) => {
    candidates = candidates === null ? found : candidates.filter((i) => found.includes(i));
  };
  for (const [name, parent] of Object.entries(parents)) {
    const parentEntity = run.model.entitiesByName[entity.fieldsByName[name].referenceTo!];
    for (const f of target.fields) {
      if (f.referenceTo === parentEntity.name && f.referenceTo !== target.name) narrow(indexOf(run, target.name, f.name).get(record[name]) ?? []);
    }
    for (const g of parentEntity.fields) {
      if (g.referenceTo === target.name && g.referenceTo !== parentEntity.name) narrow(indexOf(run, target.name, 'id').get(parent[g.name]) ?? []);
    }
  }
  const any = () => run.faker.number.int({ max: targets.ids.length - 1 });
  if (candidates === null) return any();
  return pickFrom(run.faker, candidates) ?? (field.required ? any() : null);
}

/**
 * When the record is created. A record that is part of another (a reference deleted with it: a
 * comment's ticket) is made while that one was active; any record comes after those it refers to.
 */
function creationTime(run: SeedRun, entity: EntityModel, nominal: Date, parents: Record<string, Values>): Date {
  let at = nominal.getTime();
  const latest = run.now.getTime() - MINUTE_MS;
  for (const [name, parent] of Object.entries(parents)) {
    const from = (parent.createdAt as Date).getTime() + MINUTE_MS;
    const field = entity.fieldsByName[name];
    if (field.spec.type === 'reference' && field.spec.onDelete === 'cascade') {
      const until = Math.max((parent.updatedAt as Date).getTime(), from + 2 * HOUR_MS);
      at = run.faker.number.int({ min: Math.min(from, latest), max: Math.min(until, latest) });
    } else if (at < from) {
      at = Math.min(from + run.faker.number.int({ max: 24 * HOUR_MS }), latest);
    }
  }
  return new Date(at);
}

/**
 * One coherent demo record of the entity: references to records that exist, people of the roles
 * that fit each user field, values that keep the entity's rules, a walk through its workflow,
 * and its history (created, then each transition) as ops would have written it.
 */
export function demoRecord(run: SeedRun, entity: EntityModel, nominal: Date, unique: number): DemoRecord {
  const { model, faker } = run;
  const record: Values = {};
  const parents: Record<string, Values> = {};
  for (const field of entity.fields) {
    if (field.type !== 'reference') continue;
    const targets = run.seeded.get(field.referenceTo!);
    const wanted = targets && targets.ids.length > 0 && (field.required || faker.datatype.boolean({ probability: 0.8 }));
    const index = wanted ? pickReference(run, entity, field, targets, record, parents) : null;
    record[field.name] = index === null ? null : targets!.ids[index];
    if (index !== null) parents[field.name] = targets!.facts[index];
  }
  const at = creationTime(run, entity, nominal, parents);
  record.createdAt = at;
  record.updatedAt = at;
  // Fields a transition requires are mostly filled on the way (a ticket gets its assignee when started).
  const filledLater = new Set(entity.workflow?.transitions.flatMap((t) => t.requires) ?? []);
  for (const field of entity.fields) {
    if (field.type === 'reference') continue;
    if (filledLater.has(field.name) && !field.required && faker.datatype.boolean({ probability: 0.8 })) record[field.name] = null;
    else if (field.readOnly) record[field.name] = 'default' in field.spec && field.spec.default !== undefined ? field.spec.default : null;
    else record[field.name] = valueFor(run, entity, field, record, at, unique, false);
  }
  if (entity.workflow) record[entity.workflow.field] = entity.workflow.initial;
  const creator = creatorOf(run, entity, record, parents, at);
  for (const field of entity.fields) {
    if (field.spec.type === 'user' && field.spec.default === 'actor' && record[field.name] === null) record[field.name] = creator;
  }
  keepRules(run, entity, record, at, null, unique);
  setDueTimes(entity, record);
  const created = { ...record };

  const age = (run.now.getTime() - at.getTime()) / run.spanMs;
  const limits = Object.entries(entity.limits);
  const { record: final, steps } = walkWorkflow(
    model,
    entity,
    faker,
    {
      actorFor: (transition, current, when) => transitionActor(run, entity, transition, current, when),
      valueFor: (name, current, when) => valueFor(run, entity, entity.fieldsByName[name], current, when, unique, true),
    },
    record,
    run.now,
    {
      // Records a month old or more have mostly reached the end of their workflow; new ones not yet.
      stopChance: Math.max(0.08, 0.45 - 0.4 * Math.min(1, age * 4)),
      mustLeave: (current) =>
        limits.some(([name, limit]) => countsTowards(run, limit, current) && (run.limitCounts.get(limitKey(entity, name, current[limit.per])) ?? 0) >= limitMax(run, limit)),
    },
  );
  const last = steps.at(-1);
  if (last) {
    // Rules on the final state (a won deal needs its close date) are kept by the last step (its `after` is `final`).
    keepRules(run, entity, final, last.at, created, unique);
    setDueTimes(entity, final);
  }
  for (const [name, limit] of limits) {
    if (!countsTowards(run, limit, final)) continue;
    const key = limitKey(entity, name, final[limit.per]);
    run.limitCounts.set(key, (run.limitCounts.get(key) ?? 0) + 1);
  }

  const row: Record<string, unknown> = {
    created_at: at,
    updated_at: final.updatedAt,
    created_by: creator,
    updated_by: last?.actorId ?? creator,
    version: 1 + steps.length,
  };
  for (const field of entity.fields) row[field.column] = final[field.name] ?? null;
  if (entity.workflow) row[entity.workflow.column] = final[entity.workflow.field];

  const facts: Values = {};
  for (const [name, value] of Object.entries(final)) {
    const type = entity.fieldsByName[name]?.type;
    if ((type !== 'text' && type !== 'markdown') || name === entity.titleField) facts[name] = value;
  }
  return { row, facts, history: historyOf(entity, creator, created, steps) };
}
