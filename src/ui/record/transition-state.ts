/**
 * What a transition's small form shows after a refused submission: plain data, returned by the
 * server action and rendered again without JavaScript.
 */
export interface TransitionFormState {
  /** What was typed, by input name (field names, and COMMENT_INPUT for the comment). */
  readonly values: Readonly<Record<string, string>>;
  /** A message next to an input, by input name. */
  readonly fieldErrors: Readonly<Record<string, string>>;
  /** The catalogue message of the refusal, with errors of fields the form does not show. */
  readonly message: string | null;
  /** The catalogue code (TRANSITION_NOT_ALLOWED, STALE_VERSION, VALIDATION_FAILED, LIMIT_EXCEEDED, ...). */
  readonly code?: string;
  /** Where to see the record as it is now, after STALE_VERSION. */
  readonly reloadHref?: string;
  /**
   * The transition leads to a final state and came without the user's confirmation (a browser
   * without JavaScript): nothing was changed, and the form asks in place (src/ui/confirm).
   */
  readonly confirm?: boolean;
  /** Counts refusals: the inputs are keyed by it, so that they remount showing what was typed. */
  readonly attempt: number;
}

export const initialTransitionFormState: TransitionFormState = { values: {}, fieldErrors: {}, message: null, attempt: 0 };

/** The name of the comment's input; not a field name, so that it cannot collide with one. */
export const COMMENT_INPUT = '__comment';
