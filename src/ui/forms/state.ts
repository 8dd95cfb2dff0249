/**
 * Shapes shared by the server actions and the client forms. Plain data only: they cross the
 * server/client boundary and are re-rendered without JavaScript from the action's result.
 */

/** What a record form shows: the typed values, errors next to fields, and a message on top. */
export interface RecordFormState {
  /** Raw input strings by field name, exactly as typed; booleans are "true"/"false". */
  readonly values: Readonly<Record<string, string>>;
  /** One message per field name, shown next to the field. */
  readonly fieldErrors: Readonly<Record<string, string>>;
  /** A message about the whole form (including errors for fields the form does not show). */
  readonly message: string | null;
  /** The catalogue code of the refusal (VALIDATION_FAILED, FORBIDDEN_FIELD, NOT_FOUND, ...), if any. */
  readonly code?: string;
  /**
   * Counts failed submissions. The form's inputs are keyed by it so that they remount with the
   * returned values: React resets a form after its action, and a reset select would otherwise
   * fall back to its first default.
   */
  readonly attempt: number;
  /**
   * The version the next submission carries, when it is no longer the one the page was drawn
   * from: after a stale refusal, the current one (the user has now seen the changes).
   */
  readonly version?: number;
  /** What the form now counts as seen of the record (the SEEN_INPUT value), with `version`. */
  readonly seen?: string;
  /** Set when the edit was refused because someone else changed the record meanwhile. */
  readonly stale?: StaleNotice;
}

/** One field that changed between the version the user saw and the current one. */
export interface StaleChange {
  readonly field: string;
  readonly label: string;
  /** The value as the user saw it, as text. */
  readonly from: string;
  /** The current value, as text. */
  readonly to: string;
  /**
   * For a field of the form: true when the user had changed it too (their value stays in the
   * form), false when the form now holds the current value.
   */
  readonly kept?: boolean;
}

/** Why an edit was refused as stale, and what changed; the typed values stay in the form. */
export interface StaleNotice {
  /** "This ticket was changed by someone else." */
  readonly title: string;
  /** The fields the user may read that changed; null when what the user saw is not known. */
  readonly changes: readonly StaleChange[] | null;
  /** Where to start again from the current version, dropping the typed values. */
  readonly reloadHref: string;
}

export function initialRecordFormState(values: Readonly<Record<string, string>>): RecordFormState {
  return { values, fieldErrors: {}, message: null, attempt: 0 };
}

/** A form with a single message (sign-in, setup, delete), keeping some typed values. */
export interface MessageFormState {
  readonly message: string | null;
  /** The catalogue code of the refusal, if any. */
  readonly code?: string;
  readonly values: Readonly<Record<string, string>>;
  readonly attempt: number;
}

export const initialMessageFormState: MessageFormState = { message: null, values: {}, attempt: 0 };

/** The name of the hidden input carrying the record version an edit or delete was made from. */
export const VERSION_INPUT = '__version';

/**
 * The name of the hidden input carrying what an edit form showed of the record (readable
 * fields, as values and as text), so that a stale edit can say what changed since.
 */
export const SEEN_INPUT = '__seen';

/**
 * Where a picker finds the options of a reference or user field as the user types: the field,
 * and for a reference `within` another (a deal's contact within its company) that field's name,
 * read from the form, or its value when the form does not hold it (fixed by the page).
 */
export interface PickerSearch {
  readonly entity: string;
  readonly field: string;
  readonly within?: { readonly field: string; readonly value?: string };
}

/** Option for a select. */
export interface ChoiceOption {
  readonly value: string;
  readonly label: string;
}

export type InputKind =
  | 'text'
  | 'textarea'
  | 'integer'
  | 'decimal'
  | 'checkbox'
  | 'select'
  | 'date'
  | 'datetime'
  | 'email'
  | 'url'
  /** A reference or user with too many choices for a select: the id, with the current title. */
  | 'id'
  /** A references field: several of `options` (value: ids joined by commas). */
  | 'multi'
  /** A references field with too many choices to list: ids typed, separated by commas. */
  | 'ids'
  /** A file field: a file input (several for `files`), and a "keep" box for each file it holds. */
  | 'files';

/** Everything a form needs to draw one field: serialisable, nothing from the spec's functions. */
export interface FormFieldDescriptor {
  readonly name: string;
  readonly label: string;
  readonly kind: InputKind;
  readonly required: boolean;
  readonly help?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly patternMessage?: string;
  readonly min?: number;
  readonly max?: number;
  readonly step?: string;
  readonly options?: readonly ChoiceOption[];
  /**
   * For `select` and `id` inputs of a reference or user field, and `multi` and `ids` inputs of a
   * references or users field: the server search its combobox asks (./choice-picker.tsx,
   * ./references-picker.tsx). For `ids`, `options` names the chosen records.
   */
  readonly search?: PickerSearch;
  /** For `id` inputs: the title of the current value, shown beside the input. */
  readonly currentTitle?: string;
  /** For `multi` inputs: at most this many may be chosen. */
  readonly maxItems?: number;
  /** For `datetime` inputs: the viewer's zone, in which the value is shown and what is typed is read. */
  readonly zone?: string;
  /** For `decimal` inputs of a money field: the ISO 4217 code of the amount, named beside the input. */
  readonly currency?: string;
  /** For `files` inputs: the types the field takes (the input's `accept`; the server checks the content). */
  readonly accept?: readonly string[];
  /** For `files` inputs: the files the record holds, each kept unless unchecked. */
  readonly current?: readonly { readonly id: number; readonly name: string }[];
}
