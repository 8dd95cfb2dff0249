import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, signInOverApi, type ApiSession } from './api-session';
import { openBrowser, signIn, sidewaysScroll, type Browser } from './browser';
import { DEMO_AGENT, DEMO_CUSTOMER } from './servers';

const server = inject('helpdesk');
const SHOTS = '/tmp/shots';

/** Records every event the page's EventSource receives, before any script of the page runs. */
const RECORD_LIVE_EVENTS = `(() => {
  window.nfLiveEvents = [];
  window.nfLiveSources = [];
  const Native = window.EventSource;
  window.EventSource = class extends Native {
    constructor(url, init) {
      super(url, init);
      window.nfLiveSources.push(this);
      this.addEventListener('open', () => window.nfLiveEvents.push({ type: 'open', data: '' }));
      for (const type of ['change', 'resync', 'end']) this.addEventListener(type, (event) => window.nfLiveEvents.push({ type, data: event.data }));
    }
  };
})();`;

interface LiveEvent {
  readonly type: string;
  readonly data: string;
}

const liveEvents = (page: Page) => page.evaluate(() => (window as unknown as { nfLiveEvents: LiveEvent[] }).nfLiveEvents);
/** Every comment id the page's stream named. */
const commentIds = async (page: Page) =>
  (await liveEvents(page))
    .filter((e) => e.type === 'change')
    .flatMap((e) => (JSON.parse(e.data) as Record<string, number[] | null>).comment ?? []);
const markPage = (page: Page) => page.evaluate(() => Object.assign(window, { nfMarker: 'same document' }));
const samePage = (page: Page) => page.evaluate(() => (window as unknown as { nfMarker?: string }).nfMarker);
/** The stream opens a moment after the page has loaded (see LiveConnection). */
const streamOpen = (page: Page) =>
  page.waitForFunction(() => (window as unknown as { nfLiveEvents: LiveEvent[] }).nfLiveEvents.some((e) => e.type === 'open'), undefined, {
    timeout: 15_000,
  });

/*
 * Live pages: what another user changes appears on the open pages showing it, without a reload,
 * keeping what the user is typing; what the viewer may not read never reaches their browser, not
 * even as an event; an edit form whose record changed says so and offers the stale view.
 */
describe('live pages', () => {
  let customer: Browser;
  let agent: Browser;
  let customerApi: ApiSession;
  let agentApi: ApiSession;
  let ticketId = 0;
  const tag = randomUUID().slice(0, 8);

  const thread = (page: Page) => page.getByRole('list', { name: 'Comments' }).locator(':scope > li');
  const state = async (page: Page) => (await page.getByRole('region', { name: 'Workflow' }).locator('h2 + span').textContent())!.trim();
  const comment = async (body: string, internal = false) => {
    const created = await callApi<{ id: number }>(server.url, agentApi, 'POST', '/comments', { ticket: ticketId, body, internal });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id;
  };

  beforeAll(async () => {
    [customer, agent] = await Promise.all([openBrowser(), openBrowser()]);
    await Promise.all([customer.context.addInitScript(RECORD_LIVE_EVENTS), agent.context.addInitScript(RECORD_LIVE_EVENTS)]);
    await signIn(customer.page, server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    await signIn(agent.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
    [customerApi, agentApi] = await Promise.all([
      signInOverApi(server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password),
      signInOverApi(server.url, DEMO_AGENT.email, DEMO_AGENT.password),
    ]);
    const created = await callApi<{ id: number }>(server.url, customerApi, 'POST', '/tickets', {
      subject: `Live ${tag}`,
      description: 'Watching it change.',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    ticketId = created.body.id;
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(() => Promise.all([customer, agent].filter(Boolean).map((b) => b.close())));

  it(
    "shows the agent's changes on the customer's open ticket, never an internal note, and keeps the typed reply",
    { timeout: 120_000 },
    async () => {
      const page = customer.page;
      await page.goto(`${server.url}/tickets/${ticketId}`);
      await streamOpen(page);
      await markPage(page);
      expect(await state(page)).toBe('New');
      await page.getByRole('form', { name: 'Reply' }).getByLabel('Body').fill(`Half-written answer ${tag}`);

      // A state change by the agent.
      const current = await callApi<{ version: number }>(server.url, agentApi, 'GET', `/tickets/${ticketId}`);
      const started = await callApi(server.url, agentApi, 'POST', `/tickets/${ticketId}/transitions/start`, {
        version: current.body.version,
        input: { assignee: agentApi.user.id },
      });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      await expect.poll(() => state(page)).toBe('Open');

      // An internal note, then a public reply: only the reply reaches the customer's page and stream.
      const note = await comment(`Internal remark ${tag}`, true);
      const reply = await comment(`Public answer ${tag}`);
      await expect.poll(() => thread(page).allInnerTexts()).toEqual([expect.stringContaining(`Public answer ${tag}`)]);
      expect(await samePage(page)).toBe('same document');
      expect(await page.getByRole('form', { name: 'Reply' }).getByLabel('Body').inputValue()).toBe(`Half-written answer ${tag}`);
      expect(await commentIds(page)).toContain(reply);
      expect(await commentIds(page)).not.toContain(note);
      expect(JSON.stringify(await liveEvents(page))).not.toContain('null');
      expect(await page.content()).not.toContain(`Internal remark ${tag}`);

      // The agent's stream did hear of the note.
      await agent.page.goto(`${server.url}/tickets/${ticketId}`);
      await streamOpen(agent.page);
      const another = await comment(`Second internal remark ${tag}`, true);
      await expect.poll(() => commentIds(agent.page)).toContain(another);
      await expect.poll(() => thread(agent.page).count()).toBe(3);
      // A later public reply reaches the customer: by then the note's batch was long decided.
      const later = await comment(`Later answer ${tag}`);
      await expect.poll(() => commentIds(page)).toContain(later);
      expect(await commentIds(page)).not.toContain(another);
      await expect
        .poll(() => thread(page).allInnerTexts())
        .toEqual([expect.stringContaining(`Public answer ${tag}`), expect.stringContaining(`Later answer ${tag}`)]);
      expect(await page.getByRole('form', { name: 'Reply' }).getByLabel('Body').inputValue()).toBe(`Half-written answer ${tag}`);

      await page.screenshot({ path: path.join(SHOTS, 'live-ticket-customer.png'), fullPage: true });
      await page.setViewportSize({ width: 360, height: 800 });
      await page.screenshot({ path: path.join(SHOTS, 'live-ticket-customer-phone.png'), fullPage: true });
      expect(await sidewaysScroll(page)).toBe(0);
      await page.setViewportSize({ width: 1280, height: 900 });
    },
  );

  it("updates the agent's list and home when a customer opens a ticket", { timeout: 120_000 }, async () => {
    const page = agent.page;
    await page.goto(`${server.url}/tickets`);
    await streamOpen(page);
    await markPage(page);
    const subject = `Fresh on the list ${tag}`;
    const created = await callApi<{ id: number }>(server.url, customerApi, 'POST', '/tickets', { subject });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await expect.poll(() => page.getByRole('link', { name: subject }).count()).toBeGreaterThan(0);
    expect(await samePage(page)).toBe('same document');

    // A second tab shares the first one's connection (browsers allow six per host) and updates too.
    const second = await agent.context.newPage();
    try {
      await second.goto(`${server.url}/tickets`);
      await markPage(second);
      const next = `Seen in both tabs ${tag}`;
      const again = await callApi<{ id: number }>(server.url, customerApi, 'POST', '/tickets', { subject: next });
      expect(again.status, JSON.stringify(again.body)).toBe(201);
      await expect.poll(() => second.getByRole('link', { name: next }).count()).toBeGreaterThan(0);
      await expect.poll(() => page.getByRole('link', { name: next }).count()).toBeGreaterThan(0);
      expect(await samePage(second)).toBe('same document');
      const sources = (p: Page) => p.evaluate(() => (window as unknown as { nfLiveSources: EventSource[] }).nfLiveSources.length);
      expect((await sources(page)) + (await sources(second))).toBe(1);
    } finally {
      await second.close();
    }

    await page.goto(`${server.url}/`);
    await streamOpen(page);
    await markPage(page);
    const numbers = () => page.locator('main').innerText();
    const before = await numbers();
    const another = await callApi<{ id: number }>(server.url, customerApi, 'POST', '/tickets', { subject: `Counted on the home ${tag}` });
    expect(another.status, JSON.stringify(another.body)).toBe(201);
    await expect.poll(numbers).not.toBe(before);
    expect(await samePage(page)).toBe('same document');
    await page.screenshot({ path: path.join(SHOTS, 'live-home-agent.png'), fullPage: true });
  });

  it('says so during a long outage, reconnects, and catches up on what it missed', { timeout: 120_000 }, async () => {
    const page = customer.page;
    await page.goto(`${server.url}/tickets/${ticketId}`);
    await streamOpen(page);
    await markPage(page);
    // The connection drops and the server cannot be reached for a while.
    await page.route('**/api/live**', (route) => route.abort());
    await page.evaluate(() => {
      for (const source of (window as unknown as { nfLiveSources: EventSource[] }).nfLiveSources) source.dispatchEvent(new Event('error'));
    });
    const status = page.getByRole('status').filter({ hasText: 'Reconnecting to live updates…' });
    await status.waitFor({ timeout: 20_000 });
    await page.screenshot({ path: path.join(SHOTS, 'live-reconnecting.png') });
    const missed = await comment(`Sent during the outage ${tag}`);
    await page.unroute('**/api/live**');
    // Back: the status goes, and the page catches up once (the change itself was never heard).
    await status.waitFor({ state: 'detached', timeout: 40_000 });
    await expect
      .poll(() => thread(page).allInnerTexts(), { timeout: 10_000 })
      .toContainEqual(expect.stringContaining(`Sent during the outage ${tag}`));
    expect(await commentIds(page)).not.toContain(missed);
    expect(await samePage(page)).toBe('same document');
  });

  it('tells an editor that the record changed meanwhile and shows what changed', { timeout: 120_000 }, async () => {
    const page = customer.page;
    await page.goto(`${server.url}/tickets/${ticketId}/edit`);
    await streamOpen(page);
    await page.getByLabel('Subject').fill(`My better subject ${tag}`);
    const current = await callApi<{ version: number }>(server.url, agentApi, 'GET', `/tickets/${ticketId}`);
    const patched = await callApi(server.url, agentApi, 'PATCH', `/tickets/${ticketId}`, {
      version: current.body.version,
      priority: 'urgent',
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);

    const notice = page.getByRole('alert').filter({ hasText: 'This ticket was changed by someone else while you were editing.' });
    await notice.waitFor();
    // Not refreshed under the user: what they typed is still there.
    expect(await page.getByLabel('Subject').inputValue()).toBe(`My better subject ${tag}`);
    await page.screenshot({ path: path.join(SHOTS, 'live-edit-notice.png'), fullPage: true });
    await page.setViewportSize({ width: 360, height: 800 });
    await page.screenshot({ path: path.join(SHOTS, 'live-edit-notice-phone.png'), fullPage: true });
    expect(await sidewaysScroll(page)).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });

    await notice.getByRole('button', { name: 'Show what changed' }).click();
    const stale = page.locator('#stale-notice');
    await stale.waitFor();
    expect(await stale.innerText()).toContain('This ticket was changed by someone else.');
    expect(await stale.getByRole('list', { name: 'What changed' }).innerText()).toMatch(/Priority:\s+Normal\s+→\s+now\s+Urgent/);
    expect(await page.getByLabel('Subject').inputValue()).toBe(`My better subject ${tag}`);
  });
});
