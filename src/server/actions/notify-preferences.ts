'use server';

import { redirect, RedirectType } from 'next/navigation';
import { EMAIL_CHOICES, type EmailChoice } from '@/engine/notify/preferences';
import type { WatchMode } from '@/engine/notify/watch';
import { getEngine } from '../engine';
import { currentActor } from '../session';

/*
 * The user's own notification choices: per kind on /account, and watch or mute on a record's
 * page. Forms that work without JavaScript (a redirect back); the engine checks every choice
 * (a kind the spec has, a record the user may read, a role that may watch).
 */

const isEmailChoice = (value: unknown): value is EmailChoice => EMAIL_CHOICES.includes(value as EmailChoice);

/** Saves every kind's choice from /account's form: `inApp:<kind>` (a checkbox) and `email:<kind>`. */
export async function saveNotifyPreferencesAction(formData: FormData): Promise<void> {
  const actor = await currentActor();
  if (!actor) redirect('/sign-in?next=/account');
  const engine = await getEngine();
  for (const { kind } of await engine.notifications.preferences(actor)) {
    const email = formData.get(`email:${kind}`);
    // A kind the form did not show (the spec changed meanwhile) keeps its choice.
    if (!isEmailChoice(email)) continue;
    await engine.notifications.setPreference(actor, kind, { inApp: formData.get(`inApp:${kind}`) === 'on', email });
  }
  redirect('/account?saved=notifications#notifications-heading', RedirectType.replace);
}

/** Watch, mute, or neither (`none`) the record; back to its page. */
export async function setWatchAction(entityName: string, id: number, mode: WatchMode | 'none'): Promise<void> {
  const engine = await getEngine();
  const entity = engine.model.entitiesByName[entityName];
  const back = entity ? `/${entity.plural}/${id}` : '/';
  const actor = await currentActor();
  if (!actor) redirect(`/sign-in?next=${encodeURIComponent(back)}`);
  if (!entity || !['watch', 'mute', 'none'].includes(mode)) redirect('/');
  // A record the user may not read is NOT_FOUND, may not watch FORBIDDEN: its page says as much when shown again.
  await engine.notifications.setWatching(actor, entity.name, id, mode === 'none' ? null : mode).catch(() => undefined);
  redirect(back, RedirectType.replace);
}
