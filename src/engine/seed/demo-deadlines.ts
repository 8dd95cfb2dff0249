import type { Faker } from '@faker-js/faker';
import { evaluateCondition } from '../condition/evaluate';
import type { AppModel, EntityModel, FieldModel } from '../spec/model';
import type { Values } from './walk-step';

/*
 * Dates that say when something is due (an SLA, an expected close, a visit's start), placed
 * relative to the moment of seeding: a demo opened on day one shows open work mostly due in the
 * days ahead, a few items due soon and a few overdue, never a queue of records late by months.
 * A record still open past its deadline is made again: most of the old ones reach the end of
 * their workflow (closed, won, done, in the past), some are made young (created recently, so a due
 * time counted from creation lies ahead), and a few recently late ones stay late.
 */

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

/** Names of fields that hold when something is due or expected to happen. */
const DEADLINE_NAME = /due|deadline|expect|close|expir|start|schedul|planned/i;

/** How long overdue a record may be and still stay so: late by days, never by months. */
const KEEP_LATE_MS = 3 * DAY_MS;
/**
 * The share of late records that stay late (when by no more than KEEP_LATE_MS) or are made again
 * a little late: the demo's few overdue.
 */
const LATE_SHARE = 0.08;
/** Of the others, the share made young (open and in time); the rest reach the end of their workflow. */
const YOUNG_SHARE = 0.3;

/**
 * Whether the field says when something is due: a due time the engine keeps (an SLA), a date
 * or time computed from one (a report due after a visit), or one people enter whose name says so
 * (`dueAt`, `closeDate`, `startsAt`) or that must lie after the moment it is written. Times the
 * engine records when something happened (`resolvedAt`, read-only) and totals of related records
 * (derived) are not.
 */
export function isDeadline(field: FieldModel): boolean {
  if (field.type !== 'date' && field.type !== 'datetime') return false;
  if (field.due) return true;
  if (field.derived || (field.readOnly && !field.computed)) return false;
  const after = 'after' in field.spec ? field.spec.after : undefined;
  return DEADLINE_NAME.test(field.name) || (after !== undefined && 'now' in after);
}

function timeOf(value: unknown): number | null {
  const time = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isNaN(time) ? null : time;
}

/** Whether the record still runs against the field's clock: not in a final state, not done (an SLA's doneWhen). */
function running(model: AppModel, entity: EntityModel, field: FieldModel, record: Values, now: Date): boolean {
  const workflow = entity.workflow;
  if (workflow && workflow.states.find((s) => s.name === record[workflow.field])?.final) return false;
  return !field.due?.doneWhen || !evaluateCondition(model, field.due.doneWhen, record, now);
}

/** The earliest time the record is due by among the deadlines it still runs against, or null. */
export function openDeadline(model: AppModel, entity: EntityModel, record: Values, now: Date): number | null {
  let earliest: number | null = null;
  for (const field of entity.fields) {
    if (!isDeadline(field) || !running(model, entity, field, record, now)) continue;
    const start = timeOf(record[field.name]);
    // A date is due by the end of its day: what is due today is not overdue yet.
    const time = start !== null && field.type === 'date' ? start + DAY_MS - 1 : start;
    if (time !== null && (earliest === null || time < earliest)) earliest = time;
  }
  return earliest;
}

/**
 * What becomes of a record still open past its deadline: kept late, walked to its end, or made
 * again at a recent time (`late`: made to be a little late, one of the demo's few overdue).
 */
export type LateChoice = { readonly keep: true } | { readonly finish: true } | { readonly madeAt: Date; readonly late: boolean };

/** A creation time that leaves the record a little late: as long ago as its time to the deadline, and a bit more. */
function madeLate(faker: Faker, now: Date, created: number, deadline: number): Date {
  const lead = Math.max(HOUR_MS, deadline - created);
  const lateBy = Math.min(KEEP_LATE_MS * 0.8, lead * faker.number.float({ min: 0.1, max: 0.5 }));
  return new Date(now.getTime() - lead - lateBy);
}

/**
 * The choice for a record made at `now` (null: take it as it is). `first`: its first making (the
 * few overdue are chosen then, so that remakes do not add to them); `canFinish`: whether its
 * workflow may still be walked to the end (not tried already); `aimLate`: it was made again to be
 * a little late, and is made again until it is (or it finished on its walk).
 */
export function lateChoice(
  model: AppModel,
  entity: EntityModel,
  faker: Faker,
  record: Values,
  now: Date,
  { first, canFinish, aimLate }: { readonly first: boolean; readonly canFinish: boolean; readonly aimLate: boolean },
): LateChoice | null {
  const deadline = openDeadline(model, entity, record, now);
  const created = timeOf(record.createdAt) ?? now.getTime();
  if (aimLate) {
    // Finished on its walk, or in time: made again, a little earlier.
    if (deadline === null) return { madeAt: new Date(Math.min(created, now.getTime() - HOUR_MS)), late: true };
    const lateBy = now.getTime() - deadline;
    return lateBy > 0 && lateBy <= KEEP_LATE_MS ? null : { madeAt: madeLate(faker, now, created, deadline), late: true };
  }
  if (deadline === null) return null;
  const lateBy = now.getTime() - deadline;
  if (lateBy <= 0) return null;
  if (first && faker.datatype.boolean({ probability: LATE_SHARE })) {
    return lateBy <= KEEP_LATE_MS ? { keep: true } : { madeAt: madeLate(faker, now, created, deadline), late: true };
  }
  if (entity.workflow && canFinish && !faker.datatype.boolean({ probability: YOUNG_SHARE })) return { finish: true };
  // Created recently: the time it had between creation and its deadline, mostly still ahead.
  const lead = Math.max(HOUR_MS, deadline - created);
  return { madeAt: new Date(now.getTime() - lead * faker.number.float({ min: 0.05, max: 0.9 })), late: false };
}
