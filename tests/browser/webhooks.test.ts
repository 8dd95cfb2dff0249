import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueWebhookDeliveries } from '../../src/engine/notify/webhooks/enqueue';
import { loadSpecFile } from '../../src/engine/spec/load-file';
import { openStore } from '../../src/engine/store/open-store';
import { syncSchema } from '../../src/engine/store/schema/sync';
import { startReceiver, type Receiver } from '../../testing/webhooks/receiver';
import { callApi, signInOverApi, type ApiSession } from './api-session';
import { axeViolations } from './axe';
import { openBrowser, signIn, type Browser } from './browser';
import { ADMIN, startServer, stopServer, type RunningServer } from './servers';

const SPEC = 'tests/browser/specs/webhooks.spec.ts';
const secret = `whsec_${randomBytes(32).toString('base64')}`;

interface Delivery {
  id: number;
  eventId: string;
  status: string;
  attempts: number;
  log: unknown[];
}

/*
 * /admin/webhooks on a served app: a delivery the receiver refused with 410 Gone is failed; an
 * administrator presses "Send again" in a browser without JavaScript, and the server's own
 * scheduler posts it again, signed, with the same webhook-id.
 */
describe('/admin/webhooks', () => {
  let server: RunningServer;
  let receiver: Receiver;
  let session: ApiSession;
  let admin: Browser;

  beforeAll(async () => {
    // A delivery queued before the server starts, as the notifications' dispatcher would queue it.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'nf-browser-webhooks-'));
    const model = await loadSpecFile(path.resolve(SPEC));
    const store = await openStore({ dataDir });
    await syncSchema(store, model);
    const change = { entity: 'ticket', recordId: 7, kind: 'create' as const, changed: ['subject'], actorId: null, at: new Date() };
    await store.db
      .transaction()
      .execute((trx) => enqueueWebhookDeliveries(trx, model, change, async () => ({ id: 7, subject: 'Printer <jam>' })));
    await store.close();

    receiver = await startReceiver();
    receiver.answer(410);
    server = await startServer(
      'webhooks',
      {
        NINEFOLD_SPEC: SPEC,
        NINEFOLD_ADMIN_EMAIL: ADMIN.email,
        NINEFOLD_ADMIN_PASSWORD: ADMIN.password,
        NINEFOLD_SCHEDULER_SECONDS: '1',
        TEST_CRM_URL: receiver.url,
        TEST_CRM_SECRET: secret,
      },
      dataDir,
    );
    session = await signInOverApi(server.url, ADMIN.email, ADMIN.password);
    admin = await openBrowser({ javaScriptEnabled: false });
    await signIn(admin.page, server.url, ADMIN.email, ADMIN.password);
  }, 300_000);
  afterAll(async () => {
    await admin?.close();
    if (server) await stopServer(server);
    await receiver?.close();
  });

  const delivery = async () =>
    (await callApi<{ items: Delivery[] }>(server.url, session, 'GET', '/webhooks/deliveries?webhook=crm')).body.items[0]!;

  it('shows a failed delivery with its attempt, and sends it again without JavaScript', async () => {
    await expect.poll(async () => (await delivery()).status, { timeout: 30_000 }).toBe('failed');
    const { page } = admin;
    await page.goto(`${server.url}/admin`);
    await Promise.all([page.waitForURL(`${server.url}/admin/webhooks`), page.getByRole('link', { name: 'Webhooks' }).first().click()]);

    const main = page.locator('main');
    const deliveries = page.getByRole('list', { name: 'Deliveries' });
    await expect.poll(() => main.getByText('Off: TEST_OFFLINE_URL is not set').isVisible()).toBe(true);
    await expect.poll(() => deliveries.getByText('failed', { exact: true }).isVisible()).toBe(true);
    expect(await deliveries.getByText(/last: HTTP 410/).isVisible()).toBe(true);
    await page.screenshot({ path: '/tmp/shots/admin-webhooks-1280.png', fullPage: true });

    const failed = await delivery();
    await page
      .getByRole('form', { name: `Send delivery ${failed.id} again` })
      .getByRole('button', { name: 'Send again' })
      .click();
    await page.waitForLoadState('load');
    await expect.poll(async () => (await delivery()).status, { timeout: 30_000 }).toBe('delivered');
    await page.goto(`${server.url}/admin/webhooks?status=delivered&webhook=crm`);
    await expect.poll(() => deliveries.getByText('delivered', { exact: true }).isVisible()).toBe(true);
    expect(await deliveries.getByText(/2 attempts/).isVisible()).toBe(true);

    // Both posts: the same webhook-id, each signed so that an independent implementation accepts it.
    const sent = await delivery();
    expect(receiver.received).toHaveLength(2);
    for (const post of receiver.received) {
      expect(post.headers['webhook-id']).toBe(sent.eventId);
      expect(new Webhook(secret).verify(post.body, post.headers as Record<string, string>)).toMatchObject({
        type: 'ticket.created',
        data: { entity: 'ticket', id: 7, record: { subject: 'Printer <jam>' } },
      });
    }
  });

  it('passes axe with a delivery’s payload and attempts open (with JavaScript)', async () => {
    const browser = await openBrowser();
    try {
      await signIn(browser.page, server.url, ADMIN.email, ADMIN.password);
      await browser.page.goto(`${server.url}/admin/webhooks?webhook=crm`);
      await browser.page.getByText('Payload and attempts').first().click();
      await expect.poll(() => browser.page.getByRole('table').first().isVisible()).toBe(true);
      expect(await axeViolations(browser.page)).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('is for administrators only', async () => {
    const page = await fetch(`${server.url}/admin/webhooks`, { redirect: 'manual' });
    expect([303, 307, 308]).toContain(page.status);
    expect(page.headers.get('location')).toContain('/sign-in');
  });
});
