import type { SortModel } from '../spec/model';

/** Who is acting: a signed-in user (page, server action or API token). */
export interface Actor {
  readonly userId: number;
  readonly email: string;
  readonly name: string;
  readonly roles: readonly string[];
}

export type RecordValue = string | number | boolean | Date | null;

/** A record as ops return it: field names (camelCase) to values, plus the system columns. */
export interface RecordData {
  readonly id: number;
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly createdBy: number | null;
  readonly updatedBy: number | null;
  readonly [field: string]: RecordValue;
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
}

export interface ListPage {
  readonly rows: readonly RecordData[];
  readonly references: ReferenceTitles;
  /** Cursor for the page after this one; null on the last page. */
  readonly nextCursor: string | null;
  /** The order of the page, first key first (the record id breaks remaining ties). */
  readonly sort: readonly SortModel[];
}

export interface RecordView {
  readonly record: RecordData;
  readonly references: ReferenceTitles;
}

/** Raw input from a form (strings) or JSON (typed values), keyed by field name. */
export type RecordInput = Readonly<Record<string, unknown>>;
