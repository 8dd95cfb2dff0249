import { conditionPaths } from '../rules/condition-paths';
import { checkEntityRules } from '../rules/entity-rules';
import { fieldSchema, issueMessage } from '../rules/field-schema';
import { dueHours } from '../spec/due';
import { setComputedValues } from './demo-computed';
import type { EntityModel, FieldModel } from '../spec/model';
import type { Condition } from '../spec/types';
import { lateChoice, openDeadline, type LateChoice } from './demo-deadlines';
import { historyOf, type HistoryRow } from './demo-history';
import { countsTowards, creatorOf, limitKey, seedLimitMax, transitionActor, userFor, usersFor } from './demo-people';
import { aboutOf, creationTime, pickReference } from './demo-references';
import { alignWithCreator } from './demo-scopes';
import { freeFor, isUniquePart, takeUnique, uniqueCollisions } from './demo-unique';
import { takeUniqueWhen, uniqueWhenCollisions, uniqueWhenFreeFields } from './demo-unique-when';
import { exclusiveCollisions, takeExclusive } from './demo-exclusive';
import { seedActor, withSeedPaths } from './demo-user-fields';
import { demoValue, NoDemoValue } from './demo-values';
import { seededAt, type SeedRun } from './seed-run';
import { walkWorkflow, type Values, type WalkStep } from './workflow-walk';
import { declaredField } from '../ops/declared';

export interface DemoRecord {
  readonly row: Record<string, unknown>;
  readonly facts: Values;
  readonly history: readonly HistoryRow[];
  /** The ids each references field holds (written to its join table once the record has its id). */
  readonly sets: Readonly<Record<string, readonly number[]>>;
}

/**
 * Why no record was made: every free value of a unique field (or `uniqueTogether`, `uniqueWhen`)
 * is taken, or nothing is left to refer to; the entity has as many records as it can hold.
 */
export interface NoRoom {
  readonly noRoom: string;
}

/** At most this many records in a demo set (a few tags, not all of them). */
const DEMO_SET_SIZE = 3;

const HOUR_MS = 60 * 60_000;
const RULE_ATTEMPTS = 12;
/** Values tried for a field of a unique key before it counts as having no free value left. */
const UNIQUE_TRIES = 24;
/** Records tried afresh (other references, people, values) before the seeder gives up on one. */
const RECORD_ATTEMPTS = 8;

/** One attempt at a record: what it refers to, and what ran out. */
interface Making {
  readonly run: SeedRun;
  readonly entity: EntityModel;
  readonly unique: number;
  readonly parents: Record<string, Values>;
  /** Required fields of a unique key left without a free value (every user already named). */
  readonly exhausted: Set<string>;
  /** Who creates it, once known. */
  creator: number | null;
}

/** Why an attempt failed: no room (see NoRoom), or a record that breaks the spec's validation. */
type Failure = { readonly kind: 'noRoom' | 'invalid'; readonly detail: string };
/** A record still open past its deadline, to be made again as the choice says (see demo-deadlines.ts). */
type Late = { readonly kind: 'late'; readonly choice: LateChoice };

/** Times a record late on its deadline is made again before it is taken as it is. */
const LATE_REMAKES = 8;
/** Of those, the times one is made again to be a little late. */
const AIM_LATE_REMAKES = 5;
/** The chance of stopping before each step of a record made to be a little late (see demo-deadlines.ts). */
const AIM_LATE_STOP = 0.6;

/** A value for one field of a record being made (`present`: never empty); free when the field is part of a unique key. */
function valueFor(making: Making, field: FieldModel, record: Values, at: Date, present: boolean): unknown {
  const { run, entity, unique } = making;
  if (
    !present &&
    !field.required &&
    field.type !== 'boolean' &&
    run.faker.datatype.boolean({ probability: field.type === 'user' ? 0.3 : 0.2 })
  )
    return null;
  const free = isUniquePart(entity, field) ? freeFor(run, entity, field, record) : null;
  if (field.type === 'user') {
    const user = userFor(run, entity, field, free ?? undefined);
    if (user === null && free && field.required) making.exhausted.add(field.name);
    return user;
  }
  if (field.type === 'reference' || field.joinTable !== undefined) return field.joinTable !== undefined ? (record[field.name] ?? []) : null;
  for (let attempt = 0; ; attempt++) {
    let value: unknown;
    try {
      value = demoValue(run.faker, { ...field, required: true }, unique, {
        entityName: entity.name,
        at,
        constants: run.model.constants,
        record,
        titleField: entity.titleField,
        fields: entity.fields,
        isFree: free ?? undefined,
        attempt,
        // What the record belongs to, for a title that names it (texts only).
        about: field.type === 'text' ? aboutOf(run, entity, record) : undefined,
      });
    } catch (error) {
      // A pattern beyond the generator: an optional field stays empty, a required one stops the seed with the message.
      if (error instanceof NoDemoValue && !field.required) return null;
      throw error;
    }
    if (!free || free(value)) return value;
    if (attempt === UNIQUE_TRIES) {
      if (field.required) making.exhausted.add(field.name);
      return field.required ? value : null;
    }
  }
}

/** The value a read-only field starts with: its default as ops set it on create ('now' is the creation time). */
function readOnlyStart(field: FieldModel, at: Date): unknown {
  const d = field.defaultTo?.kind === 'value' ? field.defaultTo.value : 'default' in field.spec ? field.spec.default : undefined;
  if (d === undefined) return null;
  if (field.type === 'datetime' && d === 'now') return at;
  // The actor: the record's creator, known once the record is (see attemptRecord).
  if (field.type === 'user' && d === 'actor') return null;
  return d;
}

/** Every condition of the entity's rules as one, when they read a path (`practitioner.account`). */
const rulePaths = new WeakMap<EntityModel, Condition | null>();

function rulesWithPaths(entity: EntityModel): Condition | null {
  let condition = rulePaths.get(entity);
  if (condition === undefined) {
    const all = Object.values(entity.rules).flatMap((r) => (r.when ? [r.when, r.assert] : [r.assert]));
    condition = conditionPaths(all).length > 0 ? { all } : null;
    rulePaths.set(entity, condition);
  }
  return condition;
}

/** The rules the record breaks as ops check them at `at` (with the paths it reads, and who writes). */
function brokenRules(making: Making, record: Values, at: Date, before: Values | null, actorId: number | null) {
  const { run, entity } = making;
  if (Object.keys(entity.rules).length === 0) return [];
  const paths = rulesWithPaths(entity);
  const withPaths = paths ? withSeedPaths(run, entity, paths, record, making.parents) : record;
  return checkEntityRules(run.model, entity, withPaths, at, before, actorId === null ? { actorId: null } : seedActor(run, actorId));
}

/**
 * Regenerates the fields named by the entity's rules that the record breaks (a due time before
 * creation, an urgent ticket without assignee) until it keeps them all; first with values that
 * are never empty, then allowing empty ones. Whether it keeps them in the end.
 */
function keepRules(making: Making, record: Values, at: Date, before: Values | null, actorId: number | null): boolean {
  const { entity } = making;
  for (let attempt = 0; ; attempt++) {
    setDueTimes(entity, record);
    setComputedValues(making.run, entity, record);
    const broken = brokenRules(making, record, at, before, actorId);
    if (broken.length === 0) return true;
    if (attempt === RULE_ATTEMPTS) return false;
    for (const { field: name } of broken) {
      const field = entity.fieldsByName[name];
      if (!field || field.readOnly || field.due || field.type === 'reference' || field.joinTable !== undefined) continue;
      record[name] = valueFor(making, field, record, at, attempt < RULE_ATTEMPTS / 2);
    }
  }
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

/**
 * Gets a made record out of the `uniqueWhen` rules it collides with (a second featured article
 * in a section): other values for the fields those rules read that its workflow never changed,
 * set from its creation on so that its history agrees. False when no values get it out.
 */
function keepUniqueWhen(making: Making, created: Values, steps: readonly WalkStep[], final: Values): boolean {
  const { run, entity } = making;
  const versions = [created, ...steps.flatMap((s) => [s.before, s.after])];
  for (let attempt = 0; attempt < RULE_ATTEMPTS; attempt++) {
    const colliding = uniqueWhenCollisions(run, entity, final);
    if (colliding.length === 0) return true;
    const free = uniqueWhenFreeFields(entity, colliding).filter((name) => steps.every((s) => s.before[name] === s.after[name]));
    if (free.length === 0) return false;
    for (const name of free) {
      const value = valueFor(making, declaredField(entity, name), final, created.createdAt as Date, attempt < RULE_ATTEMPTS / 2);
      for (const version of versions) version[name] = value;
      final[name] = value;
    }
    // The new values hold from its creation on: each write must still keep the rules.
    if (rulesBrokenOnTheWay(making, created, steps)) return false;
  }
  return uniqueWhenCollisions(run, entity, final).length === 0;
}

/** Per field: its schema, and its verdict on values seen (texts, numbers, ids repeat: an enum's few values). */
const checks = new WeakMap<FieldModel, { schema: ReturnType<typeof fieldSchema>; verdicts: Map<unknown, string | null> }>();
const MAX_VERDICTS = 5000;

/** What the field's schema (ops' own check of every value) says is wrong with the value, or null. */
function fieldProblem(making: Making, field: FieldModel, value: unknown): string | null {
  const { run } = making;
  let check = checks.get(field);
  if (!check) checks.set(field, (check = { schema: fieldSchema(field), verdicts: new Map() }));
  const remembered = typeof value !== 'object' || value === null;
  let verdict = remembered ? check.verdicts.get(value) : undefined;
  if (verdict === undefined) {
    const parsed = check.schema.safeParse(value);
    // A failed parse has one issue at least.
    verdict = parsed.success ? null : `${field.name}: ${issueMessage(parsed.error.issues[0]!, field)}`;
    if (remembered && check.verdicts.size < MAX_VERDICTS) check.verdicts.set(value, verdict);
  }
  if (verdict !== null) return verdict;
  if (field.holderRoles && typeof value === 'number' && !field.holderRoles.some((role) => run.users.rolesOf.get(value)?.includes(role))) {
    return `${field.name}: user #${value} holds none of the roles ${field.holderRoles.join(', ')}`;
  }
  return null;
}

/** Whether the record's creation (by its creator) or one of its steps breaks a rule at its time. */
function rulesBrokenOnTheWay(making: Making, created: Values, steps: readonly WalkStep[]): boolean {
  return (
    brokenRules(making, created, created.createdAt as Date, null, making.creator).length > 0 ||
    steps.some((step) => brokenRules(making, step.after, step.at, step.before, step.actorId).length > 0)
  );
}

/**
 * The record's values checked as ops would have checked each of its writes (its rules were kept
 * on the way: keepRules): every value of its creation by its field's schema, and at each step the
 * values it changed. The first problem found, or null.
 */
function problemOf(making: Making, created: Values, steps: readonly WalkStep[]): string | null {
  const { entity } = making;
  for (const field of entity.fields) {
    const value = created[field.name] ?? null;
    // A field only the engine sets, without a default, starts empty: ops do not check it on create.
    if (value === null && (field.readOnly || field.due) && !('default' in field.spec && field.spec.default !== undefined)) continue;
    const problem = fieldProblem(making, field, value);
    if (problem) return problem;
  }
  for (const step of steps) {
    for (const field of entity.fields) {
      if (step.after[field.name] === step.before[field.name]) continue;
      const problem = fieldProblem(making, field, step.after[field.name] ?? null);
      if (problem) return `${problem} (after ${step.transition.name})`;
    }
  }
  return null;
}

/**
 * One coherent demo record of the entity: references to records that exist, people of the roles
 * that fit each user field, values that keep the entity's field schemas, rules, unique keys and
 * `uniqueWhen` (made afresh when it cannot keep them otherwise), a walk through its workflow, and
 * its history (created, then each transition) as ops would have written it. A record still open
 * past its deadline is made again (see demo-deadlines.ts). NoRoom when the entity's unique values
 * have run out; an Error naming what breaks when no record passes the spec's validation.
 */
export function demoRecord(run: SeedRun, entity: EntityModel, nominal: Date, unique: number): DemoRecord | NoRoom {
  let failure: Failure | null = null;
  let at = nominal;
  const late = { finish: false, aimLate: false, remakes: 0 };
  for (let attempt = 0; attempt < RECORD_ATTEMPTS;) {
    const made = attemptRecord({ run, entity, unique, parents: {}, exhausted: new Set(), creator: null }, at, late);
    if (!('kind' in made)) return made;
    if (made.kind === 'late') {
      const choice = made.choice;
      late.remakes++;
      late.finish = 'finish' in choice;
      // A record that stays in time or late by too much after a few tries is made in time instead.
      late.aimLate = 'late' in choice && choice.late && late.remakes <= AIM_LATE_REMAKES;
      if ('madeAt' in choice) at = choice.madeAt;
      continue;
    }
    failure = made;
    attempt++;
  }
  if (failure!.kind === 'noRoom') return { noRoom: failure!.detail };
  throw new Error(`${entity.name}: the seeder made no record that passes the spec's validation (${failure!.detail}).`);
}

function attemptRecord(
  making: Making,
  nominal: Date,
  late: { readonly finish: boolean; readonly aimLate: boolean; readonly remakes: number },
): DemoRecord | Failure | Late {
  const { run, entity, parents } = making;
  const { model, faker } = run;
  const record: Values = {};
  for (const field of entity.fields) {
    if (field.type !== 'reference') continue;
    const targets = run.seeded.get(field.referenceTo!);
    if (field.required && !targets?.ids.length) return { kind: 'noRoom', detail: `no ${field.referenceTo} to refer to` };
    const wanted = targets && targets.ids.length > 0 && (field.required || faker.datatype.boolean({ probability: 0.8 }));
    const free = isUniquePart(entity, field) ? freeFor(run, entity, field, record) : undefined;
    const index = wanted ? pickReference(run, entity, field, targets, record, parents, free) : null;
    if (index === null && field.required) return { kind: 'noRoom', detail: `every ${field.referenceTo} is taken for ${field.name}` };
    const picked = index === null ? null : seededAt(targets!, index);
    record[field.name] = picked === null ? null : picked.id;
    if (picked !== null) parents[field.name] = picked.facts;
  }
  for (const field of entity.fields) {
    if (field.type !== 'references') continue;
    // A few records of those seeded, none sometimes unless required.
    const ids = run.seeded.get(field.referenceTo!)?.ids ?? [];
    if (field.required && ids.length === 0) return { kind: 'noRoom', detail: `no ${field.referenceTo} to refer to` };
    const cap = Math.min(DEMO_SET_SIZE, field.maxItems ?? DEMO_SET_SIZE, ids.length);
    const count = faker.number.int({ min: field.required && cap > 0 ? 1 : 0, max: cap });
    record[field.name] = [...new Set(faker.helpers.arrayElements(ids, count))].sort((a, b) => a - b);
  }
  for (const field of entity.fields) {
    if (field.type !== 'users') continue;
    const users = usersFor(run, entity, field, DEMO_SET_SIZE);
    if (field.required && users.length === 0) return { kind: 'noRoom', detail: `no user to be one of ${field.name}` };
    record[field.name] = users;
  }
  const at = creationTime(run, entity, nominal, parents);
  record.createdAt = at;
  record.updatedAt = at;
  // Fields a transition requires are mostly filled on the way (a ticket gets its assignee when started).
  const filledLater = new Set(entity.workflow?.transitions.flatMap((t) => t.requires) ?? []);
  for (const field of entity.fields) {
    if (field.type === 'reference' || field.joinTable !== undefined) continue;
    // A derived value is the database's: its column's default, then its triggers as related records arrive.
    if (field.derived) continue;
    const actorDefault = field.spec.type === 'user' && field.spec.default === 'actor';
    if (filledLater.has(field.name) && !field.required && faker.datatype.boolean({ probability: 0.8 })) record[field.name] = null;
    // Who creates it is picked among the users still free for a unique field that names the actor (one profile each).
    else if (field.readOnly && !(actorDefault && isUniquePart(entity, field))) record[field.name] = readOnlyStart(field, at);
    else record[field.name] = valueFor(making, field, record, at, false);
  }
  if (making.exhausted.size > 0) return { kind: 'noRoom', detail: `no free value left for ${[...making.exhausted].join(', ')}` };
  if (entity.workflow) record[entity.workflow.field] = entity.workflow.initial;
  const creator = creatorOf(run, entity, record, parents, at);
  making.creator = creator;
  // What the creator's create scope ties to them (a writer's team) is theirs.
  alignWithCreator(run, entity, record, creator);
  for (const field of entity.fields) {
    if (field.spec.type === 'user' && field.spec.default === 'actor' && record[field.name] === null) record[field.name] = creator;
  }
  if (!keepRules(making, record, at, null, creator)) {
    const broken = brokenRules(making, record, at, null, creator);
    return { kind: 'invalid', detail: `on create it breaks ${broken.map((r) => `${r.code} (${r.message})`).join(', ')}` };
  }
  const created = { ...record };

  const age = (run.now.getTime() - at.getTime()) / run.spanMs;
  const limits = Object.entries(entity.limits);
  const { record: final, steps } = walkWorkflow(
    model,
    entity,
    faker,
    {
      actorFor: (transition, current, when) => transitionActor(run, entity, transition, current, when),
      valueFor: (name, current, when) => valueFor(making, declaredField(entity, name), current, when, true),
      keepsRules: (next, when, before, actorId) => keepRules(making, next, when, before, actorId),
    },
    record,
    run.now,
    {
      // Records a month old or more have mostly reached the end of their workflow; new ones not yet.
      // One made to be a little late is one still open: it mostly stops early.
      stopChance: late.aimLate ? AIM_LATE_STOP : Math.max(0.08, 0.45 - 0.4 * Math.min(1, age * 4)),
      // A limit its owner has reached, or a uniqueWhen another record holds that other values
      // cannot get it out of (keepUniqueWhen tries those after the walk): on to another state.
      mustLeave: (current) =>
        (late.finish && openDeadline(model, entity, current, run.now) !== null) ||
        limits.some(
          ([name, limit]) =>
            countsTowards(run, limit, current) &&
            (run.limitCounts.get(limitKey(entity, name, current[limit.per])) ?? 0) >= seedLimitMax(limit),
        ) ||
        uniqueWhenCollisions(run, entity, current, true).length > 0,
    },
  );
  if (late.remakes < LATE_REMAKES) {
    const choice = lateChoice(model, entity, faker, final, run.now, {
      first: late.remakes === 0,
      canFinish: !late.finish,
      aimLate: late.aimLate,
    });
    if (choice && !('keep' in choice)) return { kind: 'late', choice };
  }
  if (!keepUniqueWhen(making, created, steps, final))
    return {
      kind: 'noRoom',
      detail: `its uniqueWhen rules (fields ${uniqueWhenFreeFields(entity, entity.uniqueWhen).join(', ') || 'none'} free)`,
    };
  const problem = problemOf(making, created, steps);
  if (problem) return { kind: 'invalid', detail: problem };
  const taken = uniqueCollisions(run, entity, final);
  if (taken.length > 0) return { kind: 'noRoom', detail: `no free value left for ${taken.join(', ')}` };
  // A range that overlaps one already made (a technician's visits): no time left for it.
  if (exclusiveCollisions(run, entity, final).length > 0)
    return { kind: 'noRoom', detail: 'its range overlaps another record of its exclusive rules' };
  // An owner at the demo's share of a limit (whose records the walk could not move out of it) gets no more.
  const full = limits.filter(
    ([name, limit]) =>
      countsTowards(run, limit, final) && (run.limitCounts.get(limitKey(entity, name, final[limit.per])) ?? 0) >= seedLimitMax(limit),
  );
  if (full.length > 0)
    return {
      kind: 'noRoom',
      detail: `every ${full.map(([, limit]) => limit.per).join(', ')} has as many as the demo gives under the limit ${full.map(([name]) => name).join(', ')} (one fewer, so each can still add one)`,
    };
  takeUnique(run, entity, final);
  takeUniqueWhen(run, entity, final);
  takeExclusive(run, entity, final);
  for (const [name, limit] of limits) {
    if (!countsTowards(run, limit, final)) continue;
    const key = limitKey(entity, name, final[limit.per]);
    run.limitCounts.set(key, (run.limitCounts.get(key) ?? 0) + 1);
  }

  const last = steps.at(-1);
  const row: Record<string, unknown> = {
    created_at: at,
    updated_at: final.updatedAt,
    created_by: creator,
    updated_by: last?.actorId ?? creator,
    version: 1 + steps.length,
  };
  const sets: Record<string, readonly number[]> = {};
  for (const field of entity.fields) {
    if (field.joinTable) sets[field.name] = (final[field.name] as readonly number[] | undefined) ?? [];
    else row[field.column] = final[field.name] ?? null;
  }
  if (entity.workflow) row[entity.workflow.column] = final[entity.workflow.field];

  const facts: Values = {};
  for (const [name, value] of Object.entries(final)) {
    const type = entity.fieldsByName[name]?.type;
    if ((type !== 'text' && type !== 'markdown') || name === entity.titleField) facts[name] = value;
  }
  return { row, facts, history: historyOf(entity, creator, created, steps), sets };
}
