'use server';

import { headers } from 'next/headers';
import { redirect, RedirectType } from 'next/navigation';
import { THEMES, type Theme } from '@/engine/preferences/preferences';
import { safeNextPath } from '../auth-input';
import { getEngine } from '../engine';
import { currentActor } from '../session';
import { mirrorTheme } from '../theme';

/** The page the form was sent from, when it is one of this site's (else the home page). */
async function pageSentFrom(): Promise<string> {
  const h = await headers();
  const referer = h.get('referer');
  if (!referer) return '/';
  try {
    const url = new URL(referer);
    return url.host === h.get('host') ? safeNextPath(`${url.pathname}${url.search}`) : '/';
  } catch {
    return '/';
  }
}

/**
 * Stores the signed-in user's theme on their account and mirrors it in the theme cookie, then
 * shows the same page again: re-rendered in place with JavaScript, and without it a redirect so
 * that a reload does not post the form again.
 */
export async function chooseThemeAction(formData: FormData): Promise<void> {
  const actor = await currentActor();
  if (!actor) redirect('/sign-in');
  const chosen = formData.get('theme');
  if (typeof chosen === 'string' && (THEMES as readonly string[]).includes(chosen)) {
    const { theme } = await (await getEngine()).identity.setPreferences(actor.userId, { theme: chosen as Theme });
    await mirrorTheme(actor.userId, theme);
  }
  redirect(await pageSentFrom(), RedirectType.replace);
}
