/** The API's problem details, for the route handlers outside /api/v1 (health, live). */
import { problemResponse as apiProblemResponse, type ProblemOptions } from '@/api/problem';
import { asNinefoldError } from '@/engine/errors/ninefold-error';

export { json, problemType } from '@/api/problem';

/** Retry-After for an error that says when to try again (SERVICE_UNAVAILABLE, RATE_LIMITED); else none. */
export function retryAfterHeaders(error: unknown): Record<string, string> {
  const seconds = asNinefoldError(error)?.retryAfterSeconds;
  return seconds === undefined ? {} : { 'retry-after': String(seconds) };
}

/** Any error as problem+json, with Retry-After when the error carries one. */
export function problemResponse(error: unknown, options: ProblemOptions = {}): Response {
  return apiProblemResponse(error, {
    ...options,
    headers: { ...retryAfterHeaders(error), ...Object.fromEntries(new Headers(options.headers)) },
  });
}
