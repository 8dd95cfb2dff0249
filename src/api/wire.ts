/**
 * What the REST API sends and receives, exactly: the JSON body types of /api/v1 and the one
 * function that turns a record into its JSON. The OpenAPI document describes these shapes, so
 * a change here is a change of the public contract.
 *
 * Every JSON response has `content-type: application/json; charset=utf-8`; every error
 * `application/problem+json; charset=utf-8` with a `WireProblem` body.
 */
import type { RecordData, RecordValue } from '@/engine/ops/types';
import type { EntityModel, FieldModel } from '@/engine/spec/model';
import type { FieldType } from '@/engine/spec/types';

// ---------------------------------------------------------------- records

/** A field's value in JSON: never a Date, never undefined (absent is null). */
export type WireValue = string | number | boolean | null;

/**
 * A record as JSON. Keys in this order: the system columns, the workflow state (only when the
 * entity has a workflow; its key is the workflow's field, "state" unless the spec names it),
 * then every declared field of the entity the caller may read, each present (null when empty).
 * A field hidden from the caller's roles is absent, not null.
 */
export interface WireRecord {
  readonly id: number;
  /** Increases by one on every change; send it back as `If-Match: "<version>"` or `version`. */
  readonly version: number;
  /** ISO 8601 in UTC with milliseconds: "2026-05-01T09:30:00.000Z". */
  readonly createdAt: string;
  readonly updatedAt: string;
  /** User ids; null once that user is deleted. */
  readonly createdBy: number | null;
  readonly updatedBy: number | null;
  readonly [field: string]: WireValue;
}

/**
 * How each field type is written in JSON (both ways: responses carry it, request bodies send
 * it). `format` follows JSON Schema. Every field may also be null.
 *
 * - text, markdown, email, url, enum: a string (enum: one of its values).
 * - integer: an integer (32-bit). decimal: a string of digits, "-12.50" (exact; never a float).
 * - boolean: true or false. date: "YYYY-MM-DD". datetime: ISO 8601 (responses: UTC, with ms).
 * - reference: the id (integer) of the referenced record. user: the id (integer) of a user.
 */
export const WIRE_FIELD_TYPES = {
  text: { type: 'string' },
  markdown: { type: 'string' },
  email: { type: 'string', format: 'email' },
  url: { type: 'string', format: 'uri' },
  enum: { type: 'string' },
  integer: { type: 'integer' },
  decimal: { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' },
  boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date' },
  datetime: { type: 'string', format: 'date-time' },
  reference: { type: 'integer' },
  user: { type: 'integer' },
} as const satisfies Record<FieldType, { type: 'string' | 'integer' | 'boolean'; format?: string; pattern?: string }>;

/** Writes a date (a 'YYYY-MM-DD' string from the store, or a Date) as 'YYYY-MM-DD'. */
function wireDate(value: RecordValue): WireValue {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return value === null ? null : String(value);
}

/** One field's value as JSON (see WIRE_FIELD_TYPES). */
export function fieldToWire(field: FieldModel, value: RecordValue | undefined): WireValue {
  if (value === undefined || value === null) return null;
  switch (field.type) {
    case 'datetime':
      return value instanceof Date ? value.toISOString() : String(value);
    case 'date':
      return wireDate(value);
    case 'decimal':
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
export function recordToWire(entity: EntityModel, record: RecordData): WireRecord {
  const wire: Record<string, WireValue> = {
    id: record.id,
    version: record.version,
    createdAt: wireTime(record.createdAt),
    updatedAt: wireTime(record.updatedAt),
    createdBy: record.createdBy ?? null,
    updatedBy: record.updatedBy ?? null,
  };
  if (entity.workflow) wire[entity.workflow.field] = (record[entity.workflow.field] as string | undefined) ?? null;
  // Ops leave out the fields the actor may not read: they stay out (never re-added as null).
  for (const field of entity.fields) if (Object.hasOwn(record, field.name)) wire[field.name] = fieldToWire(field, record[field.name]);
  return wire as WireRecord;
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
 * - ETag: "<version>" on GET, POST (201) and PATCH of one record; Location on POST (201).
 * - RateLimit-Policy / RateLimit (draft-ietf-httpapi-ratelimit-headers-09) on every response
 *   under /api/v1 once counted: `"default";q=600;w=60` is the limit per token or signed-in user,
 *   `"ip";q=1200;w=60` the limit per client address; RateLimit gives `r` (remaining) and `t`
 *   (seconds until the window resets) for the same names. 429 adds Retry-After (seconds).
 * - Allow on 405 and on OPTIONS (204).
 */
export const RATE_LIMIT_POLICIES = { perUser: 'default', perIp: 'ip' } as const;
