import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, fetchPage, requesterId, signInOverApi, type ApiSession } from './api-session';
import { openBrowser, signIn, type Browser, sidewaysScroll } from './browser';
import { DEMO_CUSTOMER, DEMO_AGENT } from './servers';

const server = inject('helpdesk');
const SCREENSHOTS = path.resolve(__dirname, '../../tmp/screenshots');
const STATES = ['New', 'Open', 'Pending', 'Resolved', 'Closed'];

/** How many tickets the API lists for this session: what the home's numbers must add up to. */
async function listedTickets(session: ApiSession): Promise<{ total: number; byState: Record<string, number> }> {
  const byState: Record<string, number> = {};
  let total = 0;
  let cursor: string | null = null;
  do {
    const answer: { status: number; body: { items: { state: string }[]; nextCursor: string | null } } = await callApi(
      server.url,
      session,
      'GET',
      `/tickets?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(answer.status).toBe(200);
    for (const item of answer.body.items) byState[item.state] = (byState[item.state] ?? 0) + 1;
    total += answer.body.items.length;
    cursor = answer.body.nextCursor;
  } while (cursor);
  return { total, byState };
}

const widget = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

/** The number of each tile of a counts widget, by its label ("Open: 12" → Open → 12). */
async function tiles(page: Page, title: string): Promise<Record<string, number>> {
  const names = await widget(page, title)
    .getByRole('link')
    .evaluateAll((links) => links.map((l) => l.getAttribute('aria-label') ?? ''));
  return Object.fromEntries(
    names.filter((n) => n.includes(': ')).map((n) => [n.split(': ')[0], Number(n.split(': ')[1]!.replace(/,/g, ''))]),
  );
}

/*
 * The helpdesk's home as an agent and as a customer start their day: where the tickets stand,
 * each number a link to the list it counts, the agent's own queue, what is overdue and the last
 * 30 days as a chart with its numbers in words. Every number counts only what the viewer may list.
 */
describe('the home says what needs attention', () => {
  let agent: Browser;
  let customer: Browser;
  let sessions: { agent: ApiSession; customer: ApiSession };

  beforeAll(async () => {
    [agent, customer] = await Promise.all([openBrowser(), openBrowser()]);
    await signIn(agent.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
    await signIn(customer.page, server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    sessions = {
      agent: await signInOverApi(server.url, DEMO_AGENT.email, DEMO_AGENT.password),
      customer: await signInOverApi(server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password),
    };
    // One ticket surely in the agent's queue: assigned to them and started.
    const created = await callApi<{ id: number; version: number }>(server.url, sessions.agent, 'POST', '/tickets', {
      requester: await requesterId(server.url),
      subject: 'Home page check',
      assignee: sessions.agent.user.id,
    });
    expect(created.status).toBe(201);
    const started = await callApi(server.url, sessions.agent, 'POST', `/tickets/${created.body.id}/transitions/start`, {
      version: created.body.version,
    });
    expect(started.status).toBe(200);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(() => Promise.all([agent, customer].filter(Boolean).map((b) => b.close())));

  it("shows an agent every ticket's numbers, each a link to the filtered list", async () => {
    const { page } = agent;
    await page.goto(`${server.url}/`);
    const titles = await page.getByRole('region').evaluateAll((sections) => sections.map((s) => s.getAttribute('aria-label')));
    expect(titles).toEqual(
      expect.arrayContaining(['Tickets by state', 'Tickets by priority', 'Needs my action', 'Overdue', 'Created and resolved per day']),
    );

    const listed = await listedTickets(sessions.agent);
    const byState = await tiles(page, 'Tickets by state');
    expect(Object.keys(byState)).toEqual(STATES);
    expect(Object.values(byState).reduce((a, b) => a + b, 0)).toBe(listed.total);
    expect(byState.Open).toBe(listed.byState.open ?? 0);
    expect(await widget(page, 'Tickets by state').getByText('In all:').textContent()).toContain(listed.total.toLocaleString('en-US'));
    const priorities = await tiles(page, 'Tickets by priority');
    expect(Object.values(priorities).reduce((a, b) => a + b, 0)).toBe(listed.total);

    await widget(page, 'Tickets by state')
      .getByRole('link', { name: /^Open: / })
      .click();
    await page.waitForURL(`${server.url}/tickets?state=open`);
  });

  it('says the numbers its lists say, and the priorities by their labels: urgent as a red badge', async () => {
    const { page } = agent;
    // One urgent ticket surely listed (an urgent ticket needs an assignee).
    const urgent = await callApi(server.url, sessions.agent, 'POST', '/tickets', {
      requester: await requesterId(server.url),
      subject: 'Urgent colour check',
      priority: 'urgent',
      assignee: sessions.agent.user.id,
    });
    expect(urgent.status).toBe(201);
    /** The number above a list ("1,004 tickets"), exact: never "More than" where the home has the number. */
    const listCount = async (query: string) => {
      await page.goto(`${server.url}/tickets${query}`);
      const text = (await page.locator('[data-list-count]').innerText()).trim();
      expect(text).toMatch(/^\d[\d,]* tickets?$/);
      return Number(text.replace(/\D/g, ''));
    };
    /** The home's "In all" and its tile for urgent tickets, beside the lists they link to (other tests may write meanwhile). */
    const agreement = async () => {
      await page.goto(`${server.url}/`);
      const inAll = Number((await widget(page, 'Tickets by state').getByText('In all:').textContent())!.replace(/\D/g, ''));
      const priorities = await tiles(page, 'Tickets by priority');
      expect(Object.keys(priorities)).toEqual(['Low', 'Normal', 'High', 'Urgent']);
      return { home: [inAll, priorities.Urgent], lists: [await listCount(''), await listCount('?priority=urgent')] };
    };
    await expect
      .poll(async () => {
        const { home, lists } = await agreement();
        return home.join() === lists.join();
      })
      .toBe(true);

    // On the list filtered by urgent: every priority cell is the red badge, labelled as the spec says.
    const cells = page.locator('tbody').getByText('Urgent', { exact: true });
    expect(await cells.count()).toBeGreaterThan(0);
    for (const className of await cells.evaluateAll((spans) => spans.map((s) => s.className))) {
      expect(className).toContain('rounded-full');
      expect(className).toContain('bg-red-50');
    }
    // A value without a colour is plain text: no badge.
    await page.goto(`${server.url}/tickets?priority=normal`);
    const normal = page.locator('tbody').getByText('Normal', { exact: true }).first();
    expect(await normal.evaluate((span) => span.className)).toBe('');
  });

  it("lists the agent's own open and pending tickets, and links to their queue", async () => {
    const { page } = agent;
    await page.goto(`${server.url}/`);
    const mine = widget(page, 'Needs my action');
    const seeAll = mine.getByRole('link', { name: /^See all/ });
    expect(await seeAll.getAttribute('href')).toBe('/queue');
    const links = await mine
      .getByRole('listitem')
      .getByRole('link')
      .evaluateAll((all) => all.map((a) => a.getAttribute('href') ?? ''));
    expect(links.length).toBeGreaterThan(0);
    expect(links.length).toBeLessThanOrEqual(5);
    let previousDue = '';
    for (const href of links) {
      expect(href).toMatch(/^\/tickets\/\d+$/);
      const ticket = await callApi<{ assignee: number; state: string; slaDueAt: string }>(server.url, sessions.agent, 'GET', href);
      expect(ticket.body.assignee).toBe(sessions.agent.user.id);
      expect(['open', 'pending']).toContain(ticket.body.state);
      // Oldest due first.
      expect(ticket.body.slaDueAt >= previousDue).toBe(true);
      previousDue = ticket.body.slaDueAt;
    }
  });

  it('draws the last 30 days as an SVG chart with its numbers in words, without script', async () => {
    const { page } = agent;
    await page.goto(`${server.url}/`);
    const chart = widget(page, 'Created and resolved per day');
    const svg = chart.locator('svg[role="img"]');
    expect(await svg.locator('title').textContent()).toBe('Created and resolved per day');
    const description = await svg.locator('desc').textContent();
    expect(description).toMatch(/^Tickets per day over the last 30 days \(UTC\)\. Created: [\d,]+, Resolved: [\d,]+\.$/);
    expect(await svg.locator('polyline').count()).toBe(2);
    // The numbers behind the lines, day by day, in a table that adds up to the description.
    const rows = chart.locator('details table tbody tr');
    expect(await rows.count()).toBe(30);
    const created = (await rows.locator('td:nth-of-type(1)').allTextContents()).reduce((sum, n) => sum + Number(n.replace(/,/g, '')), 0);
    expect(description).toContain(`Created: ${created.toLocaleString('en-US')}`);
    expect(created).toBeGreaterThan(0);

    await page.screenshot({ path: path.join(SCREENSHOTS, 'home-agent-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(`${server.url}/`);
    expect(await sidewaysScroll(page)).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'home-agent-360.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('shows a customer their portal: their own tickets and numbers, nothing of the desk’s machinery', async () => {
    const { page } = customer;
    await page.goto(`${server.url}/`);
    const listed = await listedTickets(sessions.customer);
    const everyone = await listedTickets(sessions.agent);
    expect(listed.total).toBeLessThan(everyone.total);
    const byState = await tiles(page, 'Tickets by state');
    expect(Object.values(byState).reduce((a, b) => a + b, 0)).toBe(listed.total);
    // A pending ticket reads in the customer's words (workflows.ticket.states.pending.roles.customer).
    const customerLabel = (state: string) =>
      state === 'pending' ? 'Waiting for your reply' : STATES.find((s) => s.toLowerCase() === state)!;
    for (const [state, count] of Object.entries(listed.byState)) expect(byState[customerLabel(state)]).toBe(count);
    expect(Object.keys(byState)).not.toContain('Pending');
    // Their own open tickets; no queue, no SLA breaches, no priorities, no chart.
    const titles = await page.getByRole('region').evaluateAll((sections) => sections.map((s) => s.getAttribute('aria-label')));
    expect(titles).toEqual(expect.arrayContaining(['My tickets', 'Tickets by state']));
    for (const staff of ['Needs my action', 'Overdue', 'Tickets by priority', 'Created and resolved per day'])
      expect(await widget(page, staff).count()).toBe(0);
    // The purpose in their words.
    expect(await page.getByText('Ask us for help here').count()).toBe(1);

    // Neither the HTML nor the RSC payload carries the agents' queue.
    for (const rsc of [false, true]) {
      const sent = await fetchPage(server.url, sessions.customer, '/', rsc);
      expect(sent.status).toBe(200);
      expect(sent.text).not.toContain('Needs my action');
      expect(sent.text).not.toContain('Overdue');
      expect(sent.text).not.toContain('assignee');
    }
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(`${server.url}/`);
    expect(await sidewaysScroll(page)).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'home-customer-360.png'), fullPage: true });
  });
});
