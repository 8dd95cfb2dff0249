import { sql } from 'kysely';
import type { OpsContext } from '../ops/context';
import { inTransaction } from '../ops/transaction';
import { INBOX_TABLE, MAIL_TABLE, OUTBOX_TABLE } from '../store/schema/notify-tables';
import type { DynamicDatabase } from '../store/types';
import { INBOX_CHANNEL } from './inbox-channel';
import type { Mailer } from './mailer';
import { DEFAULT_KIND_PREFERENCE, preferencesOf } from './preferences';
import { loadRecipients, mutableRecords, recipientIds } from './recipients';
import { renderFor } from './render';
import { recordPath } from './record-link';

/*
 * The dispatcher: claims outbox rows (FOR UPDATE SKIP LOCKED, so each row is taken by one
 * process of a fleet), and for each matched notification resolves its recipients, asks ops
 * whether each may read the record (as that user), applies their preferences, renders it for
 * them and writes their deliveries: an in-app notification, an e-mail to send (or keep for the
 * digest). Each delivery is unique on (outbox row, kind, user) per channel, and the row is marked
 * done in the same transaction: a process killed mid-way commits nothing, and the next claim
 * takes the row again whole. Run by every process's scheduler loop, and nudged after a commit
 * that wrote outbox rows (nudge.ts).
 */

/** A change the dispatcher took from the outbox, as subscribers receive it. */
export interface DispatchedChange {
  readonly outboxId: number;
  readonly at: Date;
  readonly entity: string;
  readonly recordId: number;
  readonly kind: 'create' | 'update' | 'transition' | 'delete' | 'time';
  readonly transition: string | null;
  readonly fields: readonly string[];
  /** Who made the change; null for the system. */
  readonly actorId: number | null;
  /** The notifications it matched, by kind name. */
  readonly notifications: readonly string[];
}

/**
 * Called for each change in the dispatcher's transaction, after the deliveries are written and
 * before the row is marked done: the call point for webhooks (their delivery rows are written
 * with the rest, once). A subscriber that throws rolls the whole row back; it is claimed again.
 */
export type OutboxSubscriber = (trx: DynamicDatabase, change: DispatchedChange) => Promise<void>;

export interface NotifyOptions {
  /** Webhooks and anything else that follows the outbox; none by default. */
  readonly subscribers?: readonly OutboxSubscriber[];
  /** How e-mail leaves (SMTP in a server, a recording one in tests): without one no e-mail row is written. */
  readonly mailer?: Mailer | null;
  /** The application's public address for e-mails' links (NINEFOLD_PUBLIC_URL); default http://localhost:3000. */
  readonly publicUrl?: string;
}

export interface DispatchRun {
  readonly dispatched: number;
  readonly more: boolean;
}

const CLAIM_BATCH = 20;

interface OutboxRowRead {
  readonly id: number;
  readonly at: Date;
  readonly entity: string;
  readonly recordId: number;
  readonly kind: DispatchedChange['kind'];
  readonly transition: string | null;
  readonly fields: string[];
  readonly actorId: number | null;
  readonly notifications: string[];
  readonly users: Record<string, number[]>;
}

async function claimOutbox(trx: DynamicDatabase): Promise<OutboxRowRead[]> {
  const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(OUTBOX_TABLE)} where done_at is null
    order by id limit ${CLAIM_BATCH} for update skip locked`.execute(trx);
  return rows.map((r) => ({
    id: Number(r.id),
    at: new Date(r.at as string | Date),
    entity: String(r.entity),
    recordId: Number(r.record_id),
    kind: r.kind as DispatchedChange['kind'],
    transition: (r.transition as string | null) ?? null,
    fields: (r.fields as string[]) ?? [],
    actorId: r.actor_id === null ? null : Number(r.actor_id),
    notifications: (r.notifications as string[]) ?? [],
    users: (typeof r.users === 'string' ? JSON.parse(r.users) : r.users) as Record<string, number[]>,
  }));
}

/** The deliveries of one outbox row; returns the users who got something in the app. */
async function deliver(ctx: OpsContext, options: NotifyOptions, row: OutboxRowRead): Promise<number[]> {
  const told: number[] = [];
  for (const name of row.notifications) {
    const notification = ctx.model.notifications.find((n) => n.name === name);
    // A kind the spec no longer declares: nothing to tell.
    if (!notification || notification.entity !== row.entity) continue;
    const ids = await recipientIds(ctx.model, ctx.db, notification, row.recordId, row.users);
    // The user whose change it is knows of it.
    if (row.actorId !== null) ids.delete(row.actorId);
    const recipients = await loadRecipients(
      ctx.model,
      ctx.db,
      [...ids],
      await mutableRecords(ctx.model, ctx.db, notification, row.recordId),
    );
    const preferences = await preferencesOf(
      ctx.db,
      recipients.map((r) => r.userId),
      name,
    );
    for (const recipient of recipients) {
      const preference = preferences.get(recipient.userId) ?? DEFAULT_KIND_PREFERENCE;
      const inApp = notification.channels.includes('inApp') && preference.inApp;
      const email = notification.channels.includes('email') && options.mailer != null && preference.email !== 'off';
      if (!inApp && !email) continue;
      const rendered = await renderFor(ctx, recipient, notification, row.recordId);
      if (!rendered) continue;
      const entity = ctx.model.entitiesByName[row.entity]!;
      const base = { user_id: recipient.userId, outbox_id: row.id, kind: name, entity: row.entity, record_id: row.recordId };
      if (inApp) {
        await ctx.db
          .insertInto(INBOX_TABLE)
          .values({ ...base, title: rendered.title, body: rendered.text })
          .onConflict((oc) => oc.columns(['outbox_id', 'kind', 'user_id']).doNothing())
          .execute();
        told.push(recipient.userId);
      }
      if (email) {
        await ctx.db
          .insertInto(MAIL_TABLE)
          .values({
            ...base,
            to_address: recipient.email,
            subject: rendered.title,
            body_text: rendered.text,
            link: recordPath(entity, row.recordId),
            digest: preference.email === 'digest',
          })
          .onConflict((oc) => oc.columns(['outbox_id', 'kind', 'user_id']).doNothing())
          .execute();
      }
    }
  }
  return told;
}

/**
 * Dispatches pending outbox rows until none is left or `deadline` (ms since the epoch) passes.
 * A row whose dispatch throws (the database away) rolls back and stays pending.
 */
export async function dispatchOutbox(ctx: OpsContext, options: NotifyOptions, deadline: number): Promise<DispatchRun> {
  let dispatched = 0;
  for (;;) {
    if (Date.now() > deadline) return { dispatched, more: true };
    const claimed = await inTransaction(ctx.db, async (trx) => {
      const rows = await claimOutbox(trx);
      const inTrx = { ...ctx, db: trx };
      const told = new Set<number>();
      for (const row of rows) {
        for (const user of await deliver(inTrx, options, row)) told.add(user);
        const change: DispatchedChange = {
          outboxId: row.id,
          at: row.at,
          entity: row.entity,
          recordId: row.recordId,
          kind: row.kind,
          transition: row.transition,
          fields: row.fields,
          actorId: row.actorId,
          notifications: row.notifications,
        };
        for (const subscriber of options.subscribers ?? []) await subscriber(trx, change);
      }
      if (rows.length > 0) {
        await trx
          .updateTable(OUTBOX_TABLE)
          .set({ done_at: sql`now()` })
          .where(
            'id',
            'in',
            rows.map((r) => r.id),
          )
          .execute();
      }
      // Bells refresh once this commits (a NOTIFY is delivered on commit only): user ids, no record fields.
      if (told.size > 0) await sql`select pg_notify(${INBOX_CHANNEL}, ${JSON.stringify([...told])})`.execute(trx);
      return rows.length;
    });
    dispatched += claimed;
    if (claimed < CLAIM_BATCH) return { dispatched, more: false };
  }
}
