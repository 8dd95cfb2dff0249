import 'server-only';
import { cookies, headers } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { cache } from 'react';
import { clientIp } from '@/api/client-ip';
import { isHttpsRequest } from '@/api/request-scheme.mjs';
import type { Actor } from '@/engine/ground/actor';
import { getEngine } from './engine';
import { safeReturnPath } from './request-return-path';
import { mirrorStoredTheme, THEME_COOKIE } from './theme';
import { isAdmin } from '@/engine/access/policy';

export const SESSION_COOKIE = 'nf_session';

/** The signed-in actor of this request, or null. Resolved once per request. */
export const currentActor = cache(async (): Promise<Actor | null> => {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!token) return null;
  const engine = await getEngine();
  return engine.identity.actorForSession(token);
});

/** The signed-in actor; anonymous visitors are sent to /sign-in and come back after. */
export async function requireActor(returnTo?: string): Promise<Actor> {
  const actor = await currentActor();
  if (actor) return actor;
  const engine = await getEngine();
  if (!(await engine.identity.hasUsers())) redirect('/setup');
  const back = safeReturnPath(returnTo);
  redirect(back !== '/' ? `/sign-in?next=${encodeURIComponent(back)}` : '/sign-in');
}

/** The signed-in administrator: others get the 403 page, anonymous visitors the sign-in page. */
export async function requireAdmin(returnTo: string): Promise<Actor> {
  const actor = await requireActor(returnTo);
  if (!isAdmin(actor)) forbidden();
  return actor;
}

/** The client's address as the proxy in front reports it (for the sign-in throttle and the log). */
export async function requestClientIp(): Promise<string> {
  return clientIp(await headers());
}

/**
 * Signs in through the engine (throttled per account and per address, logged) and puts the new
 * session in the cookie. Refusals are NinefoldErrors: UNAUTHENTICATED or RATE_LIMITED.
 */
export async function signInWithPassword(email: string, password: string): Promise<void> {
  const engine = await getEngine();
  const { session, user } = await engine.identity.signIn(email, password, { ip: await requestClientIp() });
  // A session this browser had before (another account, or one that ended) is not carried over.
  const previous = (await cookies()).get(SESSION_COOKIE)?.value;
  if (previous) await engine.identity.endSession(previous);
  await setSessionCookie(session.token, session.expiresAt);
  await mirrorStoredTheme(user.id);
}

export async function setSessionCookie(token: string, expiresAt: Date): Promise<void> {
  (await cookies()).set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: await isHttps(),
    path: '/',
    expires: expiresAt,
  });
}

/** Ends the session on the server (not just the cookie) and clears the cookie. */
export async function signOut(): Promise<void> {
  const jar = await cookies();
  const token = jar.get(SESSION_COOKIE)?.value;
  if (token) await (await getEngine()).identity.endSession(token);
  jar.delete(SESSION_COOKIE);
  // Signed-out pages follow the device; the choice stays on the account for the next sign-in.
  jar.delete(THEME_COOKIE);
}

/**
 * Whether the browser reached us over HTTPS, as the server found it (src/api/request-scheme.mjs):
 * X-Forwarded-Proto counts only from the proxies TRUST_PROXY declares. Every cookie follows it.
 */
async function isHttps(): Promise<boolean> {
  return isHttpsRequest(await headers());
}
