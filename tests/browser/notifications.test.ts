import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, requesterId, signInOverApi, type ApiSession } from './api-session';
import { axeViolations } from './axe';
import { openBrowser, signIn, type Browser } from './browser';
import { ADMIN, DEMO_AGENT } from './servers';

const server = inject('helpdesk');

/** Records the page's live stream opening, before any script of the page runs. */
const RECORD_STREAM_OPEN = `(() => {
  window.nfStreamOpen = false;
  const Native = window.EventSource;
  window.EventSource = class extends Native {
    constructor(url, init) {
      super(url, init);
      this.addEventListener('open', () => (window.nfStreamOpen = true));
    }
  };
})();`;

const streamOpen = (page: Page) =>
  page.waitForFunction(() => (window as unknown as { nfStreamOpen: boolean }).nfStreamOpen, undefined, { timeout: 15_000 });
/** The number on the bell; 0 when it shows none. */
const bellCount = async (page: Page) => {
  const badge = page.getByTestId('inbox-count');
  return (await badge.count()) === 0 ? 0 : Number(await badge.textContent());
};

/*
 * Notifications in the browser: the agent's bell rises live when an administrator assigns them a
 * ticket (no reload), the inbox lists it with a link to the ticket, and reading lowers the count.
 */
describe('notifications', () => {
  let agent: Browser;
  let agentApi: ApiSession;
  let adminApi: ApiSession;
  const tag = randomUUID().slice(0, 8);

  const assignToAgent = async (subject: string) => {
    const created = await callApi<{ id: number }>(server.url, adminApi, 'POST', '/tickets', {
      requester: await requesterId(server.url),
      subject,
      assignee: agentApi.user.id,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id;
  };

  beforeAll(async () => {
    agent = await openBrowser();
    await agent.context.addInitScript(RECORD_STREAM_OPEN);
    [agentApi, adminApi] = await Promise.all([
      signInOverApi(server.url, DEMO_AGENT.email, DEMO_AGENT.password),
      signInOverApi(server.url, ADMIN.email, ADMIN.password),
    ]);
    // Whatever other tests left unread: the bell starts at none.
    expect((await callApi(server.url, agentApi, 'POST', '/inbox/read-all')).status).toBe(200);
    await signIn(agent.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
  });
  afterAll(() => agent?.close());

  it("rings the agent's bell live when a ticket is assigned to them; the inbox links to it; reading lowers the count", async () => {
    const page = agent.page;
    await page.goto(`${server.url}/tickets`);
    await streamOpen(page);
    await page.evaluate(() => Object.assign(window, { nfMarker: 'same document' }));
    expect(await bellCount(page)).toBe(0);

    const first = await assignToAgent(`Bell one ${tag}`);
    await expect.poll(() => bellCount(page)).toBe(1);
    const second = await assignToAgent(`Bell two ${tag}`);
    await expect.poll(() => bellCount(page)).toBe(2);
    expect(await page.evaluate(() => (window as unknown as { nfMarker?: string }).nfMarker)).toBe('same document');
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'unread notification' }).textContent())
      .toBe('You have 2 unread notifications');
    expect(await page.getByRole('link', { name: 'Notifications: 2 unread' }).count()).toBe(1);

    await page.getByTestId('inbox-bell').click();
    await page.waitForURL(`${server.url}/inbox`);
    const inbox = page.getByTestId('inbox');
    const entry = (id: number) => inbox.getByRole('link', { name: `Unread: Ticket #${id} was assigned to you` });
    expect(await entry(first).getAttribute('href')).toBe(`/tickets/${first}`);
    expect(await entry(second).getAttribute('href')).toBe(`/tickets/${second}`);
    expect(await inbox.textContent()).toContain(`Bell one ${tag}`);
    expect(await axeViolations(page)).toEqual([]);

    await inbox
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: `Unread: Ticket #${second} was assigned to you` }) })
      .getByRole('button', { name: 'Mark read' })
      .click();
    await expect.poll(() => bellCount(page)).toBe(1);
    // The bell may follow the read (live) before the inbox's own answer has rendered.
    await expect.poll(() => inbox.getByRole('link', { name: `Ticket #${second} was assigned to you`, exact: true }).count()).toBe(1);

    await page.getByRole('button', { name: 'Mark all read' }).click();
    await expect.poll(() => bellCount(page)).toBe(0);
    await expect.poll(() => page.getByText('Nothing unread.').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Notifications: none unread' }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    await inbox.getByRole('link', { name: `Ticket #${first} was assigned to you`, exact: true }).click();
    await page.waitForURL(`${server.url}/tickets/${first}`);
  });

  it('keeps each kind’s choices on /account (no in-app for assignments), and a watched ticket’s replies reach the bell; mute and unmute', async () => {
    const page = agent.page;
    await page.goto(`${server.url}/account`);
    const section = page.getByRole('region', { name: 'Notifications' });
    const assigned = section.getByRole('listitem').filter({ hasText: 'A ticket is assigned to you' });
    const assignedInApp = assigned.getByRole('checkbox', { name: 'In the app' });
    const assignedEmail = assigned.getByRole('combobox', { name: 'E-mail' });
    expect(await assignedInApp.isChecked()).toBe(true);
    expect(await assignedEmail.inputValue()).toBe('each');
    await assignedInApp.uncheck();
    await assignedEmail.selectOption('digest');
    await section.getByRole('button', { name: 'Save notifications' }).click();
    await expect.poll(() => section.getByRole('status').textContent()).toBe('Saved.');
    await page.reload();
    expect(await assignedInApp.isChecked()).toBe(false);
    expect(await assignedEmail.inputValue()).toBe('digest');
    expect(await axeViolations(page)).toEqual([]);

    // Assigned: nothing in the app now. Watched and answered: told.
    const ticket = await assignToAgent(`Watched ${tag}`);
    await page.goto(`${server.url}/tickets/${ticket}`);
    await streamOpen(page);
    const before = await bellCount(page);
    await page.getByRole('button', { name: 'Watch', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Unwatch' }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    const reply = await callApi(server.url, adminApi, 'POST', '/comments', { ticket, body: `Public answer ${tag}` });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    await expect.poll(() => bellCount(page)).toBe(before + 1);
    const inbox = await callApi<{ items: { kind: string; recordId: number; title: string }[] }>(server.url, agentApi, 'GET', '/inbox');
    const about = inbox.body.items.filter((item) => item.title.includes(`Watched ${tag}`) || item.recordId === ticket);
    // The reply was dispatched after the assignment, in order: the assignment's absence is settled.
    expect(about.map((item) => item.kind)).toEqual(['ticketReplied']);

    await page.getByRole('button', { name: 'Mute', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Unmute' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Unwatch' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Unmute' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Watch', exact: true }).count()).toBe(1);

    // As it was, for the tests that follow.
    await page.goto(`${server.url}/account`);
    await assignedInApp.check();
    await assignedEmail.selectOption('each');
    await section.getByRole('button', { name: 'Save notifications' }).click();
    await expect.poll(() => section.getByRole('status').textContent()).toBe('Saved.');
  });
});
