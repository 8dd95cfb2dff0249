import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';
import { createActor } from '@testing/engine/ops';
import { deskSpec } from '@testing/engine/notify';
import { buildModel } from '../spec/build';
import type { Store } from '../store/types';
import { DIGEST_TABLE, INBOX_TABLE, MAIL_TABLE, OUTBOX_TABLE, REMINDER_TABLE } from '../store/schema/notify-tables';
import { pruneDelivered, RETENTION_DAYS } from './retention';
import { WEBHOOK_ATTEMPT_TABLE, WEBHOOK_DELIVERY_TABLE } from './webhooks/tables';

/*
 * What delivery leaves behind goes once past its keeping: dispatched outbox rows after a week,
 * sent e-mails, digests' days and finished webhook deliveries (with their attempts) after a
 * month, a "before" reminder once its time has passed. Nothing pending goes, nor the inbox, nor
 * an "after" reminder (its row is what keeps it from being sent again).
 */
const model = buildModel({
  ...deskSpec,
  notifications: {
    ...deskSpec.notifications,
    idle: { entity: 'ticket', on: { after: 'updatedAt', days: 14 }, to: ['assignee'], title: '{subject} is idle' },
  },
  webhooks: { log: { url: { env: 'TEST_LOG_URL' }, secret: { env: 'TEST_LOG_SECRET' }, events: ['ticket.created'], role: 'agent' } },
});
const DAY = 86_400_000;

forEachDatabase('notifications: retention', (database) => {
  let store: Store;
  let userId: number;

  beforeAll(async () => {
    store = await database.openSynced(model);
    userId = (await createActor(store.db, ['agent'], 'Rita Retained')).userId;
  });
  afterAll(() => store.close());

  it('deletes each kind of finished row past its keeping, and nothing else', async () => {
    const now = new Date();
    const ago = (days: number) => new Date(now.getTime() - days * DAY);
    const outbox = (doneAt: Date | null) =>
      sql<{ id: string }>`insert into ${sql.table(OUTBOX_TABLE)} (entity, record_id, kind, fields, notifications, done_at)
        values ('ticket', 1, 'update', '{}', '{}', ${doneAt}) returning id`.execute(store.db);
    const oldDone = await outbox(ago(RETENTION_DAYS.outbox + 1));
    const recentDone = await outbox(ago(RETENTION_DAYS.outbox - 1));
    const pending = await outbox(null);
    const oldOutboxId = Number(oldDone.rows[0]!.id);
    const mail = (n: number, sentAt: Date | null) =>
      store.db
        .insertInto(MAIL_TABLE)
        .values({
          user_id: userId,
          outbox_id: n,
          kind: 'ticketAssigned',
          entity: 'ticket',
          record_id: 1,
          to_address: 'rita@example.com',
          subject: `Mail ${n}`,
          body_text: '',
          link: '/tickets/1',
          sent_at: sentAt,
        })
        .execute();
    await mail(1, ago(RETENTION_DAYS.mail + 1));
    await mail(2, ago(RETENTION_DAYS.mail - 1));
    await mail(3, null);
    await store.db
      .insertInto(INBOX_TABLE)
      .values({
        user_id: userId,
        outbox_id: oldOutboxId,
        kind: 'ticketAssigned',
        entity: 'ticket',
        record_id: 1,
        title: 'Kept',
        created_at: ago(400),
      })
      .execute();
    await store.db
      .insertInto(DIGEST_TABLE)
      .values({ user_id: userId, day: sql`'2020-01-01'::date`, sent_at: ago(RETENTION_DAYS.mail + 1) })
      .execute();
    await store.db
      .insertInto(DIGEST_TABLE)
      .values({ user_id: userId, day: sql`'2020-01-02'::date`, sent_at: ago(1) })
      .execute();
    await store.db
      .insertInto(REMINDER_TABLE)
      .values([
        { notification: 'dueSoon', record_id: 1, at: ago(2) },
        { notification: 'dueSoon', record_id: 2, at: new Date(now.getTime() + DAY) },
        { notification: 'idle', record_id: 1, at: ago(300) },
      ])
      .execute();
    const delivery = (status: string, updatedAt: Date, n: number) =>
      sql<{
        id: string;
      }>`insert into ${sql.table(WEBHOOK_DELIVERY_TABLE)} (webhook, event_id, event_type, entity, record_id, payload, status, updated_at)
        values ('log', ${`evt_${n}`}, 'ticket.created', 'ticket', '1', '{}', ${status}, ${updatedAt}) returning id`.execute(store.db);
    const oldDelivered = Number((await delivery('delivered', ago(RETENTION_DAYS.webhooks + 1), 1)).rows[0]!.id);
    await delivery('failed', ago(RETENTION_DAYS.webhooks - 1), 2);
    await delivery('pending', ago(RETENTION_DAYS.webhooks + 5), 3);
    await store.db
      .insertInto(WEBHOOK_ATTEMPT_TABLE)
      .values({ delivery_id: oldDelivered, at: ago(RETENTION_DAYS.webhooks + 1), http_status: 200, duration_ms: 5 })
      .execute();

    expect(await pruneDelivered({ model, db: store.db }, now)).toBe(5);

    const ids = async (table: string, column = 'id') =>
      (await sql<{ v: unknown }>`select ${sql.ref(column)} as v from ${sql.table(table)} order by 1`.execute(store.db)).rows.map((r) =>
        String(r.v),
      );
    expect(await ids(OUTBOX_TABLE)).toEqual([recentDone.rows[0]!.id, pending.rows[0]!.id].map(String));
    expect(await ids(MAIL_TABLE, 'subject')).toEqual(['Mail 2', 'Mail 3']);
    expect(await ids(INBOX_TABLE, 'title')).toEqual(['Kept']);
    expect(await ids(DIGEST_TABLE, 'sent_at')).toHaveLength(1);
    expect(
      (
        await sql<{
          n: string;
          r: string;
        }>`select notification as n, record_id as r from ${sql.table(REMINDER_TABLE)} order by 1, 2`.execute(store.db)
      ).rows.map((r) => `${r.n}:${r.r}`),
    ).toEqual(['dueSoon:2', 'idle:1']);
    expect(await ids(WEBHOOK_DELIVERY_TABLE, 'status')).toEqual(['failed', 'pending']);
    expect(await ids(WEBHOOK_ATTEMPT_TABLE)).toEqual([]);
    // Again: nothing more is past its keeping.
    expect(await pruneDelivered({ model, db: store.db }, now)).toBe(0);
  });
});
