import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createActor, countRows, ninefoldError, openSyncedQuickly } from '@testing/engine/ops';
import { forEachDatabase } from '@testing/engine/store';
import { startReceiver, type Receiver } from '@testing/webhooks/receiver';
import { createOps } from '../../ops/create-ops';
import type { Ops } from '../../ops/ops';
import { webhookDeskModel as model } from '@testing/webhooks/desk-model';
import type { Actor } from '../../ground/actor';
import { openStore } from '../../store/open-store';
import type { Store } from '../../store/types';
import { captureLog } from '../../log';
import { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS } from './backoff';
import type { WebhookChange } from './change';
import { listWebhookDeliveries, retryWebhookDelivery } from './deliveries';
import { claimDueDeliveries, deliverDueWebhooks } from './deliver';
import { enqueueWebhookDeliveries } from './enqueue';
import { readRecordAsRole } from './read-as-role';
import { WEBHOOK_DELIVERY_TABLE } from './tables';
import { createScheduler } from '../../scheduler/scheduler';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const SECOND = 1000;

forEachDatabase('webhooks', (database) => {
  let store: Store;
  let ops: Ops;
  let agent: Actor;
  let admin: Actor;
  let receiver: Receiver;
  let env: Record<string, string>;
  // Each test starts its clock a day after the last one's, so that deliveries left by another test are not due in it.
  let clock = Date.parse('2030-01-01T00:00:00Z');

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    agent = await createActor(store.db, ['agent'], 'Ada Agent');
    admin = await createActor(store.db, ['admin'], 'Root Admin');
    receiver = await startReceiver();
    env = { TEST_CRM_URL: receiver.url, TEST_CRM_SECRET: secret };
  });
  afterAll(async () => {
    await receiver.close();
    await store.close();
  });
  beforeEach(async () => {
    // Nothing left due from an earlier test.
    await store.db.updateTable(WEBHOOK_DELIVERY_TABLE).set({ status: 'delivered' }).where('status', '=', 'pending').execute();
    clock += 86_400_000;
    receiver.received.length = 0;
  });

  const at = (offsetMs = 0) => new Date(clock + offsetMs);

  /** A change as the dispatcher hands it over, enqueued in a transaction with the real ops read. */
  async function enqueue(change: Omit<WebhookChange, 'actorId' | 'at' | 'changed'> & { changed?: string[] }): Promise<number> {
    const full: WebhookChange = { changed: [], actorId: String(agent.userId), at: at(), ...change };
    return store.db.transaction().execute((trx) => enqueueWebhookDeliveries(trx, model, full, readRecordAsRole({ model, db: trx }, full)));
  }

  async function newTicket(subject: string) {
    const ticket = await ops.create(agent, 'ticket', { subject, notes: 'internal: customer is grumpy' });
    await enqueue({ entity: 'ticket', recordId: ticket.id, kind: 'create', changed: ['subject', 'notes'] });
    return ticket;
  }

  async function deliveryOf(recordId: number) {
    return store.db
      .selectFrom(WEBHOOK_DELIVERY_TABLE)
      .selectAll()
      .where('webhook', '=', 'crm')
      .where('record_id', '=', String(recordId))
      .executeTakeFirstOrThrow();
  }

  it('posts a signed payload, read with the role’s sight, that an independent implementation verifies', async () => {
    const ticket = await newTicket('Printer jam');
    const run = await deliverDueWebhooks(store.db, model, env, at());
    expect(run).toMatchObject({ delivered: 1, retrying: 0, failed: 0 });
    expect(receiver.received).toHaveLength(1);
    const [post] = receiver.received;
    const verified = new Webhook(secret).verify(post!.body, post!.headers as Record<string, string>) as Record<string, unknown>;
    expect(verified).toMatchObject({
      type: 'ticket.created',
      timestamp: at().toISOString(),
      data: { entity: 'ticket', id: ticket.id, changed: ['subject'] },
    });
    const record = (verified.data as { record: Record<string, unknown> }).record;
    expect(record.subject).toBe('Printer jam');
    // The partner may not read the notes: neither the value nor the field's name is sent.
    expect(record).not.toHaveProperty('notes');
    expect(post!.body).not.toContain('grumpy');
    expect(post!.headers['content-type']).toBe('application/json');
    const delivery = await deliveryOf(ticket.id);
    expect(post!.headers['webhook-id']).toBe(delivery.event_id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, last_status: 200 });
    expect(await deliverDueWebhooks(store.db, model, env, at(3600 * SECOND))).toMatchObject({ delivered: 0 });
    expect(receiver.received).toHaveLength(1);
  });

  it('is posted by the scheduler’s run, a spec without automatic transitions included', async () => {
    const ticket = await newTicket('Sent by the scheduler');
    const scheduler = createScheduler({ model, db: store.db }, { env });
    await scheduler.runOnce(at());
    expect(await deliveryOf(ticket.id)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(receiver.received).toHaveLength(1);
  });

  it('tells of transitions and deletions, only to the webhooks that list them', async () => {
    const ticket = await newTicket('Screen flickers');
    const resolved = await ops.transition(agent, 'ticket', ticket.id, 'resolve', { version: ticket.version });
    expect(await enqueue({ entity: 'ticket', recordId: ticket.id, kind: 'transition', transition: 'resolve', changed: ['state'] })).toBe(1);
    expect(await enqueue({ entity: 'ticket', recordId: ticket.id, kind: 'transition', transition: 'reopen' })).toBe(0);
    await ops.delete(agent, 'ticket', ticket.id, resolved.version);
    expect(await enqueue({ entity: 'ticket', recordId: ticket.id, kind: 'delete' })).toBe(1);
    await deliverDueWebhooks(store.db, model, env, at());
    const bodies = receiver.received.map((post) => JSON.parse(post.body) as { type: string; data: { record: unknown; changed: string[] } });
    expect(bodies.map((b) => b.type).sort()).toEqual(['ticket.created', 'ticket.deleted', 'ticket.resolve']);
    expect(bodies.find((b) => b.type === 'ticket.resolve')!.data).toMatchObject({ record: { state: 'resolved' }, changed: ['state'] });
    expect(bodies.find((b) => b.type === 'ticket.deleted')!.data).toMatchObject({ record: null, changed: [] });
  });

  it('tries again after a 500 when its time comes, with the same webhook-id, and logs both attempts', async () => {
    const ticket = await newTicket('Mouse gone');
    receiver.answer(500);
    expect(await deliverDueWebhooks(store.db, model, env, at())).toMatchObject({ delivered: 0, retrying: 1 });
    let delivery = await deliveryOf(ticket.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_status: 500, last_error: 'HTTP 500' });
    expect(new Date(delivery.next_attempt_at as string).getTime()).toBe(at(RETRY_DELAYS_SECONDS[0]! * SECOND).getTime());

    expect(await deliverDueWebhooks(store.db, model, env, at(2 * SECOND))).toMatchObject({ delivered: 0, retrying: 0 });
    expect(await deliverDueWebhooks(store.db, model, env, at(5 * SECOND))).toMatchObject({ delivered: 1 });
    delivery = await deliveryOf(ticket.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, last_status: 200, last_error: null });
    expect(receiver.received.map((post) => post.headers['webhook-id'])).toEqual([delivery.event_id, delivery.event_id]);

    const page = await listWebhookDeliveries(store.db, model, admin, { webhook: 'crm', status: 'delivered', limit: 1 });
    expect(page.items[0]).toMatchObject({ id: Number(delivery.id), status: 'delivered', attempts: 2 });
    expect(page.items[0]!.log.map((a) => [a.httpStatus, a.error, a.responseExcerpt])).toEqual([
      [500, 'HTTP 500', 'no: 500'],
      [200, null, 'thanks'],
    ]);
  });

  it('stops at once on 410 Gone', async () => {
    const ticket = await newTicket('Unsubscribed');
    receiver.answer(410);
    expect(await deliverDueWebhooks(store.db, model, env, at())).toMatchObject({ failed: 1 });
    expect(await deliveryOf(ticket.id)).toMatchObject({ status: 'failed', attempts: 1, last_status: 410 });
    await deliverDueWebhooks(store.db, model, env, at(86_400 * SECOND));
    expect(receiver.received).toHaveLength(1);
  });

  it('counts no answer within the timeout as a failed attempt', async () => {
    const ticket = await newTicket('Slow receiver');
    receiver.answer('hang');
    expect(await deliverDueWebhooks(store.db, model, env, at(), { timeoutMs: 200 })).toMatchObject({ retrying: 1 });
    expect(await deliveryOf(ticket.id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status: null,
      last_error: 'no answer within 0.2 s',
    });
  });

  it('fails after the last attempt, about a day later, and an administrator may send it again', async () => {
    const ticket = await newTicket('Never accepted');
    receiver.answer(...Array<number>(MAX_ATTEMPTS).fill(503));
    let elapsed = 0;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      await deliverDueWebhooks(store.db, model, env, at(elapsed * SECOND));
      elapsed += RETRY_DELAYS_SECONDS[attempt - 1] ?? 0;
    }
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    const failed = await deliveryOf(ticket.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, last_status: 503 });
    expect(elapsed / 3600).toBeGreaterThan(24);

    // Send again: due now, its attempts kept in the log.
    const refused = await ninefoldError(retryWebhookDelivery(store.db, model, agent, Number(failed.id), at(elapsed * SECOND)));
    expect(refused.code).toBe('FORBIDDEN');
    expect(await deliveryOf(ticket.id)).toMatchObject({ status: 'failed' });
    expect((await ninefoldError(retryWebhookDelivery(store.db, model, admin, 99_999_999, at()))).code).toBe('NOT_FOUND');
    await retryWebhookDelivery(store.db, model, admin, Number(failed.id), at(elapsed * SECOND));
    expect(await deliverDueWebhooks(store.db, model, env, at(elapsed * SECOND))).toMatchObject({ delivered: 1 });
    const page = await listWebhookDeliveries(store.db, model, admin, { status: 'delivered', limit: 1 });
    expect(page.items[0]!.log).toHaveLength(MAX_ATTEMPTS + 1);
  });

  it('takes a crashed sender’s claimed delivery again once its lease has ended', async () => {
    const ticket = await newTicket('Sender died');
    // A sender claims it and dies before posting.
    const claimed = await claimDueDeliveries(store.db, ['crm'], at());
    expect(claimed.map((d) => d.id)).toContain(Number((await deliveryOf(ticket.id)).id));
    expect(await deliverDueWebhooks(store.db, model, env, at(30 * SECOND))).toMatchObject({ delivered: 0 });
    expect(receiver.received).toHaveLength(0);
    expect(await deliverDueWebhooks(store.db, model, env, at(61 * SECOND))).toMatchObject({ delivered: 1 });
    expect(await deliveryOf(ticket.id)).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('keeps the deliveries of a webhook whose variables are not set, says so once, and sends them once set', async () => {
    const ticket = await ops.create(agent, 'ticket', { subject: 'Offline one' });
    expect(await enqueue({ entity: 'ticket', recordId: ticket.id, kind: 'create' })).toBe(2);
    const offLogged = new Set<string>();
    const { lines } = await captureLog(async () => {
      await deliverDueWebhooks(store.db, model, env, at(), { offLogged });
      await deliverDueWebhooks(store.db, model, env, at(SECOND), { offLogged });
    });
    expect(lines.filter((line) => line.msg === 'webhook off')).toEqual([
      expect.objectContaining({ webhook: 'offline', reason: 'TEST_OFFLINE_URL is not set' }),
    ]);
    const offline = await store.db
      .selectFrom(WEBHOOK_DELIVERY_TABLE)
      .selectAll()
      .where('webhook', '=', 'offline')
      .where('record_id', '=', String(ticket.id))
      .executeTakeFirstOrThrow();
    expect(offline).toMatchObject({ status: 'pending', attempts: 0 });
    const withOffline = { ...env, TEST_OFFLINE_URL: receiver.url, TEST_OFFLINE_SECRET: secret };
    expect(await deliverDueWebhooks(store.db, model, withOffline, at(2 * SECOND))).toMatchObject({ delivered: 1 });
  });

  it('shows the delivery log to administrators only, newest first, a page at a time', async () => {
    for (const subject of ['Page one', 'Page two', 'Page three']) await newTicket(subject);
    expect((await ninefoldError(listWebhookDeliveries(store.db, model, agent))).code).toBe('FORBIDDEN');
    const first = await listWebhookDeliveries(store.db, model, admin, { webhook: 'crm', limit: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.items[0]!.id).toBeGreaterThan(first.items[1]!.id);
    const second = await listWebhookDeliveries(store.db, model, admin, { webhook: 'crm', limit: 2, cursor: first.nextCursor! });
    expect(second.items[0]!.id).toBeLessThan(first.items[1]!.id);
    const invalid = await ninefoldError(listWebhookDeliveries(store.db, model, admin, { status: 'lost', webhook: 'nope', cursor: 'x' }));
    expect(invalid.code).toBe('VALIDATION_FAILED');
    expect(invalid.fieldErrors.map((e) => e.field)).toEqual(['status', 'webhook', 'cursor']);
  });

  // Two connections at once: PostgreSQL only (PGlite has one connection).
  if (database.kind === 'postgres') {
    it('two senders on separate connections send each delivery exactly once', async () => {
      const other = await openStore({ databaseUrl: (await database.options()).databaseUrl!, dataDir: '' });
      try {
        const tickets = [];
        for (let n = 0; n < 25; n += 1) tickets.push(await newTicket(`Fleet ${n}`));
        await Promise.all([
          deliverDueWebhooks(store.db, model, env, at()),
          deliverDueWebhooks(other.db, model, env, at()),
          deliverDueWebhooks(store.db, model, env, at()),
          deliverDueWebhooks(other.db, model, env, at()),
        ]);
        const ids = receiver.received.map((post) => post.headers['webhook-id']);
        expect(ids).toHaveLength(25);
        expect(new Set(ids).size).toBe(25);
        expect(await countRows(store.db, 'nf_webhook_attempt')).toBeGreaterThanOrEqual(25);
      } finally {
        await other.close();
      }
    });
  }
});
