import 'server-only';
import { cookies } from 'next/headers';
import { cache } from 'react';
import { viewerZoneOf } from '@/engine/time/viewer-zone';
import { getEngine } from './engine';
import { currentActor } from './session';

/**
 * The browser's own zone, written by src/ui/time/browser-zone.tsx. Not tied to an account: it says
 * where the device is, and it is only a hint (checked to be a zone Intl knows before any use).
 */
export const BROWSER_ZONE_COOKIE = 'nf_zone';

/**
 * The zone this request's viewer reads and types times in, resolved once per request and passed
 * down to the pages and forms (src/engine/time/viewer-zone.ts says which wins).
 */
export const viewerZone = cache(async (): Promise<string> => {
  const engine = await getEngine();
  const actor = await currentActor();
  const chosen = actor ? (await engine.identity.preferencesOf(actor.userId)).timeZone : null;
  return viewerZoneOf(chosen, (await cookies()).get(BROWSER_ZONE_COOKIE)?.value, engine.model.timeZone);
});
