import { checkEntityRules } from '../rules/entity-rules';
import { dueHours } from '../spec/due';
import type { EntityModel, FieldModel } from '../spec/model';
import { historyOf, type HistoryRow } from './demo-history';
import { countsTowards, creatorOf, limitKey, limitMax, transitionActor, userFor } from './demo-people';
import { aboutOf, creationTime, pickReference } from './demo-references';
import { alignWithCreator } from './demo-scopes';
import { takeUniqueWhen, uniqueWhenCollisions, uniqueWhenFreeFields } from './demo-unique-when';
import { demoValue } from './demo-values';
import type { SeedRun } from './seed-run';
import { walkWorkflow, type Values, type WalkStep } from './workflow-walk';

export interface DemoRecord {
  readonly row: Record<string, unknown>;
  readonly facts: Values;
  readonly history: readonly HistoryRow[];
  /** The ids each references field holds (written to its join table once the record has its id). */
  readonly sets: Readonly<Record<string, readonly number[]>>;
}

/** At most this many records in a demo set (a few tags, not all of them). */
const DEMO_SET_SIZE = 3;

const HOUR_MS = 60 * 60_000;
const RULE_ATTEMPTS = 12;

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
  if (field.type === 'reference' || field.type === 'references') return field.type === 'references' ? record[field.name] ?? [] : null;
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
      if (!field || field.readOnly || field.type === 'reference' || field.type === 'references') continue;
      record[name] = valueFor(run, entity, field, record, at, unique, attempt < RULE_ATTEMPTS / 2);
      changed.add(name);
    }
  }
  return [...changed];
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
function keepUniqueWhen(run: SeedRun, entity: EntityModel, created: Values, steps: readonly WalkStep[], final: Values, unique: number): boolean {
  const versions = [created, ...steps.flatMap((s) => [s.before, s.after])];
  for (let attempt = 0; attempt < RULE_ATTEMPTS; attempt++) {
    const colliding = uniqueWhenCollisions(run, entity, final);
    if (colliding.length === 0) return true;
    const free = uniqueWhenFreeFields(entity, colliding).filter((name) => steps.every((s) => s.before[name] === s.after[name]));
    if (free.length === 0) return false;
    for (const name of free) {
      const value = valueFor(run, entity, entity.fieldsByName[name], final, created.createdAt as Date, unique, attempt < RULE_ATTEMPTS / 2);
      for (const version of versions) version[name] = value;
      final[name] = value;
    }
    if (checkEntityRules(run.model, entity, final, final.updatedAt as Date, created).length > 0) return false;
  }
  return uniqueWhenCollisions(run, entity, final).length === 0;
}

const UNIQUE_WHEN_ATTEMPTS = 8;

/**
 * One coherent demo record of the entity: references to records that exist, people of the roles
 * that fit each user field, values that keep the entity's rules and its `uniqueWhen` (made
 * afresh when it cannot keep them otherwise), a walk through its workflow, and its history
 * (created, then each transition) as ops would have written it.
 */
export function demoRecord(run: SeedRun, entity: EntityModel, nominal: Date, unique: number): DemoRecord {
  for (let attempt = 1; ; attempt++) {
    const made = attemptRecord(run, entity, nominal, unique);
    if (made) return made;
    if (attempt === UNIQUE_WHEN_ATTEMPTS) {
      const rules = uniqueWhenFreeFields(entity, entity.uniqueWhen);
      throw new Error(`${entity.name}: no demo record keeps its uniqueWhen rules (fields ${rules.join(', ') || 'none'} free); seed fewer records`);
    }
  }
}

function attemptRecord(run: SeedRun, entity: EntityModel, nominal: Date, unique: number): DemoRecord | null {
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
  for (const field of entity.fields) {
    if (field.type !== 'references') continue;
    // A few records of those seeded, none sometimes unless required.
    const ids = run.seeded.get(field.referenceTo!)?.ids ?? [];
    const cap = Math.min(DEMO_SET_SIZE, field.spec.type === 'references' ? (field.spec.maxItems ?? DEMO_SET_SIZE) : DEMO_SET_SIZE, ids.length);
    const count = faker.number.int({ min: field.required && cap > 0 ? 1 : 0, max: cap });
    record[field.name] = [...new Set(faker.helpers.arrayElements(ids, count))].sort((a, b) => a - b);
  }
  const at = creationTime(run, entity, nominal, parents);
  record.createdAt = at;
  record.updatedAt = at;
  // Fields a transition requires are mostly filled on the way (a ticket gets its assignee when started).
  const filledLater = new Set(entity.workflow?.transitions.flatMap((t) => t.requires) ?? []);
  for (const field of entity.fields) {
    if (field.type === 'reference' || field.type === 'references') continue;
    if (filledLater.has(field.name) && !field.required && faker.datatype.boolean({ probability: 0.8 })) record[field.name] = null;
    else if (field.readOnly) record[field.name] = 'default' in field.spec && field.spec.default !== undefined ? field.spec.default : null;
    else record[field.name] = valueFor(run, entity, field, record, at, unique, false);
  }
  if (entity.workflow) record[entity.workflow.field] = entity.workflow.initial;
  const creator = creatorOf(run, entity, record, parents, at);
  // What the creator's create scope ties to them (a writer's team) is theirs.
  alignWithCreator(run, entity, record, creator);
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
      // A limit its owner has reached, or a uniqueWhen another record holds that other values
      // cannot get it out of (keepUniqueWhen tries those after the walk): on to another state.
      mustLeave: (current) =>
        limits.some(([name, limit]) => countsTowards(run, limit, current) && (run.limitCounts.get(limitKey(entity, name, current[limit.per])) ?? 0) >= limitMax(run, limit)) ||
        uniqueWhenCollisions(run, entity, current, true).length > 0,
    },
  );
  const last = steps.at(-1);
  if (last) {
    // Rules on the final state (a won deal needs its close date) are kept by the last step (its `after` is `final`).
    keepRules(run, entity, final, last.at, created, unique);
    setDueTimes(entity, final);
  }
  if (!keepUniqueWhen(run, entity, created, steps, final, unique)) return null;
  takeUniqueWhen(run, entity, final);
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
