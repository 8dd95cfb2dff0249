import { toSnakeCase } from './naming';
import { declaredValue } from './own-names';
import type { AutoSpec, ConstantSpec, DurationSpec } from './types';

/** The units a duration may be given in, smallest first. */
export const DURATION_UNITS = ['minutes', 'hours', 'days'] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];

/** How often every server's scheduler looks for due automatic transitions, unless NINEFOLD_SCHEDULER_SECONDS says otherwise. */
export const DEFAULT_SCHEDULER_SECONDS = 30;

/** System columns an automatic transition may count from. */
export const AUTO_FROM_SYSTEM = ['createdAt', 'updatedAt'] as const;

const SECONDS: Readonly<Record<DurationUnit, number>> = { minutes: 60, hours: 3600, days: 86_400 };

/** A duration as the spec wrote it (for the document) and in seconds (for the clock). */
export interface DurationModel {
  readonly amount: number;
  readonly unit: DurationUnit;
  /** The constant the amount comes from, for the document. */
  readonly constant: string | null;
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
  readonly offsetSeconds: number;
}

export function buildDuration(spec: DurationSpec, constants: Readonly<Record<string, ConstantSpec>>): DurationModel | null {
  const unit = DURATION_UNITS.find((u) => spec[u] !== undefined);
  if (!unit) return null;
  const given = spec[unit]!;
  const constant = typeof given === 'number' ? null : given.$constant;
  const amount = constant === null ? (given as number) : (declaredValue(constants, constant, 'constant').value as number);
  return { amount, unit, constant, seconds: amount * SECONDS[unit] };
}

export function buildAuto(spec: AutoSpec, constants: Readonly<Record<string, ConstantSpec>>): AutoModel {
  const side = spec.after !== undefined ? 'after' : 'before';
  const field = (spec.after ?? spec.before)!;
  const duration = buildDuration(spec, constants);
  const seconds = duration?.seconds ?? 0;
  return { field, column: toSnakeCase(field), side, duration, offsetSeconds: side === 'after' ? seconds : -seconds };
}
