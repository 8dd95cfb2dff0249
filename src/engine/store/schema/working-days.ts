import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { WorkingCalendar } from '../../time/working-days';
import type { DynamicDatabase } from '../types';

/*
 * Working days in SQL, so that conditions and the scheduler ask the database what memory
 * computes (src/engine/time/working-days.ts, whose rules these follow line for line). The
 * calendar is an argument rather than a table: it is the spec's, so a changed spec is a changed
 * query and never a migration, and the functions are the same for every spec. Counting steps day
 * by day: durations in working days are short, and an index serves the rows they are read for
 * (ops/auto-transitions.ts bounds them by calendar days first).
 */

const IS_WORKING_DAY = `create or replace function nf_is_working_day(d date, weekend int[], holidays date[], yearly int[])
returns boolean language sql immutable parallel safe as $nf$
  select not (extract(isodow from d)::int = any(weekend) or d = any(holidays)
    or (extract(month from d)::int * 100 + extract(day from d)::int) = any(yearly))
$nf$`;

/** The n-th working day after a date (n < 0: before it). */
const ADD_TO_DATE = `create or replace function nf_add_working_days(d date, n int, weekend int[], holidays date[], yearly int[])
returns date language plpgsql immutable parallel safe as $nf$
declare
  step int := sign(n);
  remaining int := abs(n);
begin
  if d is null or n is null then return null; end if;
  if cardinality(weekend) >= 7 then raise exception 'a calendar without working days counts no working day'; end if;
  while remaining > 0 loop
    d := d + step;
    if nf_is_working_day(d, weekend, holidays, yearly) then remaining := remaining - 1; end if;
  end loop;
  return d;
end
$nf$`;

/** A time moved by n working days, read on the wall clock of `zone`. */
const ADD_TO_TIME = `create or replace function nf_add_working_days(t timestamptz, n int, zone text, weekend int[], holidays date[], yearly int[])
returns timestamptz language plpgsql immutable parallel safe as $nf$
declare
  wall timestamp;
  d date;
begin
  if t is null or n is null then return null; end if;
  if n = 0 then return t; end if;
  wall := t at time zone zone;
  d := wall::date;
  if nf_is_working_day(d, weekend, holidays, yearly) then
    return (nf_add_working_days(d, n, weekend, holidays, yearly) + (wall - d::timestamp)) at time zone zone;
  elsif n > 0 then
    -- From the start of the next working day.
    return nf_add_working_days(nf_add_working_days(d, 1, weekend, holidays, yearly), n, weekend, holidays, yearly)::timestamp at time zone zone;
  else
    -- From the end of the previous working day: midnight of the day after it.
    return (nf_add_working_days(nf_add_working_days(d, -1, weekend, holidays, yearly), n, weekend, holidays, yearly) + 1)::timestamp at time zone zone;
  end if;
end
$nf$`;

const STATEMENTS = [IS_WORKING_DAY, ADD_TO_DATE, ADD_TO_TIME];

/** What the functions are, as a hash: part of the schema's recorded fingerprint. */
export function workingDaysFingerprint(): string {
  return createHash('sha256').update(JSON.stringify(STATEMENTS)).digest('hex');
}

/** Creates (or replaces) the functions; runs inside the schema sync's transaction. */
export async function installWorkingDays(trx: DynamicDatabase): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(trx);
}

/**
 * `time` moved by `days` working days on the calendar: a date column by whole dates (a date), a
 * time by the wall clock of the calendar's zone (a timestamptz). The calendar is bound as array
 * literals, which both drivers pass as text.
 */
export function workingDaysSql(
  time: RawBuilder<unknown>,
  days: number,
  calendar: WorkingCalendar,
  of: 'date' | 'time',
): RawBuilder<unknown> {
  const days_ = sql`${Math.trunc(days)}::int`;
  const weekend = sql`${`{${calendar.weekend.join(',')}}`}::int[]`;
  const holidays = sql`${`{${calendar.holidays.join(',')}}`}::date[]`;
  const yearly = sql`${`{${calendar.yearly.join(',')}}`}::int[]`;
  return of === 'date'
    ? sql`nf_add_working_days(${time}::date, ${days_}, ${weekend}, ${holidays}, ${yearly})`
    : sql`nf_add_working_days(${time}::timestamptz, ${days_}, ${calendar.zone}::text, ${weekend}, ${holidays}, ${yearly})`;
}
