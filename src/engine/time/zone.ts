/*
 * Time zones, with nothing but Intl: is a name a zone, what wall-clock time does an instant read
 * in a zone, and which instant does a wall-clock time in a zone stand for (DST gaps and overlaps
 * decided the way browsers and java.time decide them). Values are stored in UTC; zones only
 * change how people read and type them.
 */

export const UTC = 'UTC';

/** Zones already found known: a finite set (Intl's zones and their aliases), so it needs no bound. */
const knownZones = new Set<string>();

/** True for a zone Intl knows ("Europe/Paris", "UTC"); a typo or an arbitrary cookie value is not one. */
export function isTimeZone(name: unknown): name is string {
  if (typeof name !== 'string' || name === '' || name.length > 64) return false;
  if (knownZones.has(name)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
  } catch {
    // Not remembered: whoever writes a cookie could otherwise fill memory with made-up names.
    return false;
  }
  knownZones.add(name);
  return true;
}

/** The zones a user may choose from, as Intl lists them (UTC first, it is not always listed). */
export function timeZoneChoices(): readonly string[] {
  const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [UTC, ...listed.filter((zone) => zone !== UTC)];
}

const partsFormats = new Map<string, Intl.DateTimeFormat>();

function partsFormat(zone: string): Intl.DateTimeFormat {
  let format = partsFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormats.set(zone, format);
  }
  return format;
}

/** A wall-clock reading, each part a number (month 1 to 12). */
export interface WallTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

/** What a clock in `zone` reads at `instant` (to the second). */
export function wallTimeIn(instant: Date, zone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const part of partsFormat(zone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** The wall time's own milliseconds as if it were UTC: the arithmetic below compares readings this way. */
function asUtcMillis(wall: WallTime, milliseconds = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  date.setUTCHours(wall.hour, wall.minute, wall.second, milliseconds);
  return date.getTime();
}

/** How far ahead of UTC `zone` is at `instant`, in milliseconds (Paris in winter: 3,600,000). */
export function zoneOffsetMillis(instant: Date, zone: string): number {
  const wholeSecond = Math.floor(instant.getTime() / 1000) * 1000;
  return asUtcMillis(wallTimeIn(new Date(wholeSecond), zone)) - wholeSecond;
}

/**
 * The instant a wall-clock time in `zone` stands for. A time that happens twice (clocks going
 * back) is the earlier one, as browsers take it (`repeated: 'later'`: the later one, as
 * PostgreSQL's `timestamp at time zone` takes it); a time that never happens (clocks going
 * forward) is moved on by the gap ("02:30" on the spring-forward night in Paris is 03:30 summer
 * time), as both do.
 */
export function instantOfWallTime(wall: WallTime, zone: string, milliseconds = 0, repeated: 'earlier' | 'later' = 'earlier'): Date {
  const local = asUtcMillis(wall, milliseconds);
  // The offset a day either side brackets any transition (none is closer than that to another).
  const before = zoneOffsetMillis(new Date(local - 86_400_000), zone);
  const after = zoneOffsetMillis(new Date(local + 86_400_000), zone);
  const candidates = [local - before, local - after].filter((utc, i, all) => all.indexOf(utc) === i);
  const exact = candidates.filter((utc) => utc + zoneOffsetMillis(new Date(utc), zone) === local);
  if (exact.length > 0) return new Date(repeated === 'earlier' ? Math.min(...exact) : Math.max(...exact));
  // In the gap: read with the offset from before it, which lands after the gap.
  return new Date(local - before);
}

/** The instant as "YYYY-MM-DDTHH:mm" (":ss" when it has seconds) in `zone`: what datetime-local inputs show. */
export function toLocalInput(instant: Date, zone: string): string {
  const wall = wallTimeIn(instant, zone);
  const two = (n: number) => String(n).padStart(2, '0');
  const text = `${String(wall.year).padStart(4, '0')}-${two(wall.month)}-${two(wall.day)}T${two(wall.hour)}:${two(wall.minute)}`;
  return wall.second === 0 && instant.getUTCMilliseconds() === 0 ? text : `${text}:${two(wall.second)}`;
}

const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

/** "2026-03-29T02:30" typed in `zone` → the instant; null when it is not such a time (or a part is out of range). */
export function fromLocalInput(value: string, zone: string): Date | null {
  const match = LOCAL_INPUT.exec(value);
  if (!match) return null;
  const part = (index: number) => Number(match[index] ?? 0);
  const wall: WallTime = { year: part(1), month: part(2), day: part(3), hour: part(4), minute: part(5), second: part(6) };
  const { month, day, hour, minute, second } = wall;
  const milliseconds = Number((match[7] ?? '').padEnd(3, '0'));
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  // Date would roll 2030-02-30 over to March 2: the day must read back unchanged.
  if (new Date(asUtcMillis(wall)).getUTCDate() !== day) return null;
  return instantOfWallTime(wall, zone, milliseconds);
}

const shortNames = new Map<string, Intl.DateTimeFormat>();

function shortNameIn(locale: 'en-US' | 'en-GB', instant: Date, zone: string): string {
  const key = `${locale} ${zone}`;
  let format = shortNames.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' });
    shortNames.set(key, format);
  }
  return format.formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value ?? zone;
}

/**
 * The zone's short name at `instant`: "EST", "CET", "CEST", "BST", "UTC", or "GMT+9" where there
 * is no common abbreviation. American English knows only American abbreviations and British
 * English only European ones, so the second is asked when the first has only an offset.
 */
export function zoneShortName(instant: Date, zone: string): string {
  const american = shortNameIn('en-US', instant, zone);
  if (!/^GMT[+-]/.test(american)) return american;
  const british = shortNameIn('en-GB', instant, zone);
  return /^GMT[+-]/.test(british) ? american : british;
}
