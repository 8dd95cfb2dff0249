import type { Actor } from '../ground/actor';

/**
 * The shape of a Ninefold spec: the nine points of a product specification as typed data.
 * Everything here is plain data except a few typed functions (custom call handlers).
 * Arrays are `readonly` so that `defineApp` can keep literal types (`const` inference).
 */

/**
 * The engine operations bound to the actor, as custom code (a route's component, a call's
 * handler) receives them. The spec's language sits below the operations, which take its
 * conditions, so it does not import them: src/engine/ops/ops.ts fills this in with `BoundOps`
 * (`declare module`), and every program that has the engine has both.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by ops/ops.ts
export interface SpecOps {}

/** A reference to a declared business constant; checked at load time. */
export interface ConstantRef {
  readonly $constant: string;
}

/** A literal value, a constant, another field of the same record, or the current time. */
export type Operand =
  | string
  | number
  | boolean
  | null
  | ConstantRef
  /** Another field; a date or datetime one may be moved by a duration: `{ field: 'startsAt', minus: { hours: 24 } }`. */
  | ({ readonly field: string } & TimeShiftSpec)
  /** The current time, maybe moved: `{ now: true, plus: { hours: { $constant: 'cancelWindowHours' } } }`. */
  | ({ readonly now: true } & TimeShiftSpec)
  /** The current time moved back (or, when negative, forward) by a number of days. */
  | { readonly daysAgo: number | ConstantRef }
  /**
   * The current user: `{ actor: true }` or `{ actor: 'id' }` is their id ("tickets assigned to me" is
   * `{ field: 'assignee', op: 'eq', value: { actor: 'id' } }`); `{ actor: 'organization' }` is the value of
   * one of the spec's user fields (`users.fields`) for them. A visitor (the `public` role) and a user
   * without a value match nothing: `eq` with it is never true.
   */
  | { readonly actor: true | string }
  /** A parameter of the custom route being shown (only in `screens.routes`). */
  | { readonly param: string };

/** A time moved forward (`plus`) or back (`minus`) by a duration in one unit: at most one of the two. */
export interface TimeShiftSpec {
  readonly plus?: DurationSpec;
  readonly minus?: DurationSpec;
}

/**
 * A condition on the fields of one record, used by rules, guards and permission scopes. `field`
 * names a field of the record, or follows a reference or user field one step: `patient.account`
 * is the `account` of the record `patient` points at (a user field leads to the spec's user
 * fields). A condition on such a path holds only when the reference is set.
 */
export type Condition =
  | { readonly all: readonly Condition[] }
  | { readonly any: readonly Condition[] }
  | { readonly not: Condition }
  | {
      readonly field: string;
      readonly op: 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte' | 'in' | 'notIn' | 'present' | 'absent';
      readonly value?: Operand | readonly (string | number | boolean)[];
    }
  | ExistsCondition;

/**
 * "This record is referenced by at least one `exists` record matching `where`": e.g. patients
 * with an appointment of mine, `{ exists: 'appointment', where: { field: 'practitioner.account', op: 'eq', value: { actor: 'id' } } }`.
 * `via` names the related entity's reference field when it has several to this entity. `where`
 * is a condition on the related record.
 */
export interface ExistsCondition {
  readonly exists: string;
  readonly via?: string;
  readonly where?: Condition;
}

// ---------------------------------------------------------------- point 1: purpose

export interface PurposeSpec {
  /** Shown in the navigation shell and page titles. */
  readonly title: string;
  readonly summary?: string;
  readonly audience?: readonly string[];
  /**
   * The IANA zone times are shown and typed in for a user who chose none and whose browser has
   * not said its own yet, e.g. 'Europe/Paris'. Default 'UTC'. Values are always stored in UTC.
   */
  readonly timeZone?: string;
  /**
   * The BCP 47 locale pages write numbers and amounts in, e.g. 'de-DE' ("38.533,32 €").
   * Default 'en-US'. CSV and the API always carry plain numbers ("38533.32").
   */
  readonly locale?: string;
  /** The ISO 4217 currency of money fields that name none, e.g. 'EUR'. */
  readonly currency?: string;
  /**
   * The purpose in a role's own words, by role: the home shows users whose every role has one the
   * first (in this order) instead of `summary`, e.g. { customer: { summary: 'Ask us for help…' } }.
   */
  readonly roles?: Readonly<Record<string, PurposeRoleSpec>>;
}

export interface PurposeRoleSpec {
  readonly summary: string;
}

// ---------------------------------------------------------------- point 3: entities and fields

/** The kinds of field error whose message a spec may write itself; `invalid` is every other one (type, format, enum). */
export const FIELD_MESSAGE_KINDS = ['required', 'too_small', 'too_big', 'pattern', 'unique', 'invalid'] as const;
export type FieldMessageKind = (typeof FIELD_MESSAGE_KINDS)[number];

interface FieldBase {
  readonly label?: string;
  /** The spec's own words for this field's errors, e.g. { required: 'Tell us what went wrong.' }. */
  readonly messages?: Readonly<Partial<Record<FieldMessageKind, string>>>;
  readonly help?: string;
  readonly required?: boolean;
  /** Only the engine writes it (its `default` on create, workflow effects); forms and APIs cannot. */
  readonly readOnly?: boolean;
  /**
   * 'calls': written only by the spec's calls (point 7), workflow effects and its default; forms,
   * imports and the record API treat it as read-only.
   */
  readonly writtenBy?: WrittenBy;
  readonly unique?: boolean;
  /** Included in the full-text search of the entity. */
  readonly searchable?: boolean;
  /** A value the engine keeps from the records that reference this one (read-only): see DerivedSpec. */
  readonly derived?: DerivedSpec;
}

// -------------------------------------------------------------- derived fields

/**
 * A field's value derived from the records of another entity that reference this one (a reverse
 * reference), kept by the engine in the same transaction as every write of them; nobody writes
 * it. `count` and `exists` name the related entity, `sum`, `min` and `max` its field
 * (`'deal.amount'`). `via` names the related entity's reference field when it has several to
 * this entity; `where` selects the related records (fields compared with literals and constants).
 *
 *   replyCount: { type: 'integer', derived: { count: 'comment', where: { field: 'internal', op: 'eq', value: false } } }
 */
export type DerivedSpec = (
  { readonly count: string } | { readonly exists: string } | { readonly sum: string } | { readonly min: string } | { readonly max: string }
) & {
  readonly via?: string;
  readonly where?: Condition;
};

export interface TextField extends FieldBase {
  readonly type: 'text';
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly patternMessage?: string;
  readonly format?: 'hostname';
  readonly default?: string | ConstantRef;
  /** Kept by the engine from the record's own fields (read-only): `{ slug: 'title' }`. */
  readonly computed?: Computation;
}
export interface MarkdownField extends FieldBase {
  readonly type: 'markdown';
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly default?: string | ConstantRef;
}
export interface IntegerField extends FieldBase {
  readonly type: 'integer';
  readonly min?: number | ConstantRef;
  readonly max?: number | ConstantRef;
  readonly default?: number | ConstantRef;
  /** Kept by the engine from the record's own fields (read-only): integer arithmetic, no division. */
  readonly computed?: Computation;
}
export interface DecimalField extends FieldBase {
  readonly type: 'decimal';
  /** Total significant digits (SQL precision); default 12. */
  readonly precision?: number;
  /** Digits after the decimal point (SQL scale); default 2. */
  readonly scale?: number;
  readonly min?: number | ConstantRef;
  readonly max?: number | ConstantRef;
  readonly default?: string | ConstantRef;
  /** Kept by the engine from the record's own fields (read-only), rounded to `scale`. */
  readonly computed?: Computation;
}
/**
 * An amount of money in one currency: stored exactly as a decimal with the currency's own digits
 * after the point (2 for EUR, 0 for JPY), shown by the spec's locale ("€38,533.32"), and plain
 * ("38533.32") in CSV and the API.
 */
export interface MoneyField extends FieldBase {
  readonly type: 'money';
  /** The ISO 4217 code of every amount of this field, e.g. 'EUR'; default: `purpose.currency`. */
  readonly currency?: string;
  /** Total significant digits (SQL precision); default 12. */
  readonly precision?: number;
  readonly min?: number | ConstantRef;
  readonly max?: number | ConstantRef;
  readonly default?: string | ConstantRef;
  /** Kept by the engine from the record's own fields (read-only), rounded to the currency's digits. */
  readonly computed?: Computation;
}
export interface BooleanField extends FieldBase {
  readonly type: 'boolean';
  readonly default?: boolean | ConstantRef;
}
/**
 * The colours a value may be shown in, as a badge like a workflow state's: a small fixed palette,
 * so that every colour reads on light and dark themes alike.
 */
export const COLOURS = ['gray', 'red', 'orange', 'yellow', 'green', 'blue', 'purple'] as const;
export type Colour = (typeof COLOURS)[number];

export interface EnumField extends FieldBase {
  readonly type: 'enum';
  readonly values: readonly string[];
  readonly labels?: Readonly<Record<string, string>>;
  /** Values shown as a coloured badge (`urgent: 'red'`); the others read as plain text. */
  readonly colours?: Readonly<Record<string, Colour>>;
  readonly default?: string | ConstantRef;
}
/**
 * One end of a date range: now, another date field of the record (or createdAt), or a number of
 * days ago (negative: days from now).
 */
export type DateBound = { readonly now: true } | { readonly field: string } | { readonly daysAgo: number | ConstantRef };

interface DateRange {
  /** The value must be later than this. */
  readonly after?: DateBound;
  /** The value must be earlier than this. */
  readonly before?: DateBound;
  /** What the user reads when the value is out of range. */
  readonly rangeMessage?: string;
}

export interface DateField extends FieldBase, DateRange {
  readonly type: 'date';
  readonly default?: string | ConstantRef;
  /** Kept by the engine from the record's own fields (read-only): a date plus or minus days. */
  readonly computed?: Computation;
}
export interface DateTimeField extends FieldBase, DateRange {
  readonly type: 'datetime';
  readonly default?: 'now';
  /**
   * A due time the engine keeps itself (the field is then read-only): `from` plus `hours`, set on
   * create and whenever `from` or `by` changes. Lists can sort and filter by it and mark the
   * records past it as overdue while `doneWhen` does not hold.
   */
  readonly due?: DueSpec;
  /** Kept by the engine from the record's own fields (read-only): a datetime plus or minus a duration. */
  readonly computed?: Computation;
}

/** How a due time is computed, e.g. the SLA: created at + slaHours[priority]. */
export interface DueSpec {
  /** A datetime field of the record, or createdAt. */
  readonly from: string;
  /**
   * A number of hours, or a constant: a number, or hours per value of the enum field `by`.
   * Negative: before `from` (a reminder 24 hours before an event starts).
   */
  readonly hours: number | ConstantRef;
  /** The enum field whose value picks the hours from the constant's map. */
  readonly by?: string;
  /** When this holds, the record is no longer running against the clock (never overdue). */
  readonly doneWhen?: Condition;
}
export interface EmailField extends FieldBase {
  readonly type: 'email';
  readonly default?: string | ConstantRef;
}
export interface UrlField extends FieldBase {
  readonly type: 'url';
  readonly default?: string | ConstantRef;
}
/** Many-to-one reference to another entity of the spec. */
export interface ReferenceField extends FieldBase {
  readonly type: 'reference';
  readonly to: string;
  /** What happens to this record when the referenced one is deleted. Default: 'restrict'. */
  readonly onDelete?: 'restrict' | 'cascade' | 'setNull';
  /**
   * `{ own: 'account' }`: on create, when no value is given, the record of `to` whose user field
   * `account` is the actor (as `own` in permission scopes); none when the actor has no such record.
   */
  readonly default?: OwnRecordDefault;
  /**
   * A reference field of this entity that the chosen record must share: `within: 'company'` on a
   * deal's `contact` means the contact's own `company` is the deal's `company` (when the deal has
   * one). Both entities need a reference field of that name to the same entity. Pickers offer only
   * such records, and a write naming another is VALIDATION_FAILED (`not_within`).
   */
  readonly within?: string;
}

/** A reference's default: the referenced entity's record whose user field `own` is the actor. */
export interface OwnRecordDefault {
  readonly own: string;
}

// ---------------------------------------------------------------- computed fields

/**
 * How the engine computes a field from the record's own fields, on every write (never given by
 * users; forms show it, writes through the API or an import are refused). Plain data:
 * - arithmetic: `{ multiply: [{ field: 'quantity' }, { field: 'unitPrice' }] }`,
 *   `{ subtract: [{ field: 'gross' }, { $constant: 'shippingFee' }] }` (nesting allowed);
 *   an empty operand, or division by zero, leaves the field empty;
 * - a time moved: `{ from: 'startsAt', plus: { minutes: { field: 'durationMinutes' } } }`
 *   (a date moves by `days` only);
 * - a slug: `{ slug: 'title' }`, unique within the entity (`-2`, `-3`... on collision), set on
 *   create and while it is empty, then kept: a record's address does not move when its title does.
 */
export type Computation = Arithmetic | TimeShift | SlugOf;

/** A number in arithmetic: a literal, a constant, a number field of the record, or more arithmetic. */
export type NumberTerm = number | ConstantRef | { readonly field: string } | Arithmetic;

export type Arithmetic =
  | { readonly add: readonly NumberTerm[] }
  | { readonly subtract: readonly [NumberTerm, NumberTerm] }
  | { readonly multiply: readonly NumberTerm[] }
  | { readonly divide: readonly [NumberTerm, NumberTerm] };

/** A count of a duration unit: a number, a numeric constant, or an integer field of the record. */
export type DurationAmount = number | ConstantRef | { readonly field: string };

/** Exactly one unit; working days count on the spec's `calendar`. */
export type Duration =
  | { readonly minutes: DurationAmount }
  | { readonly hours: DurationAmount }
  | { readonly days: DurationAmount }
  | { readonly workingDays: DurationAmount };

/** A datetime (or date) field of the record moved by a duration: exactly one of `plus` and `minus`. */
export type TimeShift = { readonly from: string; readonly plus: Duration } | { readonly from: string; readonly minus: Duration };

/** The text field whose value, lower-cased with runs of other characters as "-", names the record. */
export interface SlugOf {
  readonly slug: string;
}
/**
 * Many-to-many: a set of records of another entity (tags), kept in a join table. Read and written
 * as an array of ids; a viewer sees only the ids of records they may read.
 */
export interface ReferencesField extends FieldBase {
  readonly type: 'references';
  readonly to: string;
  /** At most this many, a number or a constant (default: no cap beyond the engine's 1,000). */
  readonly maxItems?: number | ConstantRef;
}
/** Reference to a user account of the application. */
export interface UserField extends FieldBase {
  readonly type: 'user';
  /**
   * 'actor': the signed-in user who creates the record (with `roles`, creating is refused when
   * the actor holds none of them).
   */
  readonly default?: 'actor';
  /**
   * The users who may hold it: those with one of these roles (the built-in admin or the spec's). Pickers
   * offer only them, and every write of anyone else is VALIDATION_FAILED. Absent: any user.
   */
  readonly roles?: readonly string[];
}
/**
 * A set of users (an event's organizers), kept in a join table as a references field is, read
 * and written as an array of user ids. Its own type rather than `references` with `to: 'user'`:
 * users are accounts, not records of an entity of the spec (no read scope, no title field, a
 * holder's roles), so everything that follows a references field's `to` would otherwise need a
 * case for a name that is no entity; as its own type the compiler lists every place to handle it.
 * A scope's `own`, a transition's owner and a condition `eq { actor: 'id' }` read it as "includes".
 */
export interface UsersField extends FieldBase {
  readonly type: 'users';
  /** The users who may be in it: those with one of these roles (as a user field's `roles`). */
  readonly roles?: readonly string[];
  /** At most this many, a number or a constant (default: the engine's 1,000). */
  readonly maxItems?: number | ConstantRef;
}

/**
 * Uploaded files (a ticket's screenshots): `file` holds at most one, `files` a set. Kept in the
 * engine's file store (PostgreSQL by default) with their metadata in nf_file; on the wire each is
 * `{ id, name, size, contentType, url, thumbnailUrl? }`. Writes name files by id: uploaded first
 * (POST /api/v1/files), or sent as parts of a multipart write. The type is read from the content.
 */
export interface FileField extends FieldBase {
  readonly type: 'file';
  /** The most bytes one file may have, a number or a constant (default: the engine's 25 MB). */
  readonly maxBytes?: number | ConstantRef;
  /** The content types accepted: MIME types or `type/*` (default: any type). */
  readonly accept?: readonly string[];
}
export interface FilesField extends FieldBase {
  readonly type: 'files';
  /** At most this many files, a number or a constant (default: 20). */
  readonly maxItems?: number | ConstantRef;
  readonly maxBytes?: number | ConstantRef;
  readonly accept?: readonly string[];
}

export type FieldSpec =
  | TextField
  | MarkdownField
  | IntegerField
  | DecimalField
  | MoneyField
  | BooleanField
  | EnumField
  | DateField
  | DateTimeField
  | EmailField
  | UrlField
  | ReferenceField
  | ReferencesField
  | UserField
  | UsersField
  | FileField
  | FilesField;

export type FieldType = FieldSpec['type'];

export const FIELD_TYPES = [
  'text',
  'markdown',
  'integer',
  'decimal',
  'money',
  'boolean',
  'enum',
  'date',
  'datetime',
  'email',
  'url',
  'reference',
  'references',
  'user',
  'users',
  'file',
  'files',
] as const satisfies readonly FieldType[];

/**
 * A cap on how many records may match a condition per owner, e.g. open tickets per customer or
 * open orders per supplier.
 */
export interface LimitSpec {
  /**
   * A number, a constant, or a field of the record `per` refers to (`{ field: 'event.capacity' }`:
   * an event's confirmed bookings up to its own capacity; an empty capacity means no limit).
   */
  readonly max: number | ConstantRef | LimitMaxField;
  /** The user or reference field whose value owns the counted records. */
  readonly per: string;
  readonly where?: Condition;
  readonly message?: string;
  /** Roles whose writes the limit does not stop (staff who may open tickets for anyone). */
  readonly exempt?: readonly string[];
}

/** A limit's maximum read from the referenced record: `<per>.<integer field of the record it refers to>`. */
export interface LimitMaxField {
  readonly field: string;
}

export interface EntitySpec {
  readonly label?: string;
  /** URL and API segment; default: the name plus "s". */
  readonly plural?: string;
  readonly pluralLabel?: string;
  readonly description?: string;
  /** The field that names a record in links and titles; default: the first text field. */
  readonly titleField?: string;
  readonly fields: Readonly<Record<string, FieldSpec>>;
  /** Composite unique constraints, each a list of field names. */
  readonly uniqueTogether?: readonly (readonly string[])[];
  /**
   * Uniqueness among the records a condition selects (a partial unique index), e.g. one active
   * loan per item: `{ fields: ['item'], where: { field: 'state', op: 'in', value: ['active'] } }`.
   */
  readonly uniqueWhen?: UniqueWhenSpec | readonly UniqueWhenSpec[];
  readonly limits?: Readonly<Record<string, LimitSpec>>;
  /**
   * Ranges that may not overlap among records sharing a key (a constraint of the database), e.g.
   * a technician's visits: `{ range: ['startsAt', 'endsAt'], per: 'technician' }`.
   */
  readonly exclusive?: ExclusiveSpec | readonly ExclusiveSpec[];
  /**
   * 'calls': records are created, changed and deleted only by the spec's calls (point 7) and
   * workflow effects; pages, imports and the record API only read them. The create, update and
   * delete grants of point 6 then say who may write them through calls.
   */
  readonly writtenBy?: WrittenBy;
  /** Effects of creating a record on the records its reference fields point at, in the create's transaction. */
  readonly onCreate?: readonly ReferenceEffectSpec[];
  /**
   * Texts the demo data takes for a text or markdown field instead of made-up ones, each a whole
   * value (a markdown body as it should read): `{ title: ['Annual licence renewal', 'Pilot for
   * the sales team'] }`. Each must keep the field's own rules (lengths, pattern); a unique field
   * takes a sample still free, else one with a number added. Lists of one length go together: a
   * record takes the same place in each (a subject with its message).
   */
  readonly samples?: Readonly<Record<string, readonly string[]>>;
}

/**
 * The fields must be unique together among the records where `where` holds. The condition may
 * compare fields with literal values and constants only (no time, user or path): the database
 * keeps it as the index's predicate.
 */
export interface UniqueWhenSpec {
  readonly fields: readonly string[];
  readonly where: Condition;
  /** What the user reads when a write would make a second one (on the first field). */
  readonly message?: string;
  /** The catalogue code of the refusal (declared under `errors` or built in); default VALIDATION_FAILED. */
  readonly error?: string;
}

/**
 * No two records the condition selects that share the `per` values may have overlapping ranges.
 * The range runs from the start field's value up to, not including, the end field's (touching
 * ranges do not overlap). An empty end means open-ended (from its start on, for ever); a record
 * with an empty start takes no time and is not checked. The condition compares fields with
 * literal values and constants only: the database keeps it as the exclusion constraint's predicate.
 */
export interface ExclusiveSpec {
  /** Start and end: two date fields or two datetime fields. */
  readonly range: readonly [string, string];
  /** The field (or fields) whose equal values share the time line; none: every record does. */
  readonly per?: string | readonly string[];
  readonly where?: Condition;
  /** What the user reads (on the start field) when a write would overlap another record. */
  readonly message?: string;
  /** A code of the catalogue to refuse with instead of VALIDATION_FAILED (the message stays on the start field). */
  readonly error?: string;
}

/** Who writes an entity's records or a field: only the spec's calls (and workflow effects). */
export type WrittenBy = 'calls';

// ---------------------------------------------------------------- point 2: screens

export interface ListScreenSpec {
  readonly columns?: readonly string[];
  /** A column name, "-" first for descending. Default: "-createdAt". */
  readonly sort?: string;
  /** Fields offered as filters; default: every enum, reference, user, boolean and state column. */
  readonly filters?: readonly string[];
  readonly pageSize?: number;
  /**
   * Show the list as a board by default: a column per value of this field (the workflow's state
   * field, or an enum field), cards moved between columns by the transition that leads there (a
   * state) or by an update (an enum). The table stays one switch away (`?view=table`).
   */
  readonly board?: string;
  /** A number or money field summed under each board column; default: the first money field, if any. */
  readonly sum?: string;
  /**
   * The list as some roles see it, by role: their own columns, filters and sort, and whether it
   * offers them bulk actions and CSV import. A user whose every role has one sees the first (in
   * this order); a user holding a role without one sees the list above.
   */
  readonly roles?: Readonly<Record<string, ListRoleSpec>>;
}

/** A role's own list of an entity: what is left out is the list's own. */
export interface ListRoleSpec {
  readonly columns?: readonly string[];
  readonly filters?: readonly string[];
  readonly sort?: string;
  /** Whether rows may be selected for bulk actions (default true: those the role may take). */
  readonly bulk?: boolean;
  /** Whether the list offers CSV import, and the import page opens (default true: where the role may create). */
  readonly import?: boolean;
}

/**
 * Records of another entity shown on a detail page: those whose reference field points at the
 * record shown (a ticket's comments, a company's contacts).
 */
export interface RelatedSpec {
  /** The reference field of the related entity; needed only when it has several to this entity. */
  readonly via?: string;
  /** Section title; default: the related entity's plural label. */
  readonly label?: string;
  /** A conversation: oldest first, each with its author and time, the reply box at the bottom. Default: a table. */
  readonly thread?: boolean;
  /** Table columns; default: the related entity's list columns without the reference itself. */
  readonly columns?: readonly string[];
  /** Default: the list's sort for a table, "createdAt" for a thread. */
  readonly sort?: string;
  readonly pageSize?: number;
  /** Offer a form to add one in place where the viewer may create (default true). */
  readonly add?: boolean;
  /** Whether one may be added while the record shown is in a final state (default false). */
  readonly addWhenFinal?: boolean;
  /** Boolean fields shown as a marker on each item when true (an internal note). */
  readonly badges?: readonly string[];
  /**
   * A thread's reply that takes a transition of the record shown, in the same transaction: by
   * a user field of that record (the requester) or a role, the transition their reply takes
   * when it is available, e.g. { requester: 'reply' }; or a list, of which the first available
   * is taken: { requester: ['reply', 'reopen'] } (a reply on a resolved ticket reopens it). The
   * first transition of each is not offered as a button of its own; the others keep theirs.
   */
  readonly transitions?: Readonly<Record<string, string | readonly string[]>>;
  /** Transitions a replier may choose to take with the reply ("Reply and wait for customer"). */
  readonly replyWith?: readonly string[];
}

export interface DetailScreenSpec {
  /** Keyed by the related entity's name (or "entity.field"), in the order shown. */
  readonly related?: Readonly<Record<string, RelatedSpec>>;
}

/** Something the home (or a dashboard route) shows; every number respects the viewer's access. */
export type WidgetSpec =
  | {
      /** Counts per value of a state, enum, boolean, reference or user field; each links to the filtered list. */
      readonly kind: 'counts';
      readonly entity: string;
      readonly by: string;
      readonly title?: string;
      readonly where?: Condition;
      /** Sum this integer or decimal field per value instead of counting (a pipeline's value). */
      readonly sum?: string;
      /** Shown only to users with one of these roles (`public`: anyone who opens the page); default: everyone who opens it. */
      readonly roles?: readonly string[];
    }
  | {
      /** Records matching a condition (which may use `{ actor: true }`): "needs my action", "overdue". */
      readonly kind: 'list';
      readonly entity: string;
      readonly title: string;
      readonly where?: Condition;
      readonly sort?: string;
      readonly columns?: readonly string[];
      readonly limit?: number;
      /** Shown only to users with one of these roles (`public`: anyone who opens the page); default: everyone who opens it. */
      readonly roles?: readonly string[];
    }
  | {
      /** Records per day over the last `days` days, one line per datetime field (created, resolved). */
      readonly kind: 'chart';
      readonly entity: string;
      readonly title?: string;
      readonly days?: number;
      readonly series: readonly { readonly field: string; readonly label?: string }[];
      /** Shown only to users with one of these roles (`public`: anyone who opens the page); default: everyone who opens it. */
      readonly roles?: readonly string[];
    };

export interface HomeSpec {
  readonly title?: string;
  readonly widgets: readonly WidgetSpec[];
}

/** What a custom route shows. */
export type RouteContent =
  /** A list of an entity with fixed filters (conditions may use route parameters and the current user). */
  | { readonly list: string; readonly where?: Condition; readonly sort?: string; readonly columns?: readonly string[] }
  /** One record, its id taken from a route parameter. */
  | { readonly record: string; readonly id: string }
  /** A dashboard of widgets. */
  | { readonly widgets: readonly WidgetSpec[] }
  /**
   * Anything else: a React Server Component supplied by the spec. It receives the parameters,
   * the actor and the engine operations bound to the actor (access still holds).
   */
  | { readonly component: (props: RouteComponentProps) => unknown };

export interface RouteComponentProps {
  readonly params: Readonly<Record<string, string | number | boolean>>;
  readonly actor: Actor;
  readonly ops: SpecOps;
}

export interface RouteSpec {
  /** The address, with typed parameters in braces: "/queue", "/organizations/{id}/open". */
  readonly path: string;
  readonly title: string;
  readonly description?: string;
  readonly params?: Readonly<Record<string, ParamType>>;
  /** Who may open it; default: every signed-in user. */
  readonly roles?: readonly string[];
  /** Whether the navigation links to it (routes without parameters only). */
  readonly navigation?: boolean;
  readonly show: RouteContent;
}

export interface ScreensSpec {
  /** Entities linked from the navigation shell, in order; default: every entity. */
  readonly navigation?: readonly string[];
  readonly lists?: Readonly<Record<string, ListScreenSpec>>;
  /** Detail pages, by entity: the related records they show. */
  readonly details?: Readonly<Record<string, DetailScreenSpec>>;
  /** The home page's widgets; default: per entity the viewer may list, its count and counts per state. */
  readonly home?: HomeSpec;
  /** Custom routes, by name. */
  readonly routes?: Readonly<Record<string, RouteSpec>>;
  /** Labels for UI words, e.g. { "ticket.new": "Open a ticket" }. */
  readonly labels?: Readonly<Record<string, string>>;
  /** Who may read the spec (/spec) and the API reference (/api/docs); default: administrators. */
  readonly documentation?: DocumentationSpec;
  /**
   * Reader pages, by entity: for the roles named, the entity's list is a front page of its latest
   * records and a record is an article, instead of the back office's table and detail card.
   */
  readonly presentation?: Readonly<Record<string, PresentationSpec>>;
}

/**
 * How readers (the `public` role, or any role named) read an entity's records: `/articles` is a
 * front page of the latest, newest `date` first, `/articles/<slug>` an article. Each key but
 * `roles` names a field of the entity; what a reader may not read of it is left out.
 *
 *   article: { roles: ['public'], summary: 'summary', body: 'body', date: 'publishedAt', byline: 'author', tags: 'tags', slug: 'slug', feed: true }
 */
export interface PresentationSpec {
  /** The roles that read these pages (a user holding a staff role that has none keeps the back office). */
  readonly roles: readonly string[];
  /** The headline: a text field; default the entity's title field. */
  readonly headline?: string;
  /** A text or markdown field shown under the headline (a markdown one as a plain excerpt) and as the meta description. */
  readonly summary?: string;
  /** The article's text: a markdown (or text) field. */
  readonly body?: string;
  /** A date or datetime field (or createdAt, updatedAt): shown, and the front page's order (newest first); default createdAt. */
  readonly date?: string;
  /** Who wrote it: a user, reference or text field, shown to readers who may read it. */
  readonly byline?: string;
  /** A references field whose records are shown as links to the front page of those records. */
  readonly tags?: string;
  /** A unique text field (a computed `{ slug }` is one): the article's address, `/<plural>/<slug>`. */
  readonly slug?: string;
  /** An Atom feed at `/<plural>/feed.xml` of the latest records the public may read; needs `public` among the roles. */
  readonly feed?: boolean;
}

/**
 * The documents that describe every role's permissions and every field, internal ones included,
 * are for the roles named here (the built-in `admin` always among the choices).
 */
export interface DocumentationSpec {
  readonly roles: readonly string[];
}

// ---------------------------------------------------------------- point 4: states and transitions

export interface StateSpec {
  readonly label?: string;
  readonly initial?: boolean;
  readonly final?: boolean;
  readonly description?: string;
  /**
   * The state in a role's words, by role: { customer: { label: 'Waiting for your reply' } }. Users
   * whose every role has words for it read the first's (in this order) on pages; others read the
   * label and description above. The API carries the state's name.
   */
  readonly roles?: Readonly<Record<string, StateRoleSpec>>;
}

export interface StateRoleSpec {
  readonly label?: string;
  readonly description?: string;
}

/**
 * Who may take a transition: a role name, or the user named by a user field of the record —
 * when `when` holds; if it does not, the owner is refused with `error` (a catalogue code).
 */
export type TransitionActor = string | { readonly owner: string; readonly when?: Condition; readonly error?: string };

export interface EffectSpec {
  readonly set: string;
  readonly to: 'now' | 'actor' | null | string | number | boolean;
}

// ---- consequences: effects on the record a reference field points at

/**
 * Whose authority an effect on a referenced record runs with. 'actor': checked as if the actor
 * did it themselves (update scope and writable fields, the transition's allow, grants and
 * guards). 'system': taken by the engine, without grant checks; the target's validation, workflow
 * state, guards that do not read the actor, rules and limits still hold.
 */
export type EffectAuthority = 'actor' | 'system';

/**
 * An effect on the record the reference field `on` points at, in the same transaction as the
 * write that causes it: set one of its fields, or take one of its transitions. Nothing happens
 * while the reference is empty.
 */
export type ReferenceEffectSpec =
  | { readonly on: string; readonly set: string; readonly to: EffectSpec['to']; readonly as?: EffectAuthority }
  | { readonly on: string; readonly transition: string; readonly as?: EffectAuthority };

/**
 * One of a transition's guards: a condition that must hold for the transition to be taken, and
 * what the refusal says when it does not.
 */
export interface GuardSpec {
  /** Must hold; may compare with the user taking the transition (`{ actor: 'id' }`). */
  readonly when: Condition;
  /** The catalogue code of the refusal; default TRANSITION_NOT_ALLOWED. */
  readonly error?: string;
  /** For the user; default the code's catalogue message. */
  readonly message?: string;
}

/**
 * One target of a transition whose state depends on the data: entered when `when` holds on the
 * record with the transition's input applied; the last target has no `when` (otherwise).
 */
export interface TransitionTargetSpec {
  readonly when?: Condition;
  readonly state: string;
}

export interface TransitionSpec {
  readonly label?: string;
  readonly from: string | readonly string[];
  /** The state entered; or a list of targets, the first whose `when` holds (the last has no `when`). */
  readonly to: string | readonly TransitionTargetSpec[];
  readonly allow: readonly TransitionActor[];
  /** Fields that must have a value before the transition. */
  readonly requires?: readonly string[];
  /**
   * A condition that must hold (its refusal worded by `guardMessage` and `guardError`), or a list
   * of guards each with its own code and message, checked in order: the first that fails answers.
   */
  readonly guard?: Condition | readonly GuardSpec[];
  readonly guardMessage?: string;
  /** The catalogue code a failed guard answers with; default TRANSITION_NOT_ALLOWED. */
  readonly guardError?: string;
  /** Own fields set (`{ set, to }`), or effects on a referenced record (`{ on, set, to }`, `{ on, transition }`). */
  readonly effects?: readonly (EffectSpec | ReferenceEffectSpec)[];
  readonly comment?: 'required' | 'optional';
  /**
   * Taken by itself when its time comes: the scheduler of every server takes it, as the system
   * (history says "automatically"), on each record in a `from` state whose time has passed and
   * whose guards and `requires` hold. `allow` may then be empty (nobody takes it by hand).
   */
  readonly auto?: AutoSpec;
}

/**
 * When an automatic transition is due: a duration (at most one unit; none: at the time itself)
 * after or before a date or datetime field of the record (or createdAt / updatedAt), e.g.
 * `{ after: 'resolvedAt', days: { $constant: 'autoCloseDays' } }` or `{ before: 'startsAt', hours: 24 }`.
 * An empty field means never.
 */
export type AutoSpec = ({ readonly after: string; readonly before?: never } | { readonly before: string; readonly after?: never }) &
  DurationSpec;

/** A span of time in one unit, a number or a constant; no unit at all is no time. */
export interface DurationSpec {
  readonly minutes?: number | ConstantRef;
  readonly hours?: number | ConstantRef;
  readonly days?: number | ConstantRef;
  /**
   * Whole days worked on the spec's `calendar`, skipping its weekend and holidays: a time on a
   * day off counts from the start of the next working day (see src/engine/time/working-days.ts).
   */
  readonly workingDays?: number | ConstantRef;
}

export interface WorkflowSpec {
  /** The column holding the state; default "state". */
  readonly field?: string;
  /**
   * The catalogue code an update of a record in a final state answers with (final states freeze
   * the record); default RECORD_FINAL.
   */
  readonly finalError?: string;
  readonly states: Readonly<Record<string, StateSpec>>;
  readonly transitions: Readonly<Record<string, TransitionSpec>>;
}

// ---------------------------------------------------------------- point 5: validation

export interface RuleSpec {
  readonly message: string;
  /** The rule applies only when this holds. */
  readonly when?: Condition;
  readonly assert: Condition;
  /** The field the message is shown next to. */
  readonly field?: string;
  /**
   * Checked only on create and when the value of `field` changes: for rules relative to now
   * (a due time in the future when it is set, not forever after).
   */
  readonly onChange?: boolean;
  /**
   * The catalogue code of the refusal (declared under `errors` or built in); default
   * VALIDATION_FAILED. The message still goes next to the field.
   */
  readonly error?: string;
}

// ---------------------------------------------------------------- point 6: roles and permissions

export interface RoleSpec {
  readonly label?: string;
  readonly description?: string;
}

/** The parts of a scope other than `true`; every part given must hold. */
export interface ScopeParts {
  /** A user field of the record: records whose field is the actor. */
  readonly own?: string;
  /** A condition on the record's fields: records matching it. */
  readonly where?: Condition;
  /**
   * A reference field of the record: records whose referenced record the actor may read (e.g. a
   * comment whose ticket the actor may read). Follows that entity's read scope for the actor.
   */
  readonly via?: string;
}

/**
 * Which records an action applies to. true: every record; otherwise at least one of `own`,
 * `where` and `via`, all of which must hold.
 */
export type Scope = true | (ScopeParts & ({ readonly own: string } | { readonly where: Condition } | { readonly via: string }));

export interface GrantSpec {
  readonly list?: Scope;
  readonly read?: Scope;
  readonly create?: Scope;
  readonly update?: Scope;
  readonly delete?: Scope;
  /**
   * Workflow transitions by name: on which records this role takes one whose `allow` names it (or
   * an owner it allows). Who may take it is `allow`'s to say: a grant alone lets nobody take it.
   */
  readonly transitions?: Readonly<Record<string, Scope>>;
  /** Fields this role never sees; `createdBy` and `updatedBy` too (who created and last changed a record). */
  readonly hiddenFields?: readonly string[];
  /** Fields this role may see but never write. */
  readonly readOnlyFields?: readonly string[];
  /** When set, the only fields this role may write (on create and on update). */
  readonly writableFields?: readonly string[];
}

// ---------------------------------------------------------------- point 7: calls

export type ParamType = 'integer' | 'text' | 'boolean';

export interface CallContext {
  /** Path parameters, parsed to their declared types. */
  readonly params: Readonly<Record<string, string | number | boolean>>;
  /** The request body, checked against `input`. */
  readonly input: Readonly<Record<string, unknown>>;
  /** The engine operations, bound to the caller: access and validation still hold. */
  readonly ops: SpecOps;
  readonly actor: Actor;
  /** The spec's constants by name. */
  readonly constants: Readonly<Record<string, ConstantSpec['value']>>;
}

export interface CallSpec {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Relative to /api/v1, with typed parameters in braces: "/tickets/{id}/escalate". */
  readonly path: string;
  readonly summary?: string;
  readonly params?: Readonly<Record<string, ParamType>>;
  readonly input?: Readonly<Record<string, FieldSpec>>;
  readonly output?: string | Readonly<Record<string, FieldSpec>>;
  readonly roles: readonly string[];
  readonly errors?: readonly string[];
  readonly handler: (context: CallContext) => Promise<unknown>;
}

// ---------------------------------------------------------------- point 8: error catalogue

export interface ErrorSpec {
  readonly status: number;
  readonly title: string;
  /** What the user reads. */
  readonly message: string;
}

// ---------------------------------------------------------------- point 9: constants

export interface ConstantSpec {
  readonly value: number | string | boolean | Readonly<Record<string, number>>;
  readonly unit?: string;
  readonly description?: string;
}

// ---------------------------------------------------------------- users

/**
 * What the application keeps about each user beyond name, email and roles: their organization,
 * team... Administrators set them (/admin/users, the CLI); conditions read them as
 * `{ actor: 'team' }`, and paths through a user field as `{ field: 'requester.team' }`.
 */
export interface UsersSpec {
  /** Reference, user, enum, text, integer and boolean fields. */
  readonly fields: Readonly<Record<string, FieldSpec>>;
}

// ---------------------------------------------------------------- the whole spec

export interface AppSpec {
  /** Machine name: lower case letters, digits and dashes. */
  readonly name: string;
  readonly purpose?: PurposeSpec;
  readonly screens?: ScreensSpec;
  readonly entities?: Readonly<Record<string, EntitySpec>>;
  readonly workflows?: Readonly<Record<string, WorkflowSpec>>;
  /** Entity-level rules (cross-field), by entity then rule name. Field rules live on the fields. */
  readonly rules?: Readonly<Record<string, Readonly<Record<string, RuleSpec>>>>;
  /** Fields of every user account (point 6: who people are, for scopes such as "my team's"). */
  readonly users?: UsersSpec;
  /**
   * Roles by name. Built in: `admin`, and `public`, the visitors who are not signed in (grant it
   * to let anyone read, or create, without an account; every signed-in user holds its grants too).
   */
  readonly roles?: Readonly<Record<string, RoleSpec>>;
  /** By entity, then role. */
  readonly permissions?: Readonly<Record<string, Readonly<Record<string, GrantSpec>>>>;
  readonly calls?: Readonly<Record<string, CallSpec>>;
  readonly errors?: Readonly<Record<string, ErrorSpec>>;
  readonly constants?: Readonly<Record<string, ConstantSpec>>;
  /** The days the business works, for durations in `workingDays`; default Monday to Friday, no holidays. */
  readonly calendar?: CalendarSpec;
  /** Other systems told of changes: signed JSON POSTs (Standard Webhooks), by webhook name. */
  readonly webhooks?: Readonly<Record<string, WebhookSpec>>;
  /** Who is told what, and when: by kind name (src/engine/notify). */
  readonly notifications?: Readonly<Record<string, NotificationSpec>>;
  /** By entity: the roles whose users may watch its records (those they may read). */
  readonly watch?: Readonly<Record<string, readonly string[]>>;
}

/** A value read from the environment when the server starts: `{ env: 'HELPDESK_CRM_WEBHOOK_URL' }`. */
export interface EnvValueSpec {
  readonly env: string;
}

/**
 * A receiver of changes: `{ url, secret, events: ['ticket.created', 'ticket.resolve'], role: 'agent' }`.
 * An event is `<entity>.created`, `.updated`, `.deleted` or `.<transition name>`.
 */
export interface WebhookSpec {
  /** An https:// (or http://) address, or the environment variable holding it. */
  readonly url: string | EnvValueSpec;
  /** The environment variable holding the signing secret (`whsec_<base64>`); never the secret itself. */
  readonly secret: EnvValueSpec;
  readonly events: readonly string[];
  /** The payload's record is read with this role's access: fields it may not read are left out. */
  readonly role: string;
  readonly description?: string;
}

/**
 * One kind of notification: on which change (or time) of which entity's records, for whom, and
 * what they read. `{field}` / `{path.field}` placeholders in the title and text are filled with the
 * record's values as each recipient may read them; `{title}` is the record's title.
 */
export interface NotificationSpec {
  /** On /account's preferences and /spec. */
  readonly label?: string;
  readonly entity: string;
  readonly on: NotificationTrigger;
  /** On the record after the change (or at the time): no notification unless it holds. */
  readonly when?: Condition;
  /** A user or users field path ('assignee', 'ticket.requester'), `{ role }`, 'watchers' or a reference's ('ticket.watchers'). */
  readonly to: readonly NotificationRecipient[];
  readonly title: string;
  readonly text?: string;
  /** Default both. */
  readonly channels?: readonly NotificationChannel[];
}

export type NotificationChannel = 'inApp' | 'email';

export type NotificationRecipient = string | { readonly role: string };

/** A create, an update of named fields, a transition, or a time before or after a date/datetime. */
export type NotificationTrigger =
  | { readonly create: true }
  | { readonly update: readonly string[] }
  | { readonly transition: string | readonly string[] }
  | (({ readonly after: string; readonly before?: never } | { readonly before: string; readonly after?: never }) & DurationSpec);

/**
 * The working week and the days off, read on the wall clock of `purpose.timeZone`:
 * `{ weekend: ['saturday', 'sunday'], holidays: ['12-25', '2026-04-06'] }`.
 */
export interface CalendarSpec {
  /** The days of the week not worked, by their English names; default saturday and sunday. */
  readonly weekend?: readonly ('monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday')[];
  /** Days off: 'YYYY-MM-DD' (that date) or 'MM-DD' (that day every year). */
  readonly holidays?: readonly string[];
}
