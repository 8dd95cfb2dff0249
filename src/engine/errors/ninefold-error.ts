import { BUILT_IN_ERRORS, type BuiltInErrorCode } from './catalogue';

/** A problem with one field of an input; `pointer` is the field name. */
export interface FieldError {
  readonly field: string;
  readonly code: string;
  readonly message: string;
}

/**
 * An error the user may see: a catalogue code, its HTTP status, and a detail written for
 * the user. Anything else thrown inside the engine is an internal error and is never shown.
 */
export class NinefoldError extends Error {
  readonly code: string;
  readonly status: number;
  readonly title: string;
  readonly fieldErrors: readonly FieldError[];
  /** For RATE_LIMITED: seconds until trying again may succeed (the doors send it as Retry-After). */
  readonly retryAfterSeconds?: number;
  /** Machine-readable extras the doors pass on (e.g. which limit and constant LIMIT_EXCEEDED hit). */
  readonly details?: Readonly<Record<string, string | number>>;

  constructor(
    code: BuiltInErrorCode | (string & {}),
    detail?: string,
    options: {
      status?: number;
      title?: string;
      fieldErrors?: readonly FieldError[];
      retryAfterSeconds?: number;
      details?: Readonly<Record<string, string | number>>;
    } = {},
  ) {
    const known = (BUILT_IN_ERRORS as Record<string, { status: number; title: string; message: string }>)[code];
    super(detail ?? known?.message ?? code);
    this.name = 'NinefoldError';
    this.code = code;
    this.status = options.status ?? known?.status ?? 500;
    this.title = options.title ?? known?.title ?? code;
    this.fieldErrors = options.fieldErrors ?? [];
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
    if (options.details !== undefined) this.details = options.details;
  }
}

export function validationFailed(fieldErrors: readonly FieldError[]): NinefoldError {
  return new NinefoldError('VALIDATION_FAILED', undefined, { fieldErrors });
}

export function notFound(what = 'record'): NinefoldError {
  return new NinefoldError('NOT_FOUND', `This ${what} does not exist, or you cannot see it.`);
}

export function isNinefoldError(error: unknown): error is NinefoldError {
  return error instanceof NinefoldError;
}

/**
 * The error as a NinefoldError when it is one. Checked by class and, since a spec file loaded at
 * run time (jiti) or a bundler may give this module a second instance, by shape.
 */
export function asNinefoldError(error: unknown): NinefoldError | null {
  if (error instanceof NinefoldError) return error;
  if (
    error instanceof Error &&
    error.name === 'NinefoldError' &&
    'code' in error &&
    typeof error.code === 'string' &&
    'fieldErrors' in error &&
    Array.isArray(error.fieldErrors)
  ) {
    return error as NinefoldError;
  }
  return null;
}
