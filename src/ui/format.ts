/**
 * Plain-text formatting of record values. Dates and times are shown in UTC, the same zone the
 * forms use, so a value reads the same on every screen whatever the server's or viewer's zone.
 */
import { ownValue } from '@/engine/spec/own-names';

const DATE_TIME = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

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

export function formatDateTime(value: unknown): FormattedTime | null {
  const date = toDate(value);
  if (!date) return null;
  return { iso: date.toISOString(), text: `${DATE_TIME.format(date)} UTC` };
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
