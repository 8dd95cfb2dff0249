'use server';

import { redirect, RedirectType } from 'next/navigation';
import { AUTOMATIC_ZONE } from '@/engine/preferences/preferences';
import { isTimeZone } from '@/engine/time/zone';
import { getEngine } from '../engine';
import { currentActor } from '../session';

/**
 * Stores the zone the signed-in user reads and types times in ('auto': the browser's), then shows
 * the account page again (a redirect, so that without JavaScript a reload does not post again).
 * A value that is neither is ignored: the select only offers valid ones.
 */
export async function chooseTimeZoneAction(formData: FormData): Promise<void> {
  const actor = await currentActor();
  if (!actor) redirect('/sign-in');
  const chosen = formData.get('timeZone');
  if (chosen === AUTOMATIC_ZONE || isTimeZone(chosen)) {
    await (await getEngine()).identity.setPreferences(actor.userId, { timeZone: chosen });
  }
  redirect('/account', RedirectType.replace);
}
