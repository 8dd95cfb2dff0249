import { describe, expect, it } from 'vitest';
import { addWorkingDays, addWorkingDaysToDate, isWorkingDate, type WorkingCalendar } from './working-days';

const monToFri: WorkingCalendar = { weekend: [6, 7], holidays: [], yearly: [], zone: 'UTC' };
const withHolidays: WorkingCalendar = { ...monToFri, holidays: ['2026-12-28'], yearly: [1225, 101] };
const at = (iso: string, n: number, calendar: WorkingCalendar = monToFri) => addWorkingDays(new Date(iso), n, calendar).toISOString();

describe('working days', () => {
  it('skips the weekend, forward and back, from a date', () => {
    // 2026-06-05 is a Friday.
    expect(addWorkingDaysToDate('2026-06-05', 1, monToFri)).toBe('2026-06-08');
    expect(addWorkingDaysToDate('2026-06-06', 1, monToFri)).toBe('2026-06-08');
    expect(addWorkingDaysToDate('2026-06-07', 1, monToFri)).toBe('2026-06-08');
    expect(addWorkingDaysToDate('2026-06-03', 3, monToFri)).toBe('2026-06-08');
    expect(addWorkingDaysToDate('2026-06-08', -1, monToFri)).toBe('2026-06-05');
    expect(addWorkingDaysToDate('2026-06-07', -1, monToFri)).toBe('2026-06-05');
    expect(addWorkingDaysToDate('2026-06-08', 0, monToFri)).toBe('2026-06-08');
    expect(addWorkingDaysToDate('2026-06-01', 10, monToFri)).toBe('2026-06-15');
  });

  it('skips holidays, dated and yearly, across a year end', () => {
    // Thu 24 Dec 2026 + 1: Fri 25 (yearly), weekend, Mon 28 (dated) → Tue 29.
    expect(addWorkingDaysToDate('2026-12-24', 1, withHolidays)).toBe('2026-12-29');
    // Thu 31 Dec + 1: Fri 1 Jan (yearly), weekend → Mon 4 Jan 2027.
    expect(addWorkingDaysToDate('2026-12-31', 1, withHolidays)).toBe('2027-01-04');
    expect(addWorkingDaysToDate('2027-01-04', -2, withHolidays)).toBe('2026-12-30');
    expect(isWorkingDate('2030-12-25', withHolidays)).toBe(false);
    expect(isWorkingDate('2026-12-28', withHolidays)).toBe(false);
    expect(isWorkingDate('2027-12-28', withHolidays)).toBe(true);
  });

  it('keeps the time of day on working days and counts a day off from the next working day', () => {
    expect(at('2026-06-05T17:00:00Z', 1)).toBe('2026-06-08T17:00:00.000Z');
    // Saturday 10:00 + 1: from Monday's start, one working day on is Tuesday 00:00.
    expect(at('2026-06-06T10:00:00Z', 1)).toBe('2026-06-09T00:00:00.000Z');
    // Sunday 10:00 − 1: from Friday's end, one working day back is Friday 00:00.
    expect(at('2026-06-07T10:00:00Z', -1)).toBe('2026-06-05T00:00:00.000Z');
    expect(at('2026-06-08T09:30:15.250Z', -1)).toBe('2026-06-05T09:30:15.250Z');
    expect(at('2026-06-06T10:00:00Z', 0)).toBe('2026-06-06T10:00:00.000Z');
  });

  it('never gives a later start an earlier result', () => {
    const starts = ['2026-06-05T23:59:00Z', '2026-06-06T00:00:00Z', '2026-06-07T12:00:00Z', '2026-06-08T00:00:00Z', '2026-06-08T00:01:00Z'];
    for (const n of [1, 2, -1, -3]) {
      const results = starts.map((s) => Date.parse(at(s, n)));
      expect(results).toEqual([...results].sort((a, b) => a - b));
    }
  });

  it('reads days and times on the calendar zone, through daylight saving changes', () => {
    const paris: WorkingCalendar = { ...monToFri, zone: 'Europe/Paris' };
    // Friday 22:30 UTC is Saturday 00:30 in Paris, a day off there: plus 1 is Tuesday 00:00 in Paris.
    expect(at('2026-06-05T22:30:00Z', 1, paris)).toBe('2026-06-08T22:00:00.000Z');
    expect(at('2026-06-05T22:30:00Z', 1)).toBe('2026-06-08T22:30:00.000Z');
    // Fri 27 March 2026 09:00 CET + 1 → Mon 30 March 09:00 CEST (clocks went forward on the 29th).
    expect(at('2026-03-27T08:00:00Z', 1, paris)).toBe('2026-03-30T07:00:00.000Z');
    // Fri 23 October 09:00 CEST + 1 → Mon 26 October 09:00 CET.
    expect(at('2026-10-23T07:00:00Z', 1, paris)).toBe('2026-10-26T08:00:00.000Z');
    // Sunday 25 October 02:30 happens twice (Sundays worked here): Friday 02:30 moved there is the later one, as PostgreSQL reads it.
    const sundays: WorkingCalendar = { ...paris, weekend: [6] };
    expect(at('2026-10-23T00:30:00Z', 1, sundays)).toBe('2026-10-25T01:30:00.000Z');
    // Sunday 29 March 02:30 never happens: moved on by the gap.
    expect(at('2026-03-27T01:30:00Z', 1, sundays)).toBe('2026-03-29T01:30:00.000Z');
  });
});
