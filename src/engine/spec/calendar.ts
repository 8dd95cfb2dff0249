import { UTC } from '../time/zone';
import { DEFAULT_WEEKEND, WEEKDAYS, type WorkingCalendar } from '../time/working-days';
import type { AppSpec } from './types';

/**
 * The spec's `calendar` as working days are counted on it (time/working-days.ts): weekdays as
 * ISO numbers, holidays split into dated and yearly ones, in the product's time zone. Built once
 * with the model; every duration in working days reads this one.
 */
export function buildCalendar(spec: AppSpec): WorkingCalendar {
  const weekend = spec.calendar?.weekend ?? DEFAULT_WEEKEND;
  const holidays = spec.calendar?.holidays ?? [];
  return {
    weekend: [...new Set(weekend.map((day) => WEEKDAYS.indexOf(day) + 1))].sort((a, b) => a - b),
    holidays: [...new Set(holidays.filter((h) => h.length === 10))].sort(),
    yearly: [...new Set(holidays.filter((h) => h.length === 5).map((h) => Number(h.slice(0, 2)) * 100 + Number(h.slice(3))))].sort(
      (a, b) => a - b,
    ),
    zone: spec.purpose?.timeZone ?? UTC,
  };
}
