import { BUILT_IN_ERRORS, type BuiltInErrorCode } from '@/engine/errors/catalogue';
import type { AppModel } from '@/engine/spec/model';
import type { ErrorSpec } from '@/engine/spec/types';
import { schemaRef } from './schemas';
import type { HeaderObject, JsonSchema, ResponseObject } from './types';

/** The error catalogue on the wire: which codes each operation can answer with, grouped by status. */

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** The whole catalogue: built-in codes first, then the spec's own, each once. */
export function catalogue(model: AppModel): ReadonlyMap<string, ErrorSpec> {
  return new Map<string, ErrorSpec>([...Object.entries(BUILT_IN_ERRORS), ...Object.entries(model.errors)]);
}

/** Any request under /api/v1 may be refused by the rate limit, meet a database outage, or fail unexpectedly. */
const ANY: readonly BuiltInErrorCode[] = ['RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'INTERNAL'];
/** An operation that needs a signed-in caller (or a token) and checks what the caller may do. */
const SIGNED_IN: readonly BuiltInErrorCode[] = ['UNAUTHENTICATED', 'FORBIDDEN', ...ANY];
/** An operation with a JSON body. */
const BODY: readonly BuiltInErrorCode[] = ['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'VALIDATION_FAILED'];

/** The built-in codes of each generated operation (custom calls add their declared ones). */
export const OPERATION_ERRORS = {
  // FORBIDDEN_FIELD: a filter, sort or search by a field the caller may not read.
  list: [...SIGNED_IN, 'VALIDATION_FAILED', 'FORBIDDEN_FIELD'],
  get: [...SIGNED_IN, 'VALIDATION_FAILED', 'NOT_FOUND'],
  create: [...SIGNED_IN, ...BODY, 'FORBIDDEN_FIELD', 'LIMIT_EXCEEDED'],
  update: [...SIGNED_IN, ...BODY, 'FORBIDDEN_FIELD', 'LIMIT_EXCEEDED', 'NOT_FOUND', 'STALE_VERSION', 'PRECONDITION_REQUIRED'],
  delete: [...SIGNED_IN, 'VALIDATION_FAILED', 'NOT_FOUND', 'STALE_VERSION', 'CONFLICT'],
  // The spec's own codes of a transition (an owner's window, a guard) are added per transition.
  transition: [
    ...SIGNED_IN,
    ...BODY,
    'FORBIDDEN_FIELD',
    'LIMIT_EXCEEDED',
    'NOT_FOUND',
    'STALE_VERSION',
    'PRECONDITION_REQUIRED',
    'TRANSITION_NOT_ALLOWED',
  ],
  // Each record's refusal is a result of the 200, not a status of the request.
  bulkTransition: [...SIGNED_IN, ...BODY],
  // A field the caller may not write refuses the whole request, before any row.
  bulkUpdate: [...SIGNED_IN, ...BODY, 'FORBIDDEN_FIELD'],
  bulkDelete: [...SIGNED_IN, ...BODY],
  history: [...SIGNED_IN, 'VALIDATION_FAILED', 'NOT_FOUND'],
  me: ['UNAUTHENTICATED', ...ANY],
  signIn: [...BODY, 'UNAUTHENTICATED', ...ANY],
  // Anyone may sign out; with the cookie, the Origin must be the application's (403).
  signOut: ['FORBIDDEN', ...ANY],
  openapi: [...ANY],
  // Administrators only (FORBIDDEN for anyone else).
  webhookDeliveries: [...SIGNED_IN, 'VALIDATION_FAILED'],
  webhookRetry: [...SIGNED_IN, 'NOT_FOUND'],
  // A refused part (too large, a type no file field takes, too many) deletes the request's files.
  upload: [...SIGNED_IN, ...BODY],
  // NOT_FOUND for a file whose record or field the caller may not read, as for one that never was.
  download: [...SIGNED_IN, 'VALIDATION_FAILED', 'NOT_FOUND', 'RANGE_NOT_SATISFIABLE'],
} as const satisfies Record<string, readonly BuiltInErrorCode[]>;

/** What each code means for an operation, when the catalogue's title alone would be vague. */
const CODE_NOTES: Partial<Record<BuiltInErrorCode, string>> = {
  UNAUTHENTICATED: 'no valid session cookie or API token',
  FORBIDDEN: 'the caller may not do this (or a cookie-authenticated change came without a matching Origin)',
  FORBIDDEN_FIELD: 'a field the caller may not write, or may not read and so may not filter, sort or search by; `errors` names it',
  VALIDATION_FAILED: 'an input is not valid; `errors` names each one',
  NOT_FOUND: 'no such record, or the caller cannot see it',
  STALE_VERSION: 'the record changed since the version sent',
  PRECONDITION_REQUIRED: 'no version sent: send If-Match or "version"',
  CONFLICT: 'other records still refer to this one',
  RECORD_FINAL: 'the record is in a final state of its workflow, which freezes it',
  TRANSITION_NOT_ALLOWED:
    'the transition cannot be taken: the detail says whether the record is in the wrong state, the caller may not take it, or a field it needs or a condition is missing',
  LIMIT_EXCEEDED: 'a limit of the application was reached; `limit`, `max` and `constant` name it',
  PAYLOAD_TOO_LARGE: 'the body is too large',
  RANGE_NOT_SATISFIABLE: 'the Range starts past the end of the file; Content-Range gives its size',
  UNSUPPORTED_MEDIA_TYPE: 'the body is not sent as application/json',
  RATE_LIMITED: 'too many requests; see Retry-After',
  SERVICE_UNAVAILABLE: 'the database cannot be reached right now; see Retry-After',
  INTERNAL: 'unexpected; `digest` is in the server log line',
};

const RATE_LIMIT_HEADERS: Record<string, HeaderObject> = {
  'Retry-After': { description: 'Seconds to wait before the next request.', required: true, schema: { type: 'integer', minimum: 0 } },
  RateLimit: {
    description: 'Remaining requests and seconds until the window resets (IETF RateLimit header fields).',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': { description: 'The limits that apply: per token or user, and per client address.', schema: { type: 'string' } },
};

/**
 * The problem responses of an operation, one per status. Codes that share a status are listed
 * under `x-error-codes` and in the description, and the response's `code` is narrowed to them.
 */
export function problemResponses(model: AppModel, codes: readonly string[]): Record<string, ResponseObject> {
  const known = catalogue(model);
  const byStatus = new Map<number, string[]>();
  for (const code of new Set(codes)) {
    const error = known.get(code);
    if (!error) throw new Error(`The error code "${code}" is not in the catalogue.`);
    byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), code]);
  }
  const responses: Record<string, ResponseObject> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const statusCodes = byStatus.get(status)!;
    const base = status === 422 ? 'ValidationProblem' : 'Problem';
    const schema: JsonSchema = {
      allOf: [schemaRef(base)],
      type: 'object',
      properties: { status: { const: status }, code: { enum: statusCodes } },
    };
    const response: ResponseObject = {
      description: statusCodes
        .map((code) => {
          const note = CODE_NOTES[code as BuiltInErrorCode];
          return `${code}: ${note ?? known.get(code)!.title}`;
        })
        .join('. '),
      content: { [PROBLEM_MEDIA_TYPE]: { schema } },
      'x-error-codes': statusCodes,
    };
    if (status === 429) response.headers = RATE_LIMIT_HEADERS;
    if (status === 416)
      response.headers = {
        'Content-Range': { description: '`bytes */<size>`: the size of the file.', required: true, schema: { type: 'string' } },
      };
    if (status === 503) response.headers = { 'Retry-After': RATE_LIMIT_HEADERS['Retry-After']! };
    responses[String(status)] = response;
  }
  return responses;
}
