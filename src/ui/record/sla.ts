import type { EntityModel, FieldModel } from '@/engine/spec/model';
import type { ConstantSpec } from '@/engine/spec/types';

/*
 * Constants shown where they matter: a constant in hours whose value maps the values of one of
 * the entity's enum fields (`slaHours: { urgent: 4, high: 8, normal: 24, low: 72 }` beside a
 * ticket's `priority`) is a time promised per value, counted from the record's creation. The
 * detail page shows it next to that field with the time it falls due.
 */

/** A constant read as hours per value of one enum field. */
export interface HoursByValue {
  readonly constant: string;
  readonly field: string;
  readonly hours: Readonly<Record<string, number>>;
  /** "SLA" for `slaHours`, "Response" for `responseHours`. */
  readonly label: string;
  readonly description?: string;
}

/** The promise as it stands for one record. */
export interface DueNote {
  readonly constant: string;
  readonly field: string;
  readonly label: string;
  readonly description?: string;
  readonly hours: number;
  readonly due: Date;
  /** Past due while the work is still going on. */
  readonly overdue: boolean;
  /** The record is in a state where the work is done (the clock no longer matters). */
  readonly settled: boolean;
}

function isHoursMap(value: ConstantSpec['value']): value is Readonly<Record<string, number>> {
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0 && Object.values(value).every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0);
}

/** "slaHours" → "SLA", "responseHours" → "Response", "firstReplyHours" → "First reply". */
export function constantLabel(name: string): string {
  const stem = name.replace(/_?hours$/i, '') || name;
  if (stem.length <= 4 && /^[a-z]+$/i.test(stem)) return stem.toUpperCase();
  const words = stem.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The constants of unit "hours" keyed by the values of an enum field of the entity, with that field. */
export function hoursByEnumValue(constants: Readonly<Record<string, ConstantSpec>>, entity: EntityModel): HoursByValue[] {
  const enums = entity.fields.filter((f): f is FieldModel & { enumValues: readonly string[] } => f.type === 'enum' && Array.isArray(f.enumValues));
  const found: HoursByValue[] = [];
  for (const [name, spec] of Object.entries(constants)) {
    if (spec.unit !== 'hours' || !isHoursMap(spec.value)) continue;
    const keys = Object.keys(spec.value);
    const field = enums.find((f) => keys.every((k) => f.enumValues.includes(k)));
    if (!field) continue;
    found.push({ constant: name, field: field.name, hours: spec.value, label: constantLabel(name), ...(spec.description ? { description: spec.description } : {}) });
  }
  return found;
}

/**
 * The states in which the work is done: final states, and states entered by a transition that
 * stamps a time (`resolvedAt = now` on `resolve`): the clock stops there.
 */
export function settledStates(entity: EntityModel): ReadonlySet<string> {
  const workflow = entity.workflow;
  if (!workflow) return new Set();
  const settled = new Set(workflow.states.filter((s) => s.final).map((s) => s.name));
  for (const transition of workflow.transitions) {
    const stamps = transition.effects.some((e) => e.to === 'now' && entity.fieldsByName[e.set]?.type === 'datetime');
    if (stamps) settled.add(transition.to);
  }
  return settled;
}

const HOUR_MS = 3_600_000;

/** For each field with such a constant, the time it falls due (creation + hours for the record's value), by field name. */
export function dueNotes(
  constants: Readonly<Record<string, ConstantSpec>>,
  entity: EntityModel,
  record: Readonly<Record<string, unknown>>,
  now: Date,
): Record<string, DueNote> {
  const notes: Record<string, DueNote> = {};
  const createdAt = record.createdAt instanceof Date ? record.createdAt : typeof record.createdAt === 'string' ? new Date(record.createdAt) : null;
  if (!createdAt || Number.isNaN(createdAt.getTime())) return notes;
  const state = entity.workflow ? record[entity.workflow.field] : undefined;
  const settled = typeof state === 'string' && settledStates(entity).has(state);
  for (const entry of hoursByEnumValue(constants, entity)) {
    const value = record[entry.field];
    if (typeof value !== 'string' || notes[entry.field] || !Object.hasOwn(entry.hours, value)) continue;
    const hours = entry.hours[value];
    const due = new Date(createdAt.getTime() + hours * HOUR_MS);
    notes[entry.field] = {
      constant: entry.constant,
      field: entry.field,
      label: entry.label,
      ...(entry.description ? { description: entry.description } : {}),
      hours,
      due,
      overdue: !settled && now.getTime() > due.getTime(),
      settled,
    };
  }
  return notes;
}

const DUE = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });

/** "SLA 24 h" and "Tue, Mar 4, 14:00 UTC" (UTC, as every time on the screens). */
export function dueParts(note: DueNote): { promise: string; due: string } {
  return { promise: `${note.label} ${note.hours} h`, due: `${DUE.format(note.due)} UTC` };
}

/** "SLA 24 h · due Tue, Mar 4, 14:00 UTC". */
export function dueText(note: DueNote): string {
  const { promise, due } = dueParts(note);
  return `${promise} · due ${due}`;
}
