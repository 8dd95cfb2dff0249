import { chooseTargetFor, targetStates } from '../workflow/targets';
import type { Faker } from '@faker-js/faker';
import { evaluateCondition } from '../condition/evaluate';
import { readsActor } from '../rules/condition-paths';
import type { AppModel, EntityModel, TransitionModel } from '../spec/model';
import { guardsCondition } from '../workflow/guards';
import { dueAutomaticStep } from './automatic-steps';
import type { Values, WalkStep } from './walk-step';

export type { Values, WalkStep } from './walk-step';
import { transitionComment } from './demo-texts';

/** What the walk needs from the seeder: people and values for the fields a transition requires. */
export interface WalkHelpers {
  /** A user allowed to take the transition on this record at that time, or null when nobody is. */
  actorFor(transition: TransitionModel, record: Values, at: Date): number | null;
  /** A value for a field a transition requires and the record lacks. */
  valueFor(fieldName: string, record: Values, at: Date): unknown;
  /**
   * Whether the record after a step keeps the entity's rules, as ops check them on a transition
   * (`before`: the record before it); the seeder may give the fields they name other values first.
   */
  keepsRules(record: Values, at: Date, before: Values, actorId: number): boolean;
}

export interface WalkOptions {
  /** The chance of stopping before each step: young records stop early, old ones have moved on. */
  readonly stopChance: number;
  /** While this holds the walk goes on, however young the record (a limit its owner has reached). */
  readonly mustLeave?: (record: Values) => boolean;
}

const MAX_STEPS = 8;
const EXIT_ONLY_STAY = 0.75;
const MAX_FORCED_STEPS = 20;
const MINUTE_MS = 60_000;
const MAX_GAP_MS = 3 * 24 * 60 * MINUTE_MS;

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/**
 * Moves a new record through its workflow as people would have: from the initial state, one
 * transition at a time, each at a later time (never after `now`), taken by someone allowed to,
 * with the fields it requires filled first, its guard holding, its effects applied (a resolved
 * ticket has its resolved time) and the entity's rules kept. Transitions to states not yet visited weigh three times
 * as much, so that records move forward more often than they go round in circles; a transition
 * from several states (a way out: lose, cancel) weighs less from each, so few take the exit early.
 */
export function walkWorkflow(
  model: AppModel,
  entity: EntityModel,
  faker: Faker,
  helpers: WalkHelpers,
  start: Values,
  now: Date,
  options: WalkOptions,
): { record: Values; steps: WalkStep[] } {
  const workflow = entity.workflow;
  if (!workflow) return { record: start, steps: [] };
  const steps: WalkStep[] = [];
  const visited = new Set<string>([String(start[workflow.field])]);
  let record = start;
  let time = (start.createdAt as Date).getTime();
  const take = (step: WalkStep) => {
    steps.push(step);
    record = step.after;
    time = step.at.getTime();
    visited.add(step.to);
  };
  // The system takes automatic transitions: the rules hold for it as for anyone (no user of its own).
  const systemRules = (next: Values, at: Date, before: Values) => helpers.keepsRules(next, at, before, 0);
  for (let n = 0; n < MAX_STEPS || (n < MAX_FORCED_STEPS && options.mustLeave?.(record)); n++) {
    const state = String(record[workflow.field]);
    if (workflow.states.find((s) => s.name === state)?.final) break;
    const forced = options.mustLeave?.(record) ?? false;
    const remaining = now.getTime() - time;
    if (!forced && (remaining < 30 * MINUTE_MS || faker.datatype.boolean({ probability: options.stopChance }))) break;
    const gap = forced
      ? remaining * faker.number.float({ min: 0.05, max: 0.3 })
      : faker.number.int({ min: 10 * MINUTE_MS, max: Math.max(10 * MINUTE_MS, Math.min(MAX_GAP_MS, remaining / 2)) });
    const at = new Date(Math.min(time + gap, now.getTime() - 1000));
    // The scheduler comes first when it would have moved the record before this step.
    const automatic = dueAutomaticStep(model, entity, record, time, at, systemRules);
    if (automatic) {
      take(automatic);
      continue;
    }
    const leaving = workflow.transitions.filter((t) => t.from.includes(state));
    // Where the only ways on are ways out (archive a published article), most records stay.
    if (!forced && leaving.every((t) => t.from.length > 1) && faker.datatype.boolean({ probability: EXIT_ONLY_STAY })) break;
    const weight = (t: TransitionModel) => (faker.number.float() * (targetStates(t).some((s) => visited.has(s)) ? 1 : 3)) / t.from.length;
    const ordered = leaving
      .map((t) => ({ t, w: weight(t) }))
      .sort((a, b) => b.w - a.w)
      .map(({ t }) => t);
    const possible = ordered.map((t) => tryTransition(model, faker, helpers, workflow.field, t, record, at)).filter((s) => s !== null);
    // A record that must leave takes the way out when there is one.
    const step = (forced ? possible.find((s) => !options.mustLeave!(s.after)) : undefined) ?? possible[0];
    if (!step) break;
    take(step);
  }
  // Where the walk stopped, the scheduler would have gone on (a resolved ticket closes after its days).
  for (let n = 0; n < MAX_STEPS; n++) {
    const automatic = dueAutomaticStep(model, entity, record, time, now, systemRules);
    if (!automatic) break;
    take(automatic);
  }
  return { record, steps };
}

function tryTransition(
  model: AppModel,
  faker: Faker,
  helpers: WalkHelpers,
  stateField: string,
  transition: TransitionModel,
  record: Values,
  at: Date,
): WalkStep | null {
  const next: Values = { ...record };
  for (const name of transition.requires) if (isEmpty(next[name])) next[name] = helpers.valueFor(name, next, at);
  if (transition.requires.some((name) => isEmpty(next[name]))) return null;
  const guard = guardsCondition(transition);
  if (guard && !readsActor(guard) && !evaluateCondition(model, guard, next, at)) return null;
  let actorId = helpers.actorFor(transition, next, at);
  // A guard on who takes it (four eyes: not the author) holds for some of those who may: try a few.
  for (let tries = 0; guard && readsActor(guard) && actorId !== null && tries < 3; tries += 1) {
    if (evaluateCondition(model, guard, next, at, { actorId })) break;
    actorId = tries < 2 ? helpers.actorFor(transition, next, at) : null;
  }
  if (actorId === null) return null;
  for (const effect of transition.effects) next[effect.set] = effect.to === 'now' ? at : effect.to === 'actor' ? actorId : effect.to;
  next.updatedAt = at;
  const to = chooseTargetFor(model, transition, next, at, { actorId });
  next[stateField] = to;
  if (!helpers.keepsRules(next, at, record, actorId)) return null;
  const comment =
    transition.comment === 'required' || (transition.comment === 'optional' && faker.datatype.boolean({ probability: 0.3 }))
      ? transitionComment(faker)
      : null;
  return { transition, from: String(record[stateField]), to, at, actorId, comment, before: record, after: next };
}
