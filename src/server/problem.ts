import 'server-only';
import { createHash, randomUUID } from 'node:crypto';
import { BUILT_IN_ERRORS } from '@/engine/errors/catalogue';
import { isNinefoldError } from '@/engine/errors/ninefold-error';
import { logLine } from './log';

const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

export function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), { ...init, headers: { 'content-type': JSON_TYPE, ...init.headers } });
}

/** A stable URI per catalogue code, so clients can branch on `type` as RFC 9457 intends. */
export function problemType(code: string): string {
  return `https://ninefold.dev/problems/${code.toLowerCase().replace(/_/g, '-')}`;
}

/**
 * Any error as application/problem+json. Catalogue errors keep their code and detail; anything
 * else becomes INTERNAL with a digest that the server log line carries too — never the message.
 */
export function problemResponse(error: unknown, headers: HeadersInit = {}): Response {
  if (isNinefoldError(error)) {
    return new Response(
      JSON.stringify({
        type: problemType(error.code),
        title: error.title,
        status: error.status,
        detail: error.message,
        code: error.code,
        ...(error.fieldErrors.length > 0
          ? { errors: error.fieldErrors.map((e) => ({ pointer: `/${e.field}`, code: e.code, detail: e.message })) }
          : {}),
      }),
      { status: error.status, headers: { 'content-type': PROBLEM_TYPE, ...headers } },
    );
  }
  const digest = createHash('sha256').update(randomUUID()).digest('hex').slice(0, 10);
  logLine('error', 'request failed', { digest, error: error instanceof Error ? error.message : String(error) });
  const internal = BUILT_IN_ERRORS.INTERNAL;
  return new Response(
    JSON.stringify({ type: problemType('INTERNAL'), title: internal.title, status: 500, detail: internal.message, code: 'INTERNAL', digest }),
    { status: 500, headers: { 'content-type': PROBLEM_TYPE, ...headers } },
  );
}
