import type { ErrorSpec } from '../spec/types';

/**
 * The built-in part of the error catalogue. A spec adds its own codes under `errors`;
 * every error a user can see is one of these codes.
 */
export const BUILT_IN_ERRORS = {
  VALIDATION_FAILED: { status: 422, title: 'Validation failed', message: 'Some values are not valid. Check the fields marked below.' },
  UNAUTHENTICATED: { status: 401, title: 'Not signed in', message: 'Sign in to continue.' },
  FORBIDDEN: { status: 403, title: 'Forbidden', message: 'You are not allowed to do this.' },
  FORBIDDEN_FIELD: { status: 403, title: 'Field not allowed', message: 'You are not allowed to read or change one of these fields.' },
  NOT_FOUND: { status: 404, title: 'Not found', message: 'This page or record does not exist, or you cannot see it.' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed', message: 'This address does not accept that method.' },
  CONFLICT: { status: 409, title: 'Conflict', message: 'This record is still used by others and cannot be changed this way.' },
  STALE_VERSION: {
    status: 409,
    title: 'Changed by someone else',
    message: 'This record was changed after you opened it. Reload it to see the changes.',
  },
  RECORD_FINAL: { status: 409, title: 'Record final', message: 'This record is in a final state and can no longer be changed.' },
  TRANSITION_NOT_ALLOWED: { status: 409, title: 'Transition not allowed', message: 'This step cannot be taken now.' },
  PRECONDITION_REQUIRED: { status: 428, title: 'Version required', message: 'Send the version of the record you saw.' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Payload too large', message: 'The request is too large.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported media type', message: 'Send JSON with content-type application/json.' },
  RANGE_NOT_SATISFIABLE: {
    status: 416,
    title: 'Range not satisfiable',
    message: 'The range asked for starts past the end of the file.',
  },
  LIMIT_EXCEEDED: { status: 422, title: 'Limit exceeded', message: 'A limit of this application was reached.' },
  RATE_LIMITED: { status: 429, title: 'Too many requests', message: 'Too many requests. Wait a moment and try again.' },
  SERVICE_UNAVAILABLE: {
    status: 503,
    title: 'Service unavailable',
    message: 'The database cannot be reached right now. Try again in a moment.',
  },
  INTERNAL: { status: 500, title: 'Internal error', message: 'Something went wrong on our side.' },
} as const satisfies Record<string, ErrorSpec>;

export type BuiltInErrorCode = keyof typeof BUILT_IN_ERRORS;
