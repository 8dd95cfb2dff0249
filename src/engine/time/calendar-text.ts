import type { WorkingCalendar } from './working-days';

const SHORT = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/**
 * The days worked, as a run when they follow each other round the week ("Mon–Fri", "Sun–Thu")
 * or one by one ("Mon, Wed, Fri").
 */
export function workWeekText(calendar: WorkingCalendar): string {
  const worked = [1, 2, 3, 4, 5, 6, 7].filter((d) => !calendar.weekend.includes(d));
  if (worked.length === 7) return 'every day';
  if (worked.length === 1) return SHORT[worked[0]! - 1]!;
  // A run round the week starts at the worked day whose day before is off.
  const start = worked.find((d) => calendar.weekend.includes(d === 1 ? 7 : d - 1));
  const run = start !== undefined && worked.every((_, i) => worked.includes(((start - 1 + i) % 7) + 1));
  if (run) return `${SHORT[start - 1]}–${SHORT[(start - 1 + worked.length - 1) % 7]}`;
  return worked.map((d) => SHORT[d - 1]).join(', ');
}

/** How many days off the calendar lists, dated and yearly: "2 holidays"; empty when none. */
export function holidayCountText(calendar: WorkingCalendar): string {
  const count = calendar.holidays.length + calendar.yearly.length;
  return count === 0 ? '' : `${count} ${count === 1 ? 'holiday' : 'holidays'}`;
}

/** What a count of working days counts on, in a few words: "Mon–Fri, 2 holidays". */
export function calendarShortText(calendar: WorkingCalendar): string {
  return [workWeekText(calendar), holidayCountText(calendar)].filter((t) => t !== '').join(', ');
}

/** "3 working days (Mon–Fri, 2 holidays)", "1 working day (constant) …": the unit with its calendar. */
export function workingDaysText(amount: string | number, calendar: WorkingCalendar, one = amount === 1): string {
  return `${amount} ${one ? 'working day' : 'working days'} (${calendarShortText(calendar)})`;
}
