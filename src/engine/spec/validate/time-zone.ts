import { isTimeZone } from '../../time/zone';
import { describeValue, type Issues } from './context';

/** purpose.timeZone: an IANA zone Intl knows, so that no page fails later on a misspelt one. */
export function checkTimeZone(purpose: Readonly<Record<string, unknown>>, issues: Issues): void {
  const zone = purpose.timeZone;
  if (zone === undefined || isTimeZone(zone)) return;
  issues.add(
    'purpose.timeZone',
    `must be an IANA time zone such as "Europe/Paris", "America/New_York" or "UTC", got ${describeValue(zone)}`,
  );
}
