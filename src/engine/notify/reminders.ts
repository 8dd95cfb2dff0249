import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { boundConditionSql } from '../condition/bound-sql';
import { SCHEDULER_ACTOR } from '../identity/system-actor';
import { timeHasComeSql } from '../ops/auto-transitions';
import type { OpsContext } from '../ops/context';
import { inTransaction } from '../ops/transaction';
import { JOIN_RECORD, JOIN_TARGET } from '../spec/join-fields';
import type { EntityModel } from '../spec/model';
import type { AutoModel } from '../spec/auto';
import type { NotificationModel } from '../spec/notifications';
import { REMINDER_TABLE } from '../store/schema/notify-tables';
import type { DynamicDatabase } from '../store/types';
import { insertOutbox, type OutboxRow } from './outbox';

/*
 * Notifications of a time (`on: { before | after: field, <duration> }`), taken by the scheduler:
 * the records whose time has come are read from their own table (the time counted from, and the
 * `when` condition, both in SQL: the range is the one the field's index serves, as for automatic
 * transitions), and each is claimed once per (notification, record, value of the field) by a
 * unique row in nf_reminder, written in the same transaction as its outbox row. Two processes
 * cannot both take one (FOR UPDATE SKIP LOCKED, then the unique insert); a process killed
 * mid-way commits neither; a moved time is another value, so another reminder, and never two
 * for one value.
 */

const CLAIM_BATCH = 25;

type TimeNotification = NotificationModel & { readonly on: { readonly kind: 'time'; readonly time: AutoModel } };

export interface ReminderRun {
  readonly taken: number;
  readonly more: boolean;
}

function timeNotifications(notifications: readonly NotificationModel[]): TimeNotification[] {
  return notifications.filter((n): n is TimeNotification => n.on.kind === 'time');
}

/**
 * The records `notification` is due on at `now` and not yet taken for their field's value. A
 * reminder *before* a time is not sent once the time itself has passed: "due within the hour"
 * about a ticket already overdue (the scheduler down meanwhile, a field moved into the past)
 * would be false.
 */
function dueSql(ctx: OpsContext, entity: EntityModel, notification: TimeNotification, now: Date): RawBuilder<SqlBool> {
  const auto = notification.on.time;
  const time = sql.ref(`${entity.table}.${auto.column}`);
  const conditions = [
    sql<SqlBool>`${time} is not null`,
    ...timeHasComeSql(entity, auto, now),
    ...(auto.side === 'before' ? [sql<SqlBool>`${time} > ${now}`] : []),
    ...(notification.when ? [boundConditionSql(ctx.model, entity, notification.when, SCHEDULER_ACTOR)] : []),
    sql<SqlBool>`not exists (select 1 from ${sql.table(REMINDER_TABLE)} as r where r.notification = ${notification.name}
      and r.record_id = ${sql.ref(`${entity.table}.id`)} and r.at = ${time}::timestamptz)`,
  ];
  return sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;
}

interface Claimed {
  readonly id: number;
  readonly at: Date;
}

async function claim(trx: DynamicDatabase, ctx: OpsContext, entity: EntityModel, notification: TimeNotification, now: Date) {
  const time = sql.ref(`${entity.table}.${notification.on.time.column}`);
  const { rows } = await sql<{ id: string | number; at: Date | string }>`select ${sql.ref(`${entity.table}.id`)} as id,
    ${time}::timestamptz as at from ${sql.table(entity.table)} where ${dueSql(ctx, entity, notification, now)}
    order by ${time}, id limit ${CLAIM_BATCH} for update skip locked`.execute(trx);
  return rows.map((row): Claimed => ({ id: Number(row.id), at: new Date(row.at) }));
}

/** The users each of the record's own user fields holds now, for recipients named by them (outbox.ts's `users`). */
async function ownUsers(
  trx: DynamicDatabase,
  entity: EntityModel,
  notification: TimeNotification,
  ids: readonly number[],
): Promise<Map<number, Record<string, number[]>>> {
  const users = new Map(ids.map((id) => [id, {} as Record<string, number[]>]));
  for (const to of notification.to) {
    if (to.kind !== 'field' || to.tail !== null) continue;
    const field = entity.fieldsByName[to.head]!;
    for (const own of users.values()) own[to.head] = [];
    if (field.joinTable) {
      const rows = await trx.selectFrom(field.joinTable).select([JOIN_RECORD, JOIN_TARGET]).where(JOIN_RECORD, 'in', ids).execute();
      for (const row of rows as Record<string, unknown>[]) users.get(Number(row[JOIN_RECORD]))?.[to.head]!.push(Number(row[JOIN_TARGET]));
      continue;
    }
    const rows = await trx.selectFrom(entity.table).select(['id', field.column]).where('id', 'in', ids).execute();
    for (const row of rows as Record<string, unknown>[]) {
      const value = row[field.column];
      if (value !== null && value !== undefined) users.get(Number(row.id))?.[to.head]!.push(Number(value));
    }
  }
  return users;
}

/**
 * Takes every reminder due at `now` (the scheduler's clock), writing an outbox row for each,
 * until none is left or `deadline` (ms since the epoch) passes.
 */
export async function takeDueReminders(ctx: OpsContext, now: Date, deadline: number): Promise<ReminderRun> {
  let taken = 0;
  for (const notification of timeNotifications(ctx.model.notifications)) {
    const entity = ctx.model.entitiesByName[notification.entity]!;
    for (;;) {
      if (Date.now() > deadline) return { taken, more: true };
      const claimed = await inTransaction(ctx.db, async (trx) => {
        const rows = await claim(trx, ctx, entity, notification, now);
        if (rows.length === 0) return 0;
        // The unique key is the guard: a row another process took meanwhile is not returned.
        const fresh = await trx
          .insertInto(REMINDER_TABLE)
          .values(rows.map((row) => ({ notification: notification.name, record_id: row.id, at: row.at })))
          .onConflict((oc) => oc.doNothing())
          .returning('record_id')
          .execute();
        const ids = fresh.map((r) => Number(r.record_id));
        // Every row claimed was taken meanwhile by another process (its key already there): nothing to write.
        if (ids.length === 0) return rows.length;
        const users = await ownUsers(trx, entity, notification, ids);
        const outbox: OutboxRow[] = ids.map((id) => ({
          entity: entity.name,
          recordId: id,
          kind: 'time',
          transition: null,
          fields: [notification.on.time.field],
          actorId: null,
          notifications: [notification.name],
          users: users.get(id) ?? {},
        }));
        await insertOutbox(trx, outbox);
        taken += ids.length;
        return rows.length;
      });
      if (claimed < CLAIM_BATCH) break;
    }
  }
  return { taken, more: false };
}
