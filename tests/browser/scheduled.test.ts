import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, fetchPage, signInOverApi, type ApiSession } from './api-session';
import { axeViolations } from './axe';
import { openBrowser, signIn, type Browser } from './browser';
import { ADMIN, startServer, stopServer, type RunningServer } from './servers';

const SHOTS = '/tmp/shots';

/*
 * Automatic transitions on a served app (tests/browser/specs/newsletter.spec.ts): a scheduled
 * issue publishes itself at its time, by the server's own scheduler, and the page that shows it
 * follows live, its history saying it happened automatically; /api/health reports the run.
 */
describe('transitions that happen by themselves', () => {
  let server: RunningServer;
  let session: ApiSession;
  let editor: Browser;

  beforeAll(async () => {
    server = await startServer('newsletter', {
      NINEFOLD_SPEC: 'tests/browser/specs/newsletter.spec.ts',
      NINEFOLD_ADMIN_EMAIL: ADMIN.email,
      NINEFOLD_ADMIN_PASSWORD: ADMIN.password,
      // A scheduler that looks every second, so that the test need not wait half a minute.
      NINEFOLD_SCHEDULER_SECONDS: '1',
    });
    session = await signInOverApi(server.url, ADMIN.email, ADMIN.password);
    editor = await openBrowser();
    await signIn(editor.page, server.url, ADMIN.email, ADMIN.password);
    mkdirSync(SHOTS, { recursive: true });
  }, 300_000);
  afterAll(async () => {
    await editor?.close();
    if (server) await stopServer(server);
  });

  it('publishes a scheduled issue at its time, live on its open page, with "Automatically" in its history', async () => {
    const publishAt = new Date(Date.now() + 6_000).toISOString();
    const created = await callApi<{ id: number; version: number }>(server.url, session, 'POST', '/issues', {
      title: 'November issue',
      publishAt,
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const scheduled = await callApi(server.url, session, 'POST', `/issues/${id}/transitions/schedule`, { version: created.body.version });
    expect(scheduled.status).toBe(200);

    const { page } = editor;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/issues/${id}`);
    const state = page.locator('main').getByText('Scheduled', { exact: true }).first();
    await expect.poll(() => state.isVisible()).toBe(true);
    // Nobody clicks, nobody reloads: the scheduler publishes it and the page follows.
    await page.evaluate(() => Object.assign(window, { nfMarker: 'same document' }));
    await expect
      .poll(() => page.locator('main').getByText('Published', { exact: true }).first().isVisible(), { timeout: 30_000 })
      .toBe(true);
    expect(await page.evaluate(() => (window as unknown as { nfMarker?: string }).nfMarker)).toBe('same document');
    const history = page.getByRole('list', { name: 'History' });
    await expect.poll(() => history.getByText('Automatically', { exact: true }).first().isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => history.getByText('Automatically, at Publish at.').isVisible()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/scheduled-published-1280.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    const record = await callApi<{ state: string; publishedAt: string }>(server.url, session, 'GET', `/issues/${id}`);
    expect(record.body.state).toBe('published');
    expect(Date.parse(record.body.publishedAt)).toBeGreaterThanOrEqual(Date.parse(publishAt));

    const health = (await (await fetch(`${server.url}/api/health`)).json()) as { scheduler: Record<string, unknown> };
    expect(health.scheduler).toMatchObject({ running: true, intervalSeconds: 1, backlog: 0, lastError: null });
    expect(typeof health.scheduler.lastRunAt).toBe('string');
  });

  it('says in /spec when each automatic transition is taken', async () => {
    const { status, text } = await fetchPage(server.url, session, '/spec');
    expect(status).toBe(200);
    expect(text).toContain('automatically, at publishAt');
    expect(text).toContain('automatically, 30 days (archiveAfterDays) after publishedAt');
  });
});
