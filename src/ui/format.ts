/**
 * Plain-text formatting of record values. Times are shown in the viewer's zone (the one the forms
 * read them in, src/server/viewer-zone.ts) with the zone named, so a value never reads ambiguous;
 * calendar dates have no zone.
 */
import { ownValue } from '@/engine/spec/own-names';
import { zoneShortName } from '@/engine/time/zone';

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone, made on first use (a server sees a handful of zones). */
function dateTimeFormat(zone: string): Intl.DateTimeFormat {
  let format = dateTimeFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone: zone,
    });
    dateTimeFormats.set(zone, format);
  }
  return format;
}

const DATE = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A Date, or a string Date can parse, as a valid Date; otherwise null. */
export function toDate(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === 'string' || typeof value === 'number') {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  return null;
}

export interface FormattedTime {
  /** Machine-readable value for `<time dateTime>`. */
  readonly iso: string;
  readonly text: string;
}

/** "Nov 28, 2026, 14:30 CET" in `zone` (an IANA zone the caller has checked); `iso` stays in UTC. */
export function formatDateTime(value: unknown, zone: string): FormattedTime | null {
  const date = toDate(value);
  if (!date) return null;
  return { iso: date.toISOString(), text: `${dateTimeFormat(zone).format(date)} ${zoneShortName(date, zone)}` };
}

/** Calendar dates have no zone: "2025-03-01" stays March 1 everywhere. */
export function formatDate(value: unknown): FormattedTime | null {
  const iso = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : toDate(value)?.toISOString().slice(0, 10);
  if (!iso) return null;
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return null;
  return { iso, text: DATE.format(date) };
}

export function formatBoolean(value: unknown): string {
  return value === true || value === 'true' ? 'Yes' : 'No';
}

export function enumLabel(labels: Readonly<Record<string, string>> | undefined, value: string): string {
  return ownValue(labels, value) ?? value;
}
