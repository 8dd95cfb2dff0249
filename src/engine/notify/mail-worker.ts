import { sql } from 'kysely';
import { logLine } from '../log';
import type { OpsContext } from '../ops/context';
import { inTransaction } from '../ops/transaction';
import { MAIL_TABLE } from '../store/schema/notify-tables';
import { composeMail } from './mail-compose';
import type { Mailer } from './mailer';
import { unsubscribePath } from './unsubscribe';

/*
 * The e-mail worker, on every process's scheduler loop: claims due mail rows (FOR UPDATE SKIP
 * LOCKED, then a lease: the row's next attempt moved past the time a send may take, in a short
 * transaction of its own, so that no transaction stays open while a mail server answers), sends
 * each through the Mailer, and marks it sent; a failure is kept and retried later, each time
 * waiting longer. Two processes never claim one row; a process killed after sending and before
 * marking leaves the row to be sent again when its lease ends, with the same Message-ID (the
 * one duplicate a mail server can recognise). Digest rows wait for the digest (digest.ts).
 */

export interface MailRun {
  readonly sent: number;
  readonly failed: number;
  readonly more: boolean;
}

const CLAIM_BATCH = 10;
/** How long a claimed row is left to its process: longer than any send takes. */
const LEASE_SECONDS = 300;
/** Attempts before a mail is given up (its last error kept on the row). */
export const MAX_MAIL_ATTEMPTS = 8;
/** The wait after the nth failure: a minute, doubling, at most six hours. */
export const retryDelaySeconds = (attempts: number) => Math.min(60 * 2 ** (attempts - 1), 6 * 3600);

interface ClaimedMail {
  readonly id: number;
  readonly userId: number;
  readonly kind: string;
  readonly to: string;
  readonly subject: string;
  readonly body: string;
  readonly link: string;
  readonly attempts: number;
}

async function claimMail(ctx: OpsContext, now: Date): Promise<ClaimedMail[]> {
  return inTransaction(ctx.db, async (trx) => {
    const { rows } = await sql<Record<string, unknown>>`select id, user_id, kind, to_address, subject, body_text, link, attempts
      from ${sql.table(MAIL_TABLE)} where sent_at is null and not digest and next_attempt_at <= ${now} and attempts < ${MAX_MAIL_ATTEMPTS}
      order by next_attempt_at, id limit ${CLAIM_BATCH} for update skip locked`.execute(trx);
    if (rows.length === 0) return [];
    const ids = rows.map((r) => Number(r.id));
    await trx
      .updateTable(MAIL_TABLE)
      .set({ attempts: sql`attempts + 1`, next_attempt_at: new Date(now.getTime() + LEASE_SECONDS * 1000) })
      .where('id', 'in', ids)
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      userId: Number(r.user_id),
      kind: String(r.kind),
      to: String(r.to_address),
      subject: String(r.subject),
      body: String(r.body_text),
      link: String(r.link),
      attempts: Number(r.attempts) + 1,
    }));
  });
}

/**
 * Sends the mail due at `now` until none is left or `deadline` (ms since the epoch) passes.
 * `origin`: the application's public address, for the links.
 */
export async function sendDueMail(ctx: OpsContext, mailer: Mailer, origin: string, now: Date, deadline: number): Promise<MailRun> {
  let sent = 0;
  let failed = 0;
  for (;;) {
    if (Date.now() > deadline) return { sent, failed, more: true };
    const claimed = await claimMail(ctx, now);
    for (const mail of claimed) {
      try {
        const outgoing = composeMail(
          { rowId: mail.id, to: mail.to, subject: mail.subject, body: mail.body, link: mail.link },
          origin,
          // A digest's kind is ALL_KINDS: its link turns off every kind's e-mail.
          await unsubscribePath(ctx.db, mail.userId, mail.kind),
        );
        await mailer.send(outgoing);
        await ctx.db
          .updateTable(MAIL_TABLE)
          .set({ sent_at: sql`now()`, error: null })
          .where('id', '=', mail.id)
          .execute();
        sent += 1;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        failed += 1;
        logLine('warn', 'e-mail not sent', { mail: mail.id, attempts: mail.attempts, error: message });
        await ctx.db
          .updateTable(MAIL_TABLE)
          .set({ error: message.slice(0, 1000), next_attempt_at: new Date(now.getTime() + retryDelaySeconds(mail.attempts) * 1000) })
          .where('id', '=', mail.id)
          .execute();
      }
    }
    if (claimed.length < CLAIM_BATCH) return { sent, failed, more: false };
  }
}
