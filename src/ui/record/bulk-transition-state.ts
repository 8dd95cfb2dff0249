/**
 * What the bulk-transition toolbar of a list shows after a submission: plain data, returned by
 * the server action and rendered again without JavaScript. The words are made on the server, so
 * the client leaf only lays them out.
 */

/** One selected row in the report. */
export interface BulkRowReport {
  readonly id: number;
  /** "#12 Printer on fire"; "#15" when the actor cannot read the record. */
  readonly title: string;
  /** The record's page; null when the actor cannot see it. */
  readonly href: string | null;
  /** Why the transition was refused on this row (the catalogue's words). */
  readonly message: string;
  readonly code: string;
}

export interface BulkOutcome {
  /** "“Start” taken on 3 tickets; they are now Open." (null when none moved). */
  readonly summary: string | null;
  /** How many rows moved. */
  readonly done: number;
  /** "“Start” was not taken on 2 tickets:" (null when none was refused). */
  readonly refusedTitle: string | null;
  readonly refused: readonly BulkRowReport[];
}

export interface BulkTransitionState {
  /** A refusal of the whole submission (nothing selected, too many, a comment needed...); nothing was changed. */
  readonly message: string | null;
  /** What was chosen and typed, so that the toolbar shows it again. */
  readonly values: {
    readonly transition?: string;
    readonly comment?: string;
    readonly fields?: Readonly<Record<string, string>>;
    /** The selected rows as posted ("<id>:<version>"), kept only while the confirmation is asked. */
    readonly rows?: readonly string[];
  };
  readonly outcome: BulkOutcome | null;
  /**
   * The transition leads to a final state and came without the user's confirmation (a browser
   * without JavaScript): nothing was changed, and the toolbar asks, posting the same rows again.
   */
  readonly confirm?: boolean;
  /** Counts submissions: the inputs are keyed by it, so that they remount showing what was chosen. */
  readonly attempt: number;
}

export const initialBulkTransitionState: BulkTransitionState = { message: null, values: {}, outcome: null, attempt: 0 };

/** Input names. The row checkboxes carry "<id>:<version>" (the version the user saw). */
export const BULK_ROW_INPUT = 'row';
export const BULK_TRANSITION_INPUT = 'transition';
export const BULK_COMMENT_INPUT = 'comment';
