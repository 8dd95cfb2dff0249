import { NinefoldError } from '../errors/ninefold-error';
import type { Actor } from '../ground/actor';
import { actorContext, evaluateCondition, type RecordLike } from '../condition/evaluate';
import type { AppModel, EntityModel, TransitionModel, WorkflowModel } from '../spec/model';
import { indefinite, inSentence } from '../spec/naming';
import { failedGuard, guardMessage } from './guards';
import { namesOwner } from '../access/own';
import type { Condition, EffectSpec } from '../spec/types';

/** Why a transition cannot be taken now, in the order they are checked. */
export type BlockReason = 'wrong_state' | 'not_allowed' | 'missing_fields' | 'guard_failed';

export interface TransitionCheck {
  readonly transition: TransitionModel;
  readonly allowed: boolean;
  readonly reason?: BlockReason;
  /** For the user; never mentions values the user may not see. */
  readonly message?: string;
  /** The catalogue code a refusal answers with. */
  readonly code?: string;
  readonly missing?: readonly string[];
}

function stateLabel(workflow: WorkflowModel, name: unknown): string {
  return workflow.states.find((s) => s.name === name)?.label ?? String(name);
}

/**
 * The code a refusal of who takes the transition answers with: an owner's own (`error`) when the
 * actor is the record's owner by an entry of `allow` whose condition no longer holds (a passed
 * window), else TRANSITION_NOT_ALLOWED.
 */
function whoRefusal(model: AppModel, transition: TransitionModel, record: RecordLike, actor: Actor, now: Date): string {
  let refusal = 'TRANSITION_NOT_ALLOWED';
  for (const entry of transition.allow) {
    if (typeof entry === 'string' || !namesOwner(record[entry.owner], actor.userId) || !entry.when) continue;
    if (!evaluateCondition(model, entry.when, record, now, actorContext(actor))) refusal = entry.error ?? refusal;
  }
  return refusal;
}

/** Checks one transition for one record and actor, without changing anything. */
export function checkTransition(
  model: AppModel,
  entity: EntityModel,
  record: RecordLike,
  actor: Actor,
  transition: TransitionModel,
  now: Date,
  /**
   * Whether the actor may take it on this record: the transition's scope (who from `allow`, which
   * records from the grants), decided in SQL by access/authorize.ts (transitionScope).
   */
  granted: boolean,
): TransitionCheck {
  const workflow = entity.workflow!;
  const state = record[workflow.field];
  const label = `"${transition.label}"`;
  if (!transition.from.includes(String(state))) {
    return {
      transition,
      allowed: false,
      reason: 'wrong_state',
      code: 'TRANSITION_NOT_ALLOWED',
      message: `${label} cannot be taken while the ${inSentence(entity.label)} is ${stateLabel(workflow, state)}.`,
    };
  }
  if (!granted) {
    const code = whoRefusal(model, transition, record, actor, now);
    const known = code !== 'TRANSITION_NOT_ALLOWED' ? model.errors[code]?.message : undefined;
    return {
      transition,
      allowed: false,
      reason: 'not_allowed',
      code,
      message: known ?? `You are not allowed to take ${label} on this ${inSentence(entity.label)}.`,
    };
  }
  const missing = transition.requires.filter((name) => {
    const value = record[name];
    // An empty set (a references field with none) is missing too.
    return (
      value === null ||
      value === undefined ||
      (typeof value === 'string' && value.trim() === '') ||
      (Array.isArray(value) && value.length === 0)
    );
  });
  if (missing.length > 0) {
    const labels = missing.map((name) => indefinite(entity.fieldsByName[name]?.label ?? name));
    const list = labels.length <= 2 ? labels.join(' and ') : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
    return { transition, allowed: false, reason: 'missing_fields', code: 'TRANSITION_NOT_ALLOWED', missing, message: `Needs ${list}.` };
  }
  const guard = failedGuard(model, transition, record, actor, now);
  if (guard) return { transition, allowed: false, reason: 'guard_failed', code: guard.code, message: guardMessage(model, guard) };
  return { transition, allowed: true };
}

/** The transition by name, or TRANSITION_NOT_ALLOWED when the workflow has none such. */
export function findTransition(entity: EntityModel, name: string): TransitionModel {
  const transition = entity.workflow?.transitions.find((t) => t.name === name);
  if (!transition) throw new NinefoldError('TRANSITION_NOT_ALLOWED', `${entity.label} has no transition "${name}".`);
  return transition;
}

/** Throws the refusal of a check as its catalogue error (status and title from the spec for its own codes). */
export function refuse(model: AppModel, check: TransitionCheck): never {
  const code = check.code ?? 'TRANSITION_NOT_ALLOWED';
  const own = model.errors[code];
  throw new NinefoldError(code, check.message, {
    ...(own ? { status: own.status, title: own.title } : {}),
    ...(check.missing ? { fieldErrors: check.missing.map((field) => ({ field, code: 'required', message: check.message! })) } : {}),
  });
}

/** The field values a transition's effects set: a time, the actor, or a literal. */
export function effectValues(transition: TransitionModel, actor: Actor, now: Date): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const effect of transition.effects) values[effect.set] = effectValue(effect.to, actor, now);
  return values;
}

/** The value one effect writes: 'now' is the write's time, 'actor' the user who makes it, anything else itself. */
export function effectValue(to: EffectSpec['to'], actor: Actor, now: Date): unknown {
  return to === 'now' ? now : to === 'actor' ? actor.userId : to;
}

/**
 * The conditions a check of the transitions evaluates in memory (guards, owners' `when`): a
 * record must carry the values of their paths (ops/path-values.ts) before checkTransition.
 */
export function transitionConditions(transitions: readonly TransitionModel[]): Condition[] {
  return transitions
    .flatMap((t) => [
      ...t.guards.map((g) => g.when),
      ...t.allow.map((a) => (typeof a === 'string' ? undefined : a.when)),
      ...t.to.map((target) => target.when),
    ])
    .filter((c): c is Condition => c !== undefined);
}
