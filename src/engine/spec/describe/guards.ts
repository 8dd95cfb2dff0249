import { DEFAULT_GUARD_CODE } from '../guards';
import type { EntityModel, TransitionModel } from '../model';
import { code, conditionText } from './text';

/**
 * A transition's guards in words, in the order they are checked, each with the code and message
 * of its refusal where the spec gives them: `only when value is more than 0, else
 * `DEAL_NEEDS_VALUE``, `only when author is not you ("Someone other than the author must publish it.")`.
 */
export function guardTexts(transition: TransitionModel, entity: EntityModel): string[] {
  return transition.guards.map((guard) => {
    const otherwise = guard.code === DEFAULT_GUARD_CODE ? '' : `, else ${code(guard.code)}`;
    const message = guard.message === undefined ? '' : ` ("${guard.message}")`;
    return `only when ${conditionText(guard.when, entity)}${otherwise}${message}`;
  });
}
