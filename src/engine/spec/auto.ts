import { workingDaysFrom, type WorkingCalendar } from '../time/working-days';
import { toSnakeCase } from './naming';
import { declaredValue } from './own-names';
import type { AutoSpec, ConstantSpec, DurationSpec } from './types';

/** The units a duration may be given in, smallest first; working days count on the spec's calendar. */
export const DURATION_UNITS = ['minutes', 'hours', 'days', 'workingDays'] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];
/** The units of a fixed length, in seconds. */
export type FixedDurationUnit = Exclude<DurationUnit, 'workingDays'>;

/** How often every server's scheduler looks for due automatic transitions, unless NINEFOLD_SCHEDULER_SECONDS says otherwise. */
export const DEFAULT_SCHEDULER_SECONDS = 30;

/** System columns an automatic transition may count from. */
export const AUTO_FROM_SYSTEM = ['createdAt', 'updatedAt'] as const;

export const UNIT_SECONDS: Readonly<Record<FixedDurationUnit, number>> = { minutes: 60, hours: 3600, days: 86_400 };

/** A duration as the spec wrote it (for the document) and in seconds (for the clock). */
export interface DurationModel {
  readonly amount: number;
  readonly unit: DurationUnit;
  /** The constant the amount comes from, for the document. */
  readonly constant: string | null;
  /** Of a fixed unit; 0 for working days, whose length depends on where they start. */
  readonly seconds: number;
}

/**
 * When an automatic transition is due, constants resolved once at boot: `offsetSeconds` after
 * the record's `field` (negative: before it).
 */
export interface AutoModel {
  /** The date or datetime counted from: a field name, or createdAt / updatedAt. */
  readonly field: string;
  readonly column: string;
  readonly side: 'after' | 'before';
  readonly duration: DurationModel | null;
  /** A fixed duration, signed; 0 when it is in working days. */
  readonly offsetSeconds: number;
  /** A duration in working days: the signed count, on the spec's calendar; null for a fixed one. */
  readonly workingDays: { readonly count: number; readonly calendar: WorkingCalendar } | null;
}

function buildDuration(spec: DurationSpec, constants: Readonly<Record<string, ConstantSpec>>): DurationModel | null {
  const unit = DURATION_UNITS.find((u) => spec[u] !== undefined);
  if (!unit) return null;
  const given = spec[unit]!;
  const constant = typeof given === 'number' ? null : given.$constant;
  const amount = constant === null ? (given as number) : (declaredValue(constants, constant, 'constant').value as number);
  return { amount, unit, constant, seconds: unit === 'workingDays' ? 0 : amount * UNIT_SECONDS[unit] };
}

export function buildAuto(spec: AutoSpec, constants: Readonly<Record<string, ConstantSpec>>, calendar: WorkingCalendar): AutoModel {
  const side = spec.after !== undefined ? 'after' : 'before';
  const sign = side === 'after' ? 1 : -1;
  const field = (spec.after ?? spec.before)!;
  const duration = buildDuration(spec, constants);
  const workingDays = duration?.unit === 'workingDays' ? { count: sign * duration.amount, calendar } : null;
  return { field, column: toSnakeCase(field), side, duration, offsetSeconds: sign * (duration?.seconds ?? 0), workingDays };
}

/** When an automatic transition falls due for a record whose time counted from is `from` (a date or a time); null: never. */
export function autoDueAt(auto: AutoModel, from: unknown): Date | null {
  if (auto.workingDays) return workingDaysFrom(from, auto.workingDays.count, auto.workingDays.calendar);
  const time = from instanceof Date ? from : typeof from === 'string' ? new Date(from) : null;
  return time && !Number.isNaN(time.getTime()) ? new Date(time.getTime() + auto.offsetSeconds * 1000) : null;
}
