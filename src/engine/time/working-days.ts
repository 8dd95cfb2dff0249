import { instantOfWallTime, wallTimeIn } from './zone';

/*
 * Working days: durations that count only the days a business works (`workingDays: 3`), on the
 * spec's calendar (its weekend and holidays, in the product's time zone). The rules, said once
 * here and in /spec (describe/calendar.ts), and kept by the SQL functions of
 * store/schema/working-days.ts so that a database and memory agree:
 *
 * - A date plus n working days is the n-th working day after it (minus: before it), whatever
 *   the date itself is: Friday plus 1 is Monday, and so are Saturday and Sunday plus 1.
 * - A time on a working day moves to the same wall-clock time n working days later (or earlier).
 * - A time on a day off counts from the start of the next working day when moving forward
 *   (Saturday 10:00 plus 1 is Tuesday 00:00, the end of Monday), and from the end of the previous
 *   one when moving back (Sunday 10:00 minus 1 is Friday 00:00, the end of Thursday).
 *   So a later start never gives an earlier result, which the scheduler relies on.
 * - Zero working days is no move at all.
 * A wall-clock time that happens twice is the later one (as PostgreSQL reads it); one that never
 * happens is moved on by the gap.
 */

/** The days of the week by their ISO number less one: monday is 1, sunday 7. */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The calendar working days are counted on: plain data, so that a browser can count too. */
export interface WorkingCalendar {
  /** ISO weekday numbers (1 Monday … 7 Sunday) that are not worked, ascending. */
  readonly weekend: readonly number[];
  /** Dates not worked ('YYYY-MM-DD'), ascending. */
  readonly holidays: readonly string[];
  /** Days not worked every year, as month × 100 + day (1225 for 25 December), ascending. */
  readonly yearly: readonly number[];
  /** The IANA zone whose wall clock says which day a time falls on. */
  readonly zone: string;
}

export const DEFAULT_WEEKEND: readonly Weekday[] = ['saturday', 'sunday'];

/** Monday to Friday in UTC, no holidays: for what is built without a spec (a call's fields in a test). */
export const DEFAULT_CALENDAR: WorkingCalendar = { weekend: [6, 7], holidays: [], yearly: [], zone: 'UTC' };

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A 'YYYY-MM-DD' as days since 1970-01-01 (UTC arithmetic: a date has no zone). */
function dayNumber(date: string): number {
  const match = DATE.exec(date);
  if (!match) throw new Error(`not a date: ${JSON.stringify(date)}`);
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS;
}

function dateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

function isWorkingDay(day: number, calendar: WorkingCalendar): boolean {
  const date = new Date(day * DAY_MS);
  const isoWeekday = ((date.getUTCDay() + 6) % 7) + 1;
  if (calendar.weekend.includes(isoWeekday)) return false;
  if (calendar.yearly.includes((date.getUTCMonth() + 1) * 100 + date.getUTCDate())) return false;
  return !calendar.holidays.includes(dateOfDay(day));
}

/** Whether a 'YYYY-MM-DD' is worked on the calendar. */
export function isWorkingDate(date: string, calendar: WorkingCalendar): boolean {
  return isWorkingDay(dayNumber(date), calendar);
}

function stepWorkingDays(day: number, n: number, calendar: WorkingCalendar): number {
  // A week without a working day would never end the count; the spec checks refuse one.
  if (calendar.weekend.length >= 7) throw new Error('a calendar without working days counts no working day');
  const step = Math.sign(n);
  let left = Math.abs(n);
  let at = day;
  while (left > 0) {
    at += step;
    if (isWorkingDay(at, calendar)) left -= 1;
  }
  return at;
}

/** The n-th working day after a date (n < 0: before it), as 'YYYY-MM-DD'. */
export function addWorkingDaysToDate(date: string, n: number, calendar: WorkingCalendar): string {
  return dateOfDay(stepWorkingDays(dayNumber(date), Math.trunc(n), calendar));
}

/** An instant moved by n working days (n < 0: back) on the calendar, by the rules above. */
export function addWorkingDays(instant: Date, n: number, calendar: WorkingCalendar): Date {
  const count = Math.trunc(n);
  if (count === 0 || Number.isNaN(instant.getTime())) return instant;
  const wall = wallTimeIn(instant, calendar.zone);
  const day = Date.UTC(wall.year, wall.month - 1, wall.day) / DAY_MS;
  let target: number;
  let time = { hour: wall.hour, minute: wall.minute, second: wall.second, ms: instant.getUTCMilliseconds() };
  if (isWorkingDay(day, calendar)) target = stepWorkingDays(day, count, calendar);
  else if (count > 0) {
    // From the start of the next working day.
    target = stepWorkingDays(stepWorkingDays(day, 1, calendar), count, calendar);
    time = { hour: 0, minute: 0, second: 0, ms: 0 };
  } else {
    // From the end of the previous working day: midnight of the day after it.
    target = stepWorkingDays(stepWorkingDays(day, -1, calendar), count, calendar) + 1;
    time = { hour: 0, minute: 0, second: 0, ms: 0 };
  }
  const date = new Date(target * DAY_MS);
  const moved = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), ...time };
  return instantOfWallTime(moved, calendar.zone, time.ms, 'later');
}

/**
 * A stored value moved by n working days: a date ('YYYY-MM-DD') by whole dates, read as its
 * midnight UTC as dates compare with times; a time (a Date or an ISO string) by the rules above.
 * Null when the value is empty or no time.
 */
export function workingDaysFrom(value: unknown, n: number, calendar: WorkingCalendar): Date | null {
  if (typeof value === 'string' && DATE.test(value)) return new Date(`${addWorkingDaysToDate(value, n, calendar)}T00:00:00Z`);
  const time = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : null;
  return time && !Number.isNaN(time.getTime()) ? addWorkingDays(time, n, calendar) : null;
}
