import 'server-only';
import { cookies, headers } from 'next/headers';
import { isHttpsRequest } from '@/api/request-scheme.mjs';
import type { Actor } from '@/engine/ground/actor';
import { THEMES, type Theme } from '@/engine/preferences/preferences';
import { getEngine } from './engine';

/**
 * Mirrors the signed-in user's stored theme, so that the server writes the right theme into the
 * first byte of every page without a database read (and no script has to fix it after paint).
 * Its value names the user ("<user id>:<theme>"): on a shared browser, another account's choice
 * is never applied.
 */
export const THEME_COOKIE = 'nf_theme';
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

function mirroredTheme(value: string | undefined, userId: number): Theme | null {
  const [owner, theme = ''] = (value ?? '').split(':');
  return owner === String(userId) && (THEMES as readonly string[]).includes(theme) ? (theme as Theme) : null;
}

/**
 * The theme to render for: the user's choice (from the cookie, else from their account), and
 * 'system' (follow the device) for visitors who are not signed in.
 */
export async function themeFor(actor: Actor | null): Promise<Theme> {
  if (!actor) return 'system';
  const mirrored = mirroredTheme((await cookies()).get(THEME_COOKIE)?.value, actor.userId);
  if (mirrored) return mirrored;
  // Signed in some other way (setup, an invitation) or the cookie was cleared: the account knows.
  return (await (await getEngine()).identity.preferencesOf(actor.userId)).theme;
}

/** Writes the user's theme into the mirror; callable from server actions only (they may set cookies). */
export async function mirrorTheme(userId: number, theme: Theme): Promise<void> {
  const secure = isHttpsRequest(await headers());
  (await cookies()).set(THEME_COOKIE, `${userId}:${theme}`, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: ONE_YEAR_SECONDS,
  });
}

/** At sign-in: the choice made on another device (or before signing out) comes back with the account. */
export async function mirrorStoredTheme(userId: number): Promise<void> {
  await mirrorTheme(userId, (await (await getEngine()).identity.preferencesOf(userId)).theme);
}
