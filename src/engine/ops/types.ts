import type { FieldError } from '../errors/ninefold-error';
import type { SortModel } from '../spec/model';
import type { Condition } from '../spec/types';
import type { RecordValue } from '../ground/record-value';

/** A record as ops return it: field names (camelCase) to values, plus the system columns. */
export interface RecordData {
  readonly id: number;
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Who created it and who changed it last (null once that account is gone); absent where the field rules hide them. */
  readonly createdBy?: number | null;
  readonly updatedBy?: number | null;
  readonly [field: string]: RecordValue | undefined;
}

/** Display titles of referenced records, by field name then id, loaded in one query per field. */
export type ReferenceTitles = Readonly<Record<string, Readonly<Record<number, string>>>>;

export interface ListQuery {
  /** "field", "-field", or several comma-separated; default: the list screen's sort. */
  readonly sort?: string;
  /** Equality filters on enum, reference, user, boolean and state fields; values as strings. */
  readonly filters?: Readonly<Record<string, string>>;
  /** Full-text search over the searchable fields. */
  readonly q?: string;
  /** Opaque cursor from a previous page's `nextCursor`. */
  readonly cursor?: string;
  readonly limit?: number;
  /**
   * A condition declared by the spec (a route's or a widget's fixed filter; never one a client
   * sent), ANDed with the actor's scope. It may use `{ actor: true }` and `{ param }`; a field
   * the actor may not read in it is FORBIDDEN_FIELD.
   */
  readonly where?: Condition;
  /** Values of the `{ param }` operands of `where`. */
  readonly params?: Readonly<Record<string, string | number | boolean>>;
}

/** How many records of a list the actor may see, counted up to a cap. */
export interface ListCount {
  /** The count, or the cap when there are more (`more` is then true). */
  readonly count: number;
  /** True when there are more than `count` records (counting stopped there). */
  readonly more: boolean;
}

export interface ListPage {
  readonly rows: readonly RecordData[];
  readonly references: ReferenceTitles;
  /** Cursor for the page after this one; null on the last page. */
  readonly nextCursor: string | null;
  /** The order of the page, first key first (the record id breaks remaining ties). */
  readonly sort: readonly SortModel[];
}

/** Records found by a search, best first (ops `search`): a first page, never followed by another. */
export interface SearchPage {
  readonly rows: readonly RecordData[];
  readonly references: ReferenceTitles;
}

/**
 * A workflow transition as offered to one actor on one record: available now, or blocked with
 * why (a field still missing, a guard, an owner's time window). Transitions from other states
 * or reserved to other people are not offered at all.
 */
export interface TransitionOffer {
  readonly name: string;
  readonly label: string;
  /** The state it leads to. */
  readonly to: string;
  readonly available: boolean;
  /** Why it is blocked, for the user; never mentions values the user may not see. */
  readonly blockedReason?: string;
  /** Fields that must have a value first: a small form may ask for them with the transition. */
  readonly requires: readonly string[];
  readonly comment?: 'required' | 'optional';
}

/** How a create goes beyond the record itself. */
export interface CreateOptions {
  /**
   * A transition of the record the new one's reference points at, taken in the same transaction
   * (a reply box's "Reply and wait for customer"): one the detail page's section offers beside
   * its reply box (`replyWith`). A refusal saves neither. Without it, the section's automatic
   * `transitions` apply.
   */
  readonly replyWith?: string;
}

/** What the actor may do to one record now (its scope and state decide; a final state refuses updates). */
export interface RecordCan {
  readonly update: boolean;
  readonly delete: boolean;
}

export interface RecordView {
  readonly record: RecordData;
  readonly references: ReferenceTitles;
  /** The record's workflow transitions for this actor (empty without a workflow). */
  readonly transitions: readonly TransitionOffer[];
  readonly can: RecordCan;
}

export interface TransitionRequest {
  /** The version of the record the actor saw: STALE_VERSION (409) when it changed since. */
  readonly version: number;
  /** Recorded in the history; required when the transition says so. */
  readonly comment?: string;
  /** Field values set with the transition (e.g. the assignee `start` requires); writable fields only. */
  readonly input?: RecordInput;
}

/** A field's value before and after a change, as the viewer may see it. */
export interface FieldChange {
  readonly from: RecordValue;
  readonly to: RecordValue;
}

/** One event in a record's life, as recorded in the same transaction as the change. */
export interface HistoryEntry {
  readonly id: number;
  readonly at: Date;
  /** Who did it; null when the account is gone, or when the viewer may not see who (`actorHidden`). */
  readonly actor: { readonly id: number; readonly name: string } | null;
  /**
   * True where the field rules hide who wrote the record from the viewer: who created it
   * (createdBy) for its creation, who changed it (updatedBy) for every later event.
   */
  readonly actorHidden?: true;
  readonly action: 'create' | 'update' | 'transition' | 'delete';
  /** For a transition: its name, label, the states left and entered, and the comment given. */
  readonly transition?: {
    readonly name: string;
    readonly label: string;
    readonly from: string;
    readonly to: string;
    readonly comment: string | null;
    /** Taken by the scheduler when its time came (an automatic transition): there is no user. */
    readonly automatic?: true;
  };
  /** Field changes, only fields the viewer may read (create: the initial values as `to`). */
  readonly changes: Readonly<Record<string, FieldChange>>;
  /** For a change made as an effect of a write on another record: that write, and in words. */
  readonly cause?: { readonly entity: string; readonly recordId: number; readonly action: string; readonly text: string };
}

export interface HistoryPage {
  /** Newest first. */
  readonly entries: readonly HistoryEntry[];
  /** Titles of the records and users the entries name (past values too), as a record view's `references`. */
  readonly references: ReferenceTitles;
  readonly nextCursor: string | null;
}

/** A row a bulk write refused, with the field errors it names (a record rule broken on a field nobody touched) when it has any. */
export interface BulkRowRefusal {
  readonly id: number;
  readonly ok: false;
  readonly code: string;
  readonly message: string;
  readonly fieldErrors?: readonly FieldError[];
}

/** One row's result of a bulk transition or update: the record after it, or the refusal. */
export type BulkTransitionResult = { readonly id: number; readonly ok: true; readonly record: RecordData } | BulkRowRefusal;

/** One row's result of a bulk update (the same shape as a transition's). */
export type BulkUpdateResult = BulkTransitionResult;

/** One row's result of a bulk delete. */
export type BulkDeleteResult = { readonly id: number; readonly ok: true } | BulkRowRefusal;

/** Raw input from a form (strings) or JSON (typed values), keyed by field name. */
export type RecordInput = Readonly<Record<string, unknown>>;

/** What a query would use: the fields it counts, sums, sorts or filters by, and its condition. */
export interface QueryUse {
  readonly fields: readonly string[];
  readonly where?: Condition | null;
}

/** A list shown as a board: its filters, search, condition and card order, and how many cards a column shows. */
export interface BoardQuery extends Pick<ListQuery, 'filters' | 'q' | 'where' | 'params' | 'sort'> {
  /** Cards per column (default BOARD_CARDS). */
  readonly perColumn?: number;
}

/** A record on a board, with what the actor may do to move it. */
export interface BoardCard {
  readonly record: RecordData;
  /** The record's transitions as offered to the actor (a workflow board): each leads to a column. */
  readonly transitions: readonly TransitionOffer[];
  /** Whether the actor may update the record's board field now (an enum board). */
  readonly canUpdate: boolean;
}

export interface BoardColumn {
  /** The state or enum value the column holds. */
  readonly value: string;
  /** Records in the column that the actor may list (filters, search and condition applied). */
  readonly count: number;
  /** The sum of the board's number field over them; null when the board sums nothing for the actor. */
  readonly sum: number | null;
  /** The first cards, in the list's order. */
  readonly cards: readonly BoardCard[];
  /** True when the column holds more cards than shown. */
  readonly more: boolean;
}

export interface BoardPage {
  readonly field: string;
  /** The field summed per column; null when the board has none or the actor may not read it. */
  readonly sum: string | null;
  /** One per value of the field, in the declared order, empty ones included. */
  readonly columns: readonly BoardColumn[];
  readonly references: ReferenceTitles;
}
