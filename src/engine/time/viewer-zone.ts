import { isTimeZone } from './zone';

/**
 * The zone a viewer reads and types times in: the one they chose on their account, else the one
 * their browser reported (a cookie anyone can write, so only a zone Intl knows counts), else the
 * spec's. `chosen` is 'auto' (or null for a visitor) when the user left it to the browser.
 */
export function viewerZoneOf(chosen: string | null, browserZone: string | undefined, specZone: string): string {
  if (chosen !== null && chosen !== 'auto' && isTimeZone(chosen)) return chosen;
  if (isTimeZone(browserZone)) return browserZone;
  return specZone;
}
