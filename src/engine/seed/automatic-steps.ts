import { evaluateCondition } from '../condition/evaluate';
import { autoDueAt } from '../spec/auto';
import { describeAutoReason } from '../spec/describe/auto';
import type { AppModel, EntityModel } from '../spec/model';
import { guardsCondition } from '../workflow/guards';
import { chooseTargetFor } from '../workflow/targets';
import type { Values, WalkStep } from './walk-step';

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/**
 * The automatic transition a record in its current state would have been taken by the scheduler
 * by `until` (the seeder's next step, or now), at the time it fell due: its requirements met, its
 * guards holding and the rules kept, as the scheduler takes it. Null when none is due, so that no
 * seeded record sits in a state the scheduler would move it out of at its first run.
 */
export function dueAutomaticStep(
  model: AppModel,
  entity: EntityModel,
  record: Values,
  notBefore: number,
  until: Date,
  keepsRules: (next: Values, at: Date, before: Values) => boolean,
): WalkStep | null {
  const workflow = entity.workflow;
  if (!workflow) return null;
  const state = String(record[workflow.field]);
  for (const transition of workflow.transitions) {
    if (!transition.auto || !transition.from.includes(state)) continue;
    const due = autoDueAt(transition.auto, record[transition.auto.field]);
    if (!due) continue;
    const at = new Date(Math.max(due.getTime(), notBefore + 1000));
    if (at > until || transition.requires.some((name) => isEmpty(record[name]))) continue;
    const guard = guardsCondition(transition);
    if (guard && !evaluateCondition(model, guard, record, at)) continue;
    const next: Values = { ...record };
    for (const effect of transition.effects) next[effect.set] = effect.to === 'now' ? at : effect.to;
    next.updatedAt = at;
    const to = chooseTargetFor(model, transition, record, at, {});
    next[workflow.field] = to;
    if (!keepsRules(next, at, record)) continue;
    const comment = describeAutoReason(entity, transition);
    return { transition, from: state, to, at, actorId: null, comment, before: record, after: next, automatic: true };
  }
  return null;
}
