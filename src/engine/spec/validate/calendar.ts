import { WEEKDAYS } from '../../time/working-days';
import { at, describeValue, isString, quoteList, type Issues } from './context';

const DATED = /^(\d{4})-(\d{2})-(\d{2})$/;
const YEARLY = /^(\d{2})-(\d{2})$/;

/**
 * `calendar`: weekday names from the list, at least one working day left in the week, and
 * holidays that are real days ('YYYY-MM-DD', or 'MM-DD' every year; '02-29' is one in leap years).
 */
export function checkCalendar(raw: Readonly<Record<string, unknown>>, issues: Issues): void {
  const calendar = raw.calendar;
  if (calendar === undefined) return;
  if (!issues.record(calendar, 'calendar', "a calendar ({ weekend: ['saturday', 'sunday'], holidays: ['12-25'] })")) return;
  issues.unknownKeys(calendar, ['weekend', 'holidays'], 'calendar', 'a calendar');
  checkWeekend(calendar.weekend, issues);
  checkHolidays(calendar.holidays, issues);
}

function checkWeekend(weekend: unknown, issues: Issues): void {
  if (weekend === undefined) return;
  if (!Array.isArray(weekend)) {
    issues.add('calendar.weekend', `must be a list of weekdays (${quoteList(WEEKDAYS)}), got ${describeValue(weekend)}`);
    return;
  }
  weekend.forEach((day: unknown, index) => {
    if (!isString(day) || !(WEEKDAYS as readonly string[]).includes(day))
      issues.add(at('calendar.weekend', index), `${describeValue(day)} is not a weekday (${quoteList(WEEKDAYS)})`);
  });
  if (WEEKDAYS.every((day) => weekend.includes(day)))
    issues.add('calendar.weekend', 'leaves no working day in the week: working days could never be counted');
}

function checkHolidays(holidays: unknown, issues: Issues): void {
  if (holidays === undefined) return;
  if (!Array.isArray(holidays)) {
    issues.add('calendar.holidays', `must be a list of dates ('2026-12-24') and yearly days ('12-25'), got ${describeValue(holidays)}`);
    return;
  }
  holidays.forEach((day: unknown, index) => {
    if (!isString(day) || !isRealDay(day))
      issues.add(
        at('calendar.holidays', index),
        `${describeValue(day)} is not a date ('YYYY-MM-DD', such as '2026-12-24') nor a day of every year ('MM-DD', such as '12-25')`,
      );
  });
}

function isRealDay(text: string): boolean {
  const dated = DATED.exec(text);
  const yearly = YEARLY.exec(text);
  // A yearly day is checked in a leap year, so that 02-29 is one (it is a day off when there is one).
  const [year, month, day] = dated ? [dated[1], dated[2], dated[3]] : yearly ? ['2024', yearly[1], yearly[2]] : [];
  if (year === undefined) return false;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day) && date.getUTCFullYear() === Number(year);
}
