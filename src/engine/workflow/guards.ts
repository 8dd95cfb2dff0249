import type { Actor } from '../ground/actor';
import { readsActor } from '../condition/fields';
import { actorContext, evaluateCondition, type RecordLike } from '../condition/evaluate';
import type { AppModel, GuardModel, TransitionModel } from '../spec/model';
import type { Condition } from '../spec/types';

/*
 * A transition's guards, checked in the spec's order: the first that fails answers, with its own
 * code and message, and the later ones are not reported. A refusal carries one catalogue code
 * (clients branch on it, RFC 9457 has one `type`), and a later guard is often moot while an
 * earlier one fails: an amount threshold means nothing to someone who may not approve their own
 * request at all. So the spec puts the most fundamental first, and every door (API, forms, the
 * transition panel) says the same one reason.
 */

/** The first guard that does not hold for this record and actor; null when they all hold. */
export function failedGuard(model: AppModel, transition: TransitionModel, record: RecordLike, actor: Actor, now: Date): GuardModel | null {
  return transition.guards.find((guard) => !evaluateCondition(model, guard.when, record, now, actorContext(actor))) ?? null;
}

/**
 * The transition as the engine takes it on its own authority (an effect `as: 'system'`): only
 * the guards that do not read the user; a guard about who takes it has nobody to be about.
 */
export function withoutActorGuards(model: AppModel, transition: TransitionModel): TransitionModel {
  return { ...transition, guards: transition.guards.filter((guard) => !readsActor(model.conditions.of(guard.when))) };
}

/** What a failed guard says: its own message, else its code's catalogue message. */
export function guardMessage(model: AppModel, guard: GuardModel): string {
  return guard.message ?? model.errors[guard.code]?.message ?? 'Its conditions are not met.';
}

/** The catalogue codes a transition's guards may answer with, each once, in order. */
export function guardCodes(transition: TransitionModel): string[] {
  return [...new Set(transition.guards.map((guard) => guard.code))];
}

/** Every guard as one condition (all must hold), for whoever needs only whether they do (the demo data); undefined without guards. */
export function guardsCondition(transition: TransitionModel): Condition | undefined {
  const [first, ...rest] = transition.guards;
  if (!first) return undefined;
  return rest.length === 0 ? first.when : { all: transition.guards.map((guard) => guard.when) };
}
