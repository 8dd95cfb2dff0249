import { sql } from 'kysely';
import type { OpsContext } from '../ops/context';
import type { DynamicDatabase } from '../store/types';
import { DIGEST_TABLE, MAIL_TABLE, OUTBOX_TABLE, REMINDER_TABLE } from '../store/schema/notify-tables';
import { WEBHOOK_DELIVERY_TABLE } from './webhooks/tables';

/*
 * What delivery leaves behind is kept for a while, then deleted, so that the tables of a busy
 * product do not grow for ever: the outbox rows dispatched, e-mails sent, digests' claims,
 * webhook deliveries finished (with their attempts), and "before" reminders whose time has
 * passed (never due again). The inbox is the users' own and is kept; so are "after" reminders,
 * whose rows are what stops them from being sent again.
 */

const DAY_MS = 86_400_000;

/** How long each kind of finished row is kept, in days. */
export const RETENTION_DAYS = {
  /** Dispatched outbox rows: only a re-dispatch could want them, and a done row is never re-dispatched. */
  outbox: 7,
  /** Sent e-mails, and which days' digests were made. */
  mail: 30,
  /** Finished webhook deliveries: the administrators' log shows a month. */
  webhooks: 30,
  /** A "before" reminder once its time has passed. */
  reminders: 1,
} as const;

/** Rows deleted per statement, so that no prune holds a long transaction. */
const BATCH = 5_000;

async function deleteOlder(db: DynamicDatabase, table: string, where: ReturnType<typeof sql>, key = 'id'): Promise<number> {
  const result = await sql`delete from ${sql.table(table)} where ${sql.ref(key)} in
    (select ${sql.ref(key)} from ${sql.table(table)} where ${where} limit ${BATCH})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Deletes what is past its keeping at `now`, a batch per table per call; returns how many rows went. */
export async function pruneDelivered(ctx: OpsContext, now: Date): Promise<number> {
  const before = (days: number) => new Date(now.getTime() - days * DAY_MS);
  let deleted = 0;
  deleted += await deleteOlder(ctx.db, OUTBOX_TABLE, sql`done_at < ${before(RETENTION_DAYS.outbox)}`);
  deleted += await deleteOlder(ctx.db, MAIL_TABLE, sql`sent_at < ${before(RETENTION_DAYS.mail)}`);
  const digestDays = await sql`delete from ${sql.table(DIGEST_TABLE)} where sent_at < ${before(RETENTION_DAYS.mail)}`.execute(ctx.db);
  deleted += Number(digestDays.numAffectedRows ?? 0);
  const passingReminders = ctx.model.notifications.filter((n) => n.on.kind === 'time' && n.on.time.side === 'before').map((n) => n.name);
  if (passingReminders.length > 0) {
    const reminders = await sql`delete from ${sql.table(REMINDER_TABLE)}
      where notification in (${sql.join(passingReminders)}) and at < ${before(RETENTION_DAYS.reminders)}`.execute(ctx.db);
    deleted += Number(reminders.numAffectedRows ?? 0);
  }
  if (ctx.model.webhooks.length > 0) {
    deleted += await deleteOlder(
      ctx.db,
      WEBHOOK_DELIVERY_TABLE,
      sql`status <> 'pending' and updated_at < ${before(RETENTION_DAYS.webhooks)}`,
    );
  }
  return deleted;
}
