import type { AppModel } from './model';
import { resolveNumber } from './field-numbers';
import { humanize } from './naming';
import type { LimitSpec } from './types';

/*
 * What a limit says when it refuses a record. The spec's message may name the maximum as `{max}`
 * ("You already have {max} open tickets: ..."), written in from the constant as it is now, so that
 * the words follow the constant; without a message, one naming the limit and its maximum. Every
 * door shows the refusal's message (REST, forms, imports) and /spec shows the same words.
 */

/** The placeholders a limit's message may use. */
export const LIMIT_MESSAGE_PLACEHOLDERS: readonly string[] = ['max'];

/** `{name}` in a message, for the placeholders it uses. */
export const PLACEHOLDER = /\{([^{}]*)\}/g;

/** The most a limit allows, its constant resolved; null when a field of the referenced record holds it. */
export function limitMax(constants: AppModel['constants'], limit: Pick<LimitSpec, 'max'>): number | null {
  if (typeof limit.max === 'object' && 'field' in limit.max) return null;
  return resolveNumber(limit.max, constants) ?? NaN;
}

/**
 * The refusal's words: the spec's message with `{max}` written in, or one naming the limit and its
 * maximum. A message that does not name the maximum is followed by it ("... first. At most 25."):
 * whoever is refused learns the number. `max` is the maximum when the referenced record holds it:
 * its value when a write is refused, or its words ("the event's capacity") in /spec.
 */
export function limitMessage(
  constants: AppModel['constants'],
  name: string,
  limit: Pick<LimitSpec, 'max' | 'message'>,
  max: number | string | null = limitMax(constants, limit),
): string {
  if (limit.message === undefined) return `The limit "${humanize(name)}" allows at most ${max}; this would be one more.`;
  let named = false;
  const message = limit.message.replace(PLACEHOLDER, (whole, key: string) => {
    if (key !== 'max') return whole;
    named = true;
    return String(max);
  });
  if (named || max === null) return message;
  const said = message.trimEnd();
  return `${said}${/[.!?]$/.test(said) ? '' : '.'} At most ${max}.`;
}
