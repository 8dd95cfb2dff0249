'use server';

import { redirect, RedirectType } from 'next/navigation';
import { getEngine } from '../engine';
import { currentActor } from '../session';

/*
 * Mark read and mark all read on /inbox: forms that work without JavaScript (a redirect back to
 * the inbox); the engine marks only the signed-in user's own notifications.
 */

export async function markInboxReadAction(formData: FormData): Promise<void> {
  const actor = await currentActor();
  if (!actor) redirect('/sign-in?next=/inbox');
  const id = Number(formData.get('id'));
  // Someone else's id, or none: NOT_FOUND from the engine; the inbox is shown again either way.
  if (Number.isSafeInteger(id) && id > 0) await (await getEngine()).notifications.markRead(actor, id).catch(() => undefined);
  redirect('/inbox', RedirectType.replace);
}

export async function markAllInboxReadAction(): Promise<void> {
  const actor = await currentActor();
  if (!actor) redirect('/sign-in?next=/inbox');
  await (await getEngine()).notifications.markAllRead(actor);
  redirect('/inbox', RedirectType.replace);
}
