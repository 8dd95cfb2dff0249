/**
 * What the REST API sends and receives, exactly: the JSON body types of /api/v1 and the one
 * function that turns a record into its JSON. The OpenAPI document describes these shapes, so
 * a change here is a change of the public contract.
 *
 * Every JSON response has `content-type: application/json; charset=utf-8`; every error
 * `application/problem+json; charset=utf-8` with a `WireProblem` body.
 */
import type { HistoryEntry, RecordData } from '@/engine/ops/types';
import type { RecordValue } from '@/engine/ground/record-value';
import { AUTHOR_COLUMNS } from '@/engine/spec/author-columns';
import type { EntityModel, FieldModel } from '@/engine/spec/model';
import type { FieldType } from '@/engine/spec/types';
import { isSetField } from '@/engine/spec/join-fields';
import type { FileMeta } from '@/engine/files/file-meta';
import { fileToWire } from './file-wire';

// ---------------------------------------------------------------- records

/** A field's value in JSON: never a Date, never undefined (absent is null). */
export type WireValue = string | number | boolean | null | readonly number[];

/**
 * A record as JSON. Keys in this order: the system columns, the workflow state (only when the
 * entity has a workflow; its key is the workflow's field, "state" unless the spec names it),
 * then every declared field of the entity the caller may read, each present (null when empty).
 * A field hidden from the caller's roles is absent, not null; so are `createdBy` and `updatedBy`
 * where the field rules hide them (from visitors, by default).
 */
export interface WireRecord {
  readonly id: number;
  /** Increases by one on every change; send it back as `If-Match: "<version>"` or `version`. */
  readonly version: number;
  /** ISO 8601 in UTC with milliseconds: "2026-05-01T09:30:00.000Z". */
  readonly createdAt: string;
  readonly updatedAt: string;
  /** User ids; null once that user is deleted; absent where hidden from the caller. */
  readonly createdBy?: number | null;
  readonly updatedBy?: number | null;
  readonly [field: string]: WireValue | undefined;
}

/**
 * How each field type is written in JSON (both ways: responses carry it, request bodies send
 * it). `format` follows JSON Schema. Every field may also be null.
 *
 * - text, markdown, email, url, enum: a string (enum: one of its values).
 * - integer: an integer (32-bit). decimal: a string of digits, "-12.50" (exact; never a float).
 * - money: as decimal, in the field's currency (which OpenAPI's description of the field names).
 * - boolean: true or false. date: "YYYY-MM-DD". datetime: ISO 8601 (responses: UTC, with ms).
 * - reference: the id (integer) of the referenced record. user: the id (integer) of a user.
 * - references: an array of the ids (integers) of the referenced records, ascending, only those
 *   the caller may read; never null (empty: []). A body's array replaces the whole set.
 * - users: an array of user ids, ascending, every one; never null (empty: []), replaced whole likewise.
 */
export const WIRE_FIELD_TYPES = {
  text: { type: 'string' },
  markdown: { type: 'string' },
  email: { type: 'string', format: 'email' },
  url: { type: 'string', format: 'uri' },
  enum: { type: 'string' },
  integer: { type: 'integer' },
  decimal: { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' },
  money: { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' },
  boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date' },
  datetime: { type: 'string', format: 'date-time' },
  reference: { type: 'integer' },
  user: { type: 'integer' },
  references: { type: 'array', items: { type: 'integer' } },
  users: { type: 'array', items: { type: 'integer' } },
  // Written as file ids; read back as descriptors (see fileToWire).
  file: { type: 'integer' },
  files: { type: 'array', items: { type: 'integer' } },
} as const satisfies Record<
  FieldType,
  { type: 'string' | 'integer' | 'boolean' | 'array'; format?: string; pattern?: string; items?: { type: 'integer' } }
>;

/** Writes a date (a 'YYYY-MM-DD' string from the store, or a Date) as 'YYYY-MM-DD'. */
function wireDate(value: RecordValue): WireValue {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return value === null ? null : String(value);
}

/** One field's value as JSON (see WIRE_FIELD_TYPES). */
export function fieldToWire(field: FieldModel, value: RecordValue | undefined): WireValue {
  if (isSetField(field)) return Array.isArray(value) ? (value as readonly number[]) : [];
  if (value === undefined || value === null) return null;
  switch (field.type) {
    case 'datetime':
      return value instanceof Date ? value.toISOString() : String(value);
    case 'date':
      return wireDate(value);
    case 'decimal':
    case 'money':
      return String(value);
    case 'integer':
    case 'reference':
    case 'user':
      return typeof value === 'number' ? value : Number(value);
    default:
      return value instanceof Date ? value.toISOString() : value;
  }
}

function wireTime(value: RecordValue): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

/** A record of `entity` as JSON (see WireRecord). */
export function recordToWire(entity: EntityModel, record: RecordData, files: ReadonlyMap<number, FileMeta>): WireRecord {
  const wire: Record<string, WireValue> = {
    id: record.id,
    version: record.version,
    createdAt: wireTime(record.createdAt),
    updatedAt: wireTime(record.updatedAt),
  };
  // Who wrote it is a field as far as reading goes: absent when the caller may not read it.
  for (const name of AUTHOR_COLUMNS) if (Object.hasOwn(record, name)) wire[name] = (record[name] as number | null | undefined) ?? null;
  // A write's receipt (the caller may not read the record) carries no state.
  if (entity.workflow && Object.hasOwn(record, entity.workflow.field))
    wire[entity.workflow.field] = (record[entity.workflow.field] as string | null) ?? null;
  // Ops leave out the fields the actor may not read: they stay out (never re-added as null).
  for (const field of entity.fields) if (Object.hasOwn(record, field.name)) wire[field.name] = fieldToWire(field, record[field.name]);
  // Files as descriptors (name, size, type, where to download): every door looks them up (describeRecordFiles).
  for (const field of entity.fields) {
    if (!field.files || !Object.hasOwn(record, field.name)) continue;
    const described = (Array.isArray(record[field.name]) ? (record[field.name] as readonly number[]) : []).flatMap((id) => {
      const meta = files.get(id);
      return meta ? [fileToWire(meta)] : [];
    });
    wire[field.name] = (field.type === 'file' ? (described[0] ?? null) : described) as unknown as WireValue;
  }
  return wire as WireRecord;
}

// ---------------------------------------------------------------- history

/** A field's value before and after a change, as JSON (WIRE_FIELD_TYPES; null for empty). */
export interface WireFieldChange {
  readonly from: WireValue;
  readonly to: WireValue;
}

/** One event of a record's life (GET /api/v1/<plural>/<id>/history). */
export interface WireHistoryEntry {
  readonly id: number;
  /** ISO 8601 in UTC with milliseconds. */
  readonly at: string;
  /** Who did it; null once that account is gone, or where the caller may not see who (createdBy or updatedBy hidden). */
  readonly actor: { readonly id: number; readonly name: string } | null;
  readonly action: 'create' | 'update' | 'transition' | 'delete';
  /** For a transition: which, the states left and entered, and the comment; otherwise null. */
  readonly transition: {
    readonly name: string;
    readonly label: string;
    readonly from: string;
    readonly to: string;
    readonly comment: string | null;
  } | null;
  /**
   * The fields that changed, by name (create: every initial value as `to`). A field hidden from
   * the caller never appears, and an update that changed only such fields is not listed at all.
   */
  readonly changes: Readonly<Record<string, WireFieldChange>>;
  /** For a change made as the effect of a write on another record (a transition's or a create's); otherwise null. */
  readonly cause: { readonly entity: string; readonly id: number; readonly action: string; readonly text: string } | null;
}

/** GET /api/v1/<plural>/<id>/history: newest first, one page at a time, as the list's envelope. */
export interface WireHistoryPage {
  readonly items: readonly WireHistoryEntry[];
  /** Pass as `?cursor=` for older entries; null on the last page. */
  readonly nextCursor: string | null;
}

/** What a history page holds when the caller does not say. */
export const HISTORY_PAGE_SIZE = 50;
/** What ops read at most per history page. */
const HISTORY_MAX_PAGE = 200;

/** The largest history page a caller may ask for: the API's page size, within what ops read at most. */
export function historyMaxPageSize(maxPageSize: number): number {
  return Math.min(maxPageSize, HISTORY_MAX_PAGE);
}

function changeValue(entity: EntityModel, name: string, value: RecordValue): WireValue {
  const field = entity.fieldsByName[name];
  if (field) return fieldToWire(field, value);
  return value instanceof Date ? value.toISOString() : value;
}

/** A history entry of a record of `entity` as JSON (see WireHistoryEntry). */
export function historyEntryToWire(entity: EntityModel, entry: HistoryEntry): WireHistoryEntry {
  const changes: Record<string, WireFieldChange> = {};
  for (const [name, change] of Object.entries(entry.changes)) {
    changes[name] = { from: changeValue(entity, name, change.from), to: changeValue(entity, name, change.to) };
  }
  return {
    id: entry.id,
    at: wireTime(entry.at),
    actor: entry.actor ? { id: entry.actor.id, name: entry.actor.name } : null,
    action: entry.action,
    transition: entry.transition
      ? {
          name: entry.transition.name,
          label: entry.transition.label,
          from: entry.transition.from,
          to: entry.transition.to,
          comment: entry.transition.comment,
        }
      : null,
    changes,
    cause: entry.cause
      ? { entity: entry.cause.entity, id: entry.cause.recordId, action: entry.cause.action, text: entry.cause.text }
      : null,
  };
}

// ---------------------------------------------------------------- transitions

/**
 * POST /api/v1/<plural>/<id>/transitions/<name> request body (it may be left out when If-Match
 * carries the version and there is nothing else to send).
 */
export interface WireTransitionRequest {
  /** The version the caller saw, unless sent as If-Match; neither → 428. */
  readonly version?: number;
  /** Recorded in the history; required when the transition says so. */
  readonly comment?: string;
  /** Field values set with the transition (e.g. the assignee `start` requires); writable fields only. */
  readonly input?: WireRecordInput;
}

/** POST /api/v1/<plural>/transitions/<name> request body: the same transition on many records. */
export interface WireBulkTransitionRequest {
  /**
   * 1 to 200 records; each with the version the caller saw (STALE_VERSION for that row when it
   * changed), or without one to take the record as it is now. A repeated id is done once.
   */
  readonly items: readonly { readonly id: number; readonly version?: number }[];
  readonly comment?: string;
  readonly input?: WireRecordInput;
}

/**
 * One row of a bulk transition: the record after it, or the refusal as a problem would carry it
 * (`status` is the status the single transition would have answered).
 */
export type WireBulkTransitionResult =
  | { readonly id: number; readonly ok: true; readonly record: WireRecord }
  | { readonly id: number; readonly ok: false; readonly status: number; readonly code: string; readonly detail: string };

/**
 * POST /api/v1/<plural>/transitions/<name> → 200 whatever each row's outcome: one result per
 * distinct id, in the order sent. Each row is its own transaction, so one refusal undoes nothing
 * else.
 */
export interface WireBulkTransitionResults {
  readonly results: readonly WireBulkTransitionResult[];
}

/** One row of a delete of many records: deleted, or refused as a problem would carry it. */
export type WireBulkDeleteResult =
  | { readonly id: number; readonly ok: true }
  | { readonly id: number; readonly ok: false; readonly status: number; readonly code: string; readonly detail: string };

/** POST /api/v1/<plural>/bulk-delete → 200: one result per distinct id, in the order sent. */
export interface WireBulkDeleteResults {
  readonly results: readonly WireBulkDeleteResult[];
}

// ---------------------------------------------------------------- bodies

/** GET /api/v1/<plural>: one page, in the requested order. */
export interface WireListPage {
  readonly items: readonly WireRecord[];
  /** Pass as `?cursor=` (with the same filters, q and sort) for the next page; null on the last. */
  readonly nextCursor: string | null;
}

/** GET /api/v1/auth/me, and `user` of the sign-in response. */
export interface WireUser {
  readonly id: number;
  readonly email: string;
  readonly name: string;
  readonly roles: readonly string[];
}

/** POST /api/v1/auth/sign-in request body. */
export interface WireSignInRequest {
  readonly email: string;
  readonly password: string;
}

/** POST /api/v1/auth/sign-in → 200, with `Set-Cookie: nf_session=...; HttpOnly; SameSite=Lax`. */
export interface WireSignIn {
  readonly user: WireUser;
}

/** POST /api/v1/auth/sign-out → 200 (the cookie is cleared). */
export interface WireSignOut {
  readonly signedOut: true;
}

/** One problem with one input: `pointer` is "/<field>" (a body field, or a query or path parameter). */
export interface WireFieldProblem {
  readonly pointer: string;
  readonly code: string;
  readonly detail: string;
}

/** Every error (RFC 9457 problem details), as application/problem+json. */
export interface WireProblem {
  /** A stable URI per code: https://ninefold.dev/problems/<code in kebab case>. */
  readonly type: string;
  readonly title: string;
  /** Always the HTTP status of the response. */
  readonly status: number;
  readonly detail: string;
  /** A code of the catalogue: built in (VALIDATION_FAILED, ...) or declared by the spec. */
  readonly code: string;
  /** VALIDATION_FAILED, FORBIDDEN_FIELD: what is wrong with which input. */
  readonly errors?: readonly WireFieldProblem[];
  /** INTERNAL only: the server's log line for this error carries the same digest. */
  readonly digest?: string;
  /** LIMIT_EXCEEDED: the spec's name of the limit reached ("openTicketsPerCustomer"). */
  readonly limit?: string;
  /** LIMIT_EXCEEDED: the most allowed. */
  readonly max?: number;
  /** LIMIT_EXCEEDED: the business constant that sets the maximum ("maxOpenTicketsPerCustomer"), when one does. */
  readonly constant?: string;
}

/**
 * Request bodies:
 * - POST /api/v1/<plural>: an object of field values (WIRE_FIELD_TYPES); absent fields take their
 *   default. Unknown, read-only or state fields are refused (422 / 403).
 * - PATCH /api/v1/<plural>/<id>: the fields to change, plus optionally `version` (integer) when
 *   not sent as `If-Match`.
 * - Custom calls: an object of the call's declared `input` fields.
 */
export type WireRecordInput = Readonly<Record<string, WireValue>>;

/**
 * Response headers:
 * - ETag: "<version>" on GET, POST (201), PATCH and transitions of one record; Location on POST (201).
 * - RateLimit-Policy / RateLimit (draft-ietf-httpapi-ratelimit-headers-09) on every response
 *   under /api/v1 once counted: `"default";q=600;w=60` is the limit per token or signed-in user,
 *   `"ip";q=1200;w=60` the limit per client address; RateLimit gives `r` (remaining) and `t`
 *   (seconds until the window resets) for the same names. 429 adds Retry-After (seconds).
 * - Allow on 405 and on OPTIONS (204).
 */
export const RATE_LIMIT_POLICIES = { perUser: 'default', perIp: 'ip' } as const;
