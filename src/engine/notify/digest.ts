import { sql } from 'kysely';
import type { OpsContext } from '../ops/context';
import { inTransaction } from '../ops/transaction';
import { USER_TABLE } from '../store/schema/desired';
import { DIGEST_TABLE, MAIL_TABLE } from '../store/schema/notify-tables';
import { instantOfWallTime, wallTimeIn } from '../time/zone';
import { ALL_KINDS } from './unsubscribe';

/*
 * Daily digests: a user who chose "a daily digest" for a kind has its e-mails kept (nf_mail rows
 * marked digest). Once a day has ended on the product's clock (purpose.timeZone, UTC by default),
 * each such user's kept mails of the days before are
 * folded into one mail row, which the mail worker sends like any other (retries included). The
 * user and day are claimed by nf_digest's key in the same transaction, so a fleet makes one
 * digest per user per day; the kept rows are marked sent by it.
 */

const USERS_PER_RUN = 50;

/** The kind a digest's mail row has: every kind (its unsubscribe link turns off every kind's e-mail). */
export const DIGEST_KIND = ALL_KINDS;

/**
 * The day a digest made at `now` is of: yesterday on the wall clock of `zone` ("2026-11-27"), and
 * the instant today began there (mails kept before it go in).
 */
export function digestDay(now: Date, zone: string): { readonly day: string; readonly today: Date } {
  const wall = wallTimeIn(now, zone);
  const today = instantOfWallTime({ ...wall, hour: 0, minute: 0, second: 0 }, zone);
  const day = new Date(Date.UTC(wall.year, wall.month - 1, wall.day - 1)).toISOString().slice(0, 10);
  return { day, today };
}

/** Makes the digests due at `now` (the mail worker sends them); returns how many. `origin`: the links' address. */
export async function makeDigests(ctx: OpsContext, origin: string, now: Date): Promise<number> {
  const { day, today } = digestDay(now, ctx.model.timeZone);
  const { rows: users } = await sql<{ user_id: string | number }>`select distinct m.user_id from ${sql.table(MAIL_TABLE)} m
    join ${sql.table(USER_TABLE)} u on u.id = m.user_id and u.disabled_at is null
    where m.digest and m.sent_at is null and m.created_at < ${today}
    and not exists (select 1 from ${sql.table(DIGEST_TABLE)} d where d.user_id = m.user_id and d.day = ${day}::date)
    limit ${USERS_PER_RUN}`.execute(ctx.db);
  let made = 0;
  for (const { user_id } of users) {
    const userId = Number(user_id);
    made += await inTransaction(ctx.db, async (trx) => {
      const claimed = await trx
        .insertInto(DIGEST_TABLE)
        .values({ user_id: userId, day: sql`${day}::date` })
        .onConflict((oc) => oc.columns(['user_id', 'day']).doNothing())
        .returning('user_id')
        .execute();
      if (claimed.length === 0) return 0;
      const { rows } = await sql<Record<string, unknown>>`select id, outbox_id, to_address, subject, body_text, link
        from ${sql.table(MAIL_TABLE)} where user_id = ${userId} and digest and sent_at is null and created_at < ${today}
        order by id for update`.execute(trx);
      if (rows.length === 0) return 0;
      const body = rows
        .map((r) => [String(r.subject), String(r.body_text), `${origin}${String(r.link)}`].filter((line) => line !== '').join('\n'))
        .join('\n\n');
      await trx
        .insertInto(MAIL_TABLE)
        .values({
          user_id: userId,
          // Each kept row is in one digest only, so its greatest outbox id is this digest's own.
          outbox_id: Math.max(...rows.map((r) => Number(r.outbox_id))),
          kind: DIGEST_KIND,
          entity: '',
          record_id: 0,
          to_address: String(rows[rows.length - 1]!.to_address),
          subject: rows.length === 1 ? `Your notification of ${day}` : `Your ${rows.length} notifications of ${day}`,
          body_text: body,
          link: '/inbox',
        })
        .execute();
      await trx
        .updateTable(MAIL_TABLE)
        .set({ sent_at: sql`now()` })
        .where(
          'id',
          'in',
          rows.map((r) => Number(r.id)),
        )
        .execute();
      return 1;
    });
  }
  return made;
}
