import 'server-only';
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import type { Actor } from '@/engine/ops/types';
import { getEngine } from './engine';

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
  redirect(returnTo && returnTo.startsWith('/') ? `/sign-in?next=${encodeURIComponent(returnTo)}` : '/sign-in');
}

/** Checks the credentials and, when they match, starts a session cookie. Returns whether it did. */
export async function signInWithPassword(email: string, password: string): Promise<boolean> {
  const engine = await getEngine();
  const user = await engine.identity.verifyCredentials(email, password);
  if (!user) return false;
  const session = await engine.identity.createSession(user.id);
  await setSessionCookie(session.token, session.expiresAt);
  return true;
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
}

async function isHttps(): Promise<boolean> {
  const h = await headers();
  return h.get('x-forwarded-proto') === 'https';
}
