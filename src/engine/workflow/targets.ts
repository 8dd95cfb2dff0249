import { actorContext, evaluateCondition, type EvalContext, type RecordLike } from '../condition/evaluate';
import type { Actor } from '../ground/actor';
import type { AppModel, TransitionModel } from '../spec/model';

/*
 * Where a transition leads. Most have one state; a transition whose target depends on the data
 * lists targets, and the first whose `when` holds on the record (with the transition's input
 * applied) is entered. The last has no `when`, so one always is (the spec check makes sure).
 */

/** The state the transition enters for this record, as it would be with the transition's input. */
export function chooseTarget(model: AppModel, transition: TransitionModel, record: RecordLike, actor: Actor, now: Date): string {
  return chooseTargetFor(model, transition, record, now, actorContext(actor));
}

/** As chooseTarget, for whoever holds only an evaluation context (the demo data's walk). */
export function chooseTargetFor(model: AppModel, transition: TransitionModel, record: RecordLike, now: Date, context: EvalContext): string {
  const chosen = transition.to.find((target) => target.when === undefined || evaluateCondition(model, target.when, record, now, context));
  if (!chosen) throw new Error(`The transition "${transition.name}" has no target without a condition, though the spec check requires one`);
  return chosen.state;
}

/** Every state the transition may enter, each once, in order. */
export function targetStates(transition: Pick<TransitionModel, 'to'>): string[] {
  return [...new Set(transition.to.map((target) => target.state))];
}

/** Whether the state depends on the data (more than one target). */
export function chosenByData(transition: Pick<TransitionModel, 'to'>): boolean {
  return transition.to.length > 1;
}
