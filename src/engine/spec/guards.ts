import type { GuardModel } from './model';
import type { GuardSpec, TransitionSpec } from './types';

/** The catalogue code of a guard that names none. */
export const DEFAULT_GUARD_CODE = 'TRANSITION_NOT_ALLOWED';

/** Whether a transition's `guard` is the list form (guards each with its code and message) rather than one condition. */
export function isGuardList(guard: TransitionSpec['guard'] | unknown): guard is readonly GuardSpec[] {
  return Array.isArray(guard);
}

/**
 * A transition's guards in the order they are checked: its one condition worded by `guardMessage`
 * and `guardError`, or its list, each guard with its own code and message.
 */
export function buildGuards(transition: Pick<TransitionSpec, 'guard' | 'guardMessage' | 'guardError'>): readonly GuardModel[] {
  const { guard } = transition;
  if (guard === undefined) return [];
  const guards = isGuardList(guard) ? guard : [{ when: guard, error: transition.guardError, message: transition.guardMessage }];
  return guards.map((g) => ({
    when: g.when,
    code: g.error ?? DEFAULT_GUARD_CODE,
    ...(g.message === undefined ? {} : { message: g.message }),
  }));
}
