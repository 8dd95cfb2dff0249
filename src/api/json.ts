/** JSON responses of the API: always UTF-8, never cached by shared caches. */
export const JSON_TYPE = 'application/json; charset=utf-8';
export const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('content-type', JSON_TYPE);
  return new Response(JSON.stringify(body), { ...init, headers });
}
