import { createHash, randomUUID } from 'node:crypto';
import { BUILT_IN_ERRORS } from '@/engine/errors/catalogue';
import { asNinefoldError, type NinefoldError } from '@/engine/errors/ninefold-error';
import type { ErrorSpec } from '@/engine/spec/types';
import { json, PROBLEM_TYPE } from './json';
import { logLine } from './log';
import type { WireProblem } from './wire';

export { json };

/** A stable URI per catalogue code, so clients can branch on `type` as RFC 9457 intends. */
export function problemType(code: string): string {
  return `https://ninefold.dev/problems/${code.toLowerCase().replace(/_/g, '-')}`;
}

export interface ProblemOptions {
  readonly headers?: HeadersInit;
  /** The spec's own codes (model.errors): a handler may throw them by code alone. */
  readonly catalogue?: Readonly<Record<string, ErrorSpec>>;
  /** Added to the log line of an internal error (method, path; never secrets). */
  readonly log?: Readonly<Record<string, unknown>>;
}

function lookup(code: string, catalogue: Readonly<Record<string, ErrorSpec>>): ErrorSpec | undefined {
  return Object.hasOwn(BUILT_IN_ERRORS, code)
    ? BUILT_IN_ERRORS[code as keyof typeof BUILT_IN_ERRORS]
    : Object.hasOwn(catalogue, code)
      ? catalogue[code]
      : undefined;
}

/** The HTTP status of a catalogue code (built in or the spec's own); undefined outside the catalogue. */
export function catalogueStatus(code: string, catalogue: Readonly<Record<string, ErrorSpec>> = {}): number | undefined {
  return lookup(code, catalogue)?.status;
}

/** Members of every problem: an error's `details` never overwrite them. */
const PROBLEM_MEMBERS = new Set(['type', 'title', 'status', 'detail', 'code', 'errors', 'digest', 'instance']);

/** The error's machine-readable details as RFC 9457 extension members (LIMIT_EXCEEDED: limit, max, constant). */
function extensionMembers(error: NinefoldError): Record<string, string | number> {
  return Object.fromEntries(Object.entries(error.details ?? {}).filter(([name]) => !PROBLEM_MEMBERS.has(name)));
}

/**
 * The body of a catalogue error. Status and title always come from the catalogue, so a code
 * means one status everywhere; the detail is the thrower's, or the catalogue's message when it
 * gave none (`new NinefoldError('TICKET_CLOSED')`).
 */
function knownProblem(error: NinefoldError, spec: ErrorSpec): WireProblem {
  const detail = error.message && error.message !== error.code ? error.message : spec.message;
  return {
    type: problemType(error.code),
    title: spec.title,
    status: spec.status,
    detail,
    code: error.code,
    ...extensionMembers(error),
    ...(error.fieldErrors.length > 0
      ? { errors: error.fieldErrors.map((e) => ({ pointer: `/${e.field}`, code: e.code, detail: e.message })) }
      : {}),
  };
}

function problem(body: WireProblem, headers: HeadersInit = {}): Response {
  const all = new Headers(headers);
  all.set('content-type', PROBLEM_TYPE);
  return new Response(JSON.stringify(body), { status: body.status, headers: all });
}

/**
 * Any error as application/problem+json. Catalogue errors keep their code and detail; anything
 * else (a code outside the catalogue included) becomes INTERNAL with a digest that the server's
 * log line carries too — never the message, stack or SQL.
 */
export function problemResponse(error: unknown, options: ProblemOptions = {}): Response {
  const known = asNinefoldError(error);
  const spec = known ? lookup(known.code, options.catalogue ?? {}) : undefined;
  if (known && spec && known.code !== 'INTERNAL') return problem(knownProblem(known, spec), options.headers);

  const digest = createHash('sha256').update(randomUUID()).digest('hex').slice(0, 10);
  logLine('error', 'request failed', {
    digest,
    ...options.log,
    ...(known ? { code: known.code } : {}),
    error: error instanceof Error ? error.message : String(error),
    ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
  });
  const internal = BUILT_IN_ERRORS.INTERNAL;
  return problem(
    { type: problemType('INTERNAL'), title: internal.title, status: internal.status, detail: internal.message, code: 'INTERNAL', digest },
    options.headers,
  );
}
