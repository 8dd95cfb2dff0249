/** Signing in and calling the REST API of a running test server with a session cookie, as a browser would. */

import { DEMO_REQUESTER } from './servers';

export interface ApiSession {
  readonly cookie: string;
  readonly user: { readonly id: number; readonly email: string; readonly name: string; readonly roles: readonly string[] };
}

export async function signInOverApi(baseUrl: string, email: string, password: string): Promise<ApiSession> {
  const response = await fetch(`${baseUrl}/api/v1/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in as ${email}: ${response.status} ${await response.text()}`);
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
  const { user } = (await response.json()) as { user: ApiSession['user'] };
  return { cookie, user };
}

/** A JSON call with the session cookie; changes carry the application's Origin (CSRF check). */
export async function callApi<T = Record<string, unknown>>(
  baseUrl: string,
  session: ApiSession,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: {
      cookie: session.cookie,
      origin: baseUrl,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

/** A page as the server sends it: the HTML document, or with `rsc` the React Server Components payload of a client-side navigation. */
export async function fetchPage(
  baseUrl: string,
  session: ApiSession,
  path: string,
  rsc = false,
): Promise<{ status: number; contentType: string; text: string }> {
  const headers = { cookie: session.cookie, ...(rsc ? { RSC: '1' } : {}) };
  let response = await fetch(`${baseUrl}${path}`, { headers, redirect: 'manual' });
  // An RSC request without Next's cache-busting `_rsc` parameter is sent to the address with it.
  const location = response.headers.get('location');
  if (rsc && response.status === 307 && location && new URL(location, baseUrl).searchParams.has('_rsc')) {
    response = await fetch(new URL(location, baseUrl), { headers, redirect: 'manual' });
  }
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
}

const requesters = new Map<string, Promise<number>>();

/** The user id of DEMO_REQUESTER on the server at `baseUrl`: the customer a ticket filed by staff names. */
export function requesterId(baseUrl: string): Promise<number> {
  let id = requesters.get(baseUrl);
  if (!id) {
    id = signInOverApi(baseUrl, DEMO_REQUESTER.email, DEMO_REQUESTER.password).then((session) => session.user.id);
    requesters.set(baseUrl, id);
  }
  return id;
}
