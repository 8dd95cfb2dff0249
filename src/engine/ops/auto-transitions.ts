import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { asNinefoldError } from '../errors/ninefold-error';
import { SCHEDULER_ACTOR } from '../identity/system-actor';
import { describeAutoReason } from '../spec/describe/auto';
import type { EntityModel, TransitionModel } from '../spec/model';
import type { AutoModel } from '../spec/auto';
import type { DynamicDatabase } from '../store/types';
import type { OpsContext } from './context';
import { columnFor } from './records';
import { takeTransition } from './transition';
import { inTransaction } from './transaction';
import { workingDaysSql } from '../store/schema/working-days';
import { addWorkingDays } from '../time/working-days';
import { UTC } from '../time/zone';

const DAY_MS = 86_400_000;

/*
 * Automatic transitions (`auto`), taken by the scheduler (src/engine/scheduler) as the system.
 * Due work is read from the records themselves (a `from` state, and the time counted from has
 * passed), so nothing is queued that a crash could lose: a process killed mid-way leaves its
 * records due, and the next tick of any process takes them. Rows are claimed with FOR UPDATE
 * SKIP LOCKED, so processes sharing one PostgreSQL never take the same record, and the
 * transition leaves the `from` states, so a later claim finds the record no longer due.
 */

/** Records claimed per transaction: small, so that a user's write never waits long for a claimed row. */
const CLAIM_BATCH = 25;
/** A backlog is counted up to here; past it, "more than" is all a health check needs. */
export const BACKLOG_CAP = 10_000;

export interface AutoTransitionRefusal {
  readonly entity: string;
  readonly transition: string;
  readonly id: number;
  readonly code: string;
  readonly message: string;
}

export interface AutoRun {
  /** Transitions taken. */
  readonly taken: number;
  /** Due records whose transition was refused (a guard, a rule, a limit): they stay as they are. */
  readonly refused: readonly AutoTransitionRefusal[];
  /** Whether the time budget ran out with due records left (the next tick goes on). */
  readonly more: boolean;
}

type AutoTransition = TransitionModel & { readonly auto: AutoModel };

/** Every automatic transition of the model, with its entity. */
export function autoTransitions(entities: readonly EntityModel[]): { entity: EntityModel; transition: AutoTransition }[] {
  return entities.flatMap((entity) =>
    (entity.workflow?.transitions ?? []).filter((t): t is AutoTransition => t.auto !== null).map((transition) => ({ entity, transition })),
  );
}

/**
 * The records of `entity` on which `transition` is due at `now`: in a `from` state, with the
 * fields it requires, and the time counted from at least the offset ago. Guards are checked when
 * it is taken (in memory, with the scheduler's clock), as for a person.
 */
function dueSql(entity: EntityModel, transition: AutoTransition, now: Date): RawBuilder<SqlBool> {
  const workflow = entity.workflow!;
  const required = transition.requires.map((name) => sql<SqlBool>`${sql.ref(columnFor(entity, name))} is not null`);
  return sql<SqlBool>`(${sql.join(
    [
      sql<SqlBool>`${sql.ref(workflow.column)} in (${sql.join(transition.from.map((s) => sql`${s}`))})`,
      ...timeHasComeSql(entity, transition.auto, now),
      ...required,
    ],
    sql` and `,
  )})`;
}

/**
 * The time counted from is far enough in the past. A fixed offset is one range on the indexed
 * column. Working days are no fixed length, so the range is a bound that every due record is
 * within (the index reads only those), and the count itself is checked on them by the database:
 * after a time, n working days are at least n calendar days (less a day for a clock change);
 * before one, a record is due only up to n working days from now (working-days.ts keeps a later
 * start from giving an earlier result).
 */
export function timeHasComeSql(entity: EntityModel, auto: AutoModel, now: Date): RawBuilder<SqlBool>[] {
  const time = sql.ref(auto.column);
  if (!auto.workingDays) return [sql<SqlBool>`${time} <= ${new Date(now.getTime() - auto.offsetSeconds * 1000)}`];
  const { count, calendar } = auto.workingDays;
  const of = entity.fieldsByName[auto.field]?.type === 'date' ? 'date' : 'time';
  // A date is read as its midnight UTC, as it compares with the time now.
  const bound =
    count >= 0
      ? new Date(now.getTime() - Math.max(count - 1, 0) * DAY_MS)
      : addWorkingDays(now, -count, of === 'date' ? { ...calendar, zone: UTC } : calendar);
  return [sql<SqlBool>`${time} <= ${bound}`, sql<SqlBool>`${workingDaysSql(time, count, calendar, of)} <= ${now}`];
}

/** How many records are due now, counted up to BACKLOG_CAP. */
export async function countDue(ctx: OpsContext, now: Date): Promise<number> {
  let total = 0;
  for (const { entity, transition } of autoTransitions(ctx.model.entities)) {
    const { rows } = await sql<{ n: string | number }>`select count(*) as n from (select 1 from ${sql.table(entity.table)} where ${dueSql(
      entity,
      transition,
      now,
    )} limit ${BACKLOG_CAP}) as due`.execute(ctx.db);
    total += Number(rows[0]?.n ?? 0);
  }
  return Math.min(total, BACKLOG_CAP);
}

interface Claimed {
  readonly id: number;
  readonly time: Date;
}

/** Claims the next due records after `after` (a keyset over the time and id), locked until the transaction ends. */
async function claim(
  trx: DynamicDatabase,
  entity: EntityModel,
  transition: AutoTransition,
  now: Date,
  after: Claimed | null,
): Promise<Claimed[]> {
  const time = sql.ref(transition.auto.column);
  const past = after ? sql<SqlBool>` and (${time}, id) > (${after.time}, ${after.id})` : sql``;
  const { rows } = await sql<{ id: string | number; t: Date | string }>`select id, ${time} as t from ${sql.table(entity.table)}
    where ${dueSql(entity, transition, now)}${past}
    order by ${time}, id limit ${CLAIM_BATCH} for update skip locked`.execute(trx);
  return rows.map((row) => ({ id: Number(row.id), time: new Date(row.t) }));
}

/**
 * Takes every automatic transition due at `now`, oldest first, until none is left or `deadline`
 * passes. Each record is tried once per run: a refused one (its guard does not hold) stays due
 * and is reported, and the run goes on past it.
 */
export async function takeDueTransitions(ctx: OpsContext, now: Date, deadline: number): Promise<AutoRun> {
  let taken = 0;
  const refused: AutoTransitionRefusal[] = [];
  for (const { entity, transition } of autoTransitions(ctx.model.entities)) {
    const comment = describeAutoReason(entity, transition);
    let after: Claimed | null = null;
    for (;;) {
      if (Date.now() > deadline) return { taken, refused, more: true };
      const batch: Claimed[] = await inTransaction(ctx.db, async (trx) => {
        const claimed = await claim(trx, entity, transition, now, after);
        for (const row of claimed) {
          try {
            // Under a savepoint of this transaction (inTransaction): a refusal undoes only its own record.
            await takeTransition({ ...ctx, db: trx }, SCHEDULER_ACTOR, entity, row.id, transition, {}, undefined, undefined, {
              now,
              comment,
            });
            taken += 1;
          } catch (error) {
            const known = asNinefoldError(error);
            if (!known) throw error;
            refused.push({ entity: entity.name, transition: transition.name, id: row.id, code: known.code, message: known.message });
          }
        }
        return claimed;
      });
      if (batch.length < CLAIM_BATCH) break;
      after = batch[batch.length - 1]!;
    }
  }
  return { taken, refused, more: false };
}
