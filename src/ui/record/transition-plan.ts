import type { RecordData, TransitionOffer } from '@/engine/ops/types';

/**
 * How the detail page offers a transition: `ready` (a button, with a comment box when the
 * transition takes one), `input` (blocked only by fields the user can fill in now, so a small
 * form asks for them with the transition), or `blocked` (a disabled button and the reason).
 */
export type OfferMode = 'ready' | 'input' | 'blocked';

export interface OfferPlan {
  readonly offer: TransitionOffer;
  readonly mode: OfferMode;
  /** The fields the small form asks for (empty unless `input`). */
  readonly ask: readonly string[];
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/**
 * A required field that is empty on the record (a hidden one reads as absent) and that the
 * actor may write is asked for; if any missing one cannot be written, the transition stays blocked.
 */
export function planOffers(offers: readonly TransitionOffer[], record: RecordData, writable: ReadonlySet<string>): OfferPlan[] {
  return offers.map((offer) => {
    const missing = offer.requires.filter((name) => isEmpty(record[name]));
    if (offer.available) return { offer, mode: 'ready', ask: [] };
    if (missing.length > 0 && missing.every((name) => writable.has(name))) return { offer, mode: 'input', ask: missing };
    return { offer, mode: 'blocked', ask: [] };
  });
}
