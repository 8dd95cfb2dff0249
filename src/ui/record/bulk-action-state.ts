/**
 * What the bulk panel of a list shows after a submission: plain data, returned by the server
 * action and rendered again without JavaScript. The words are made on the server, so the client
 * leaf only lays them out.
 */

/** One selected row in the report. */
export interface BulkRowReport {
  readonly id: number;
  /** "#12 Printer on fire"; "#15" when the actor cannot read the record. */
  readonly title: string;
  /** The record's page; null when the actor cannot see it. */
  readonly href: string | null;
  /** Why the action was refused on this row (the catalogue's words). */
  readonly message: string;
  readonly code: string;
}

export interface BulkOutcome {
  /** "“Start” taken on 3 tickets; they are now Open.", "Priority set to High on 2 tickets." (null when no row was changed). */
  readonly summary: string | null;
  /** How many rows were changed. */
  readonly done: number;
  /** "“Start” was not taken on 2 tickets:" (null when none was refused). */
  readonly refusedTitle: string | null;
  readonly refused: readonly BulkRowReport[];
}

export interface BulkActionState {
  /** A refusal of the whole submission (nothing selected, too many, a comment needed...); nothing was changed. */
  readonly message: string | null;
  /** What was chosen and typed, so that the panel shows it again. */
  readonly values: {
    /** The chosen action: a transition's name, `set:<field>` or `delete` (bulkChoice). */
    readonly choice?: string;
    readonly comment?: string;
    /** Values typed for the fields the transitions require, by field name. */
    readonly fields?: Readonly<Record<string, string>>;
    /** The value typed for the field to set, as posted (with the `to.` prefix of its input). */
    readonly set?: Readonly<Record<string, string>>;
    /** The selected rows as posted ("<id>:<version>"), kept only while the confirmation is asked. */
    readonly rows?: readonly string[];
  };
  readonly outcome: BulkOutcome | null;
  /**
   * The action cannot be undone (a transition into a final state, a delete) and came without the
   * user's confirmation (a browser without JavaScript): nothing was changed, and the panel asks,
   * posting the same rows again.
   */
  readonly confirm?: boolean;
  /** Counts submissions: the inputs are keyed by it, so that they remount showing what was chosen. */
  readonly attempt: number;
}

export const initialBulkActionState: BulkActionState = { message: null, values: {}, outcome: null, attempt: 0 };

/** Input names. The row checkboxes carry "<id>:<version>" (the version the user saw). */
export const BULK_ROW_INPUT = 'row';
/** The chosen action (bulkChoice). */
export const BULK_CHOICE_INPUT = 'bulk';
export const BULK_COMMENT_INPUT = 'comment';
/** The value for "Set <field>" is posted as `to.<field>`, apart from the inputs the transitions require. */
export const BULK_SET_PREFIX = 'to.';
/**
 * What an optional field's select posts to empty the field on every row ("None"): an empty value
 * means nothing was chosen yet, and never empties anything by accident.
 */
export const BULK_CLEAR_VALUE = ':none';

/** The chosen action as the panel's select posts it. Transition names are identifiers, so neither form below is one. */
export type BulkChoice = { kind: 'transition'; name: string } | { kind: 'set'; field: string } | { kind: 'delete' };

const DELETE_CHOICE = ':delete';
const SET_CHOICE = 'set:';

export function bulkChoiceValue(choice: BulkChoice): string {
  return choice.kind === 'transition' ? choice.name : choice.kind === 'set' ? `${SET_CHOICE}${choice.field}` : DELETE_CHOICE;
}

/** The posted choice; null when none was made. */
export function parseBulkChoice(value: string): BulkChoice | null {
  if (value === '') return null;
  if (value === DELETE_CHOICE) return { kind: 'delete' };
  if (value.startsWith(SET_CHOICE)) return { kind: 'set', field: value.slice(SET_CHOICE.length) };
  return { kind: 'transition', name: value };
}
