import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations } from './axe';
import { callApi, signInOverApi, type ApiSession } from './api-session';
import { openBrowser, signIn, sidewaysScroll, type Browser } from './browser';
import { DEMO_AGENT, DEMO_CUSTOMER } from './servers';

const server = inject('helpdesk');
const SCREENSHOTS = path.resolve(__dirname, '../../tmp/screenshots');

const widget = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
const columnHeaders = (page: Page) =>
  page.locator('table thead th').evaluateAll((cells) => cells.map((c) => (c.textContent ?? '').replace(/\s+/g, ' ').trim()));

/*
 * What each role sees is chosen by the spec: the helpdesk's customers get a portal (their own
 * tickets on the home, their own list, states in their words, the conversation) and none of the
 * desk's machinery (SLA clocks, Overdue, Import CSV, the bulk panel); an agent keeps the desk.
 */
describe('the customer portal chosen per role', () => {
  let customer: Browser;
  let agent: Browser;
  let customerApi: ApiSession;
  let agentApi: ApiSession;
  let ticketId = 0;
  const tag = randomUUID().slice(0, 8);
  const subject = `Portal printer ${tag}`;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    [customer, agent] = await Promise.all([openBrowser(), openBrowser()]);
    await signIn(customer.page, server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    await signIn(agent.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
    [customerApi, agentApi] = await Promise.all([
      signInOverApi(server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password),
      signInOverApi(server.url, DEMO_AGENT.email, DEMO_AGENT.password),
    ]);
    // A ticket of the customer's (made by the agent: agents are exempt from the customers' limit)
    // that the agent answered and now waits on: pending.
    const created = await callApi<{ id: number; version: number }>(server.url, agentApi, 'POST', '/tickets', {
      subject,
      requester: customerApi.user.id,
      assignee: agentApi.user.id,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    ticketId = created.body.id;
    const started = await callApi<{ version: number }>(server.url, agentApi, 'POST', `/tickets/${ticketId}/transitions/start`, {
      version: created.body.version,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const reply = await callApi(server.url, agentApi, 'POST', '/comments', { ticket: ticketId, body: `Which model is it? ${tag}` });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const current = await callApi<{ version: number }>(server.url, agentApi, 'GET', `/tickets/${ticketId}`);
    const waiting = await callApi(server.url, agentApi, 'POST', `/tickets/${ticketId}/transitions/wait`, { version: current.body.version });
    expect(waiting.status, JSON.stringify(waiting.body)).toBe(200);
  });
  afterAll(() => Promise.all([customer, agent].filter(Boolean).map((b) => b.close())));

  it("shows the customer's home their open tickets in their words, and no Overdue", async () => {
    const { page } = customer;
    await page.goto(`${server.url}/`);
    await widget(page, 'My tickets').waitFor();
    expect(await widget(page, 'My tickets').getByRole('link', { name: subject }).count()).toBe(1);
    expect(await widget(page, 'My tickets').innerText()).toContain('Waiting for your reply');
    for (const staff of ['Overdue', 'Needs my action', 'Tickets by priority', 'Created and resolved per day'])
      expect(await widget(page, staff).count(), staff).toBe(0);
    expect(await page.getByText('Ask us for help here').count()).toBe(1);
    expect(await page.getByText('within the agreed service levels').count()).toBe(0);
  });

  it('gives the customer their own list: no SLA column, no Import CSV, no bulk panel', async () => {
    const { page } = customer;
    await page.goto(`${server.url}/tickets?q=${tag}`);
    await page.getByRole('table').waitFor();
    expect(await columnHeaders(page)).toEqual(['ID', 'Subject', 'State', 'Updated', 'Replies']);
    expect(await page.getByRole('link', { name: 'Import CSV' }).count()).toBe(0);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await page.getByRole('form', { name: 'Selected tickets' }).count()).toBe(0);
    expect(await page.locator('table tbody').innerText()).toContain('Waiting for your reply');
    // The import is not theirs at its address either.
    expect((await page.goto(`${server.url}/tickets/import`))?.status()).toBe(403);

    // The agent's list is the desk's: the SLA clock, Import CSV and rows to select.
    await agent.page.goto(`${server.url}/tickets?q=${tag}`);
    await agent.page.getByRole('table').waitFor();
    expect(await columnHeaders(agent.page)).toEqual(expect.arrayContaining(['SLA due', 'Priority', 'Assignee']));
    expect(await agent.page.getByRole('link', { name: 'Import CSV' }).count()).toBe(1);
    expect(await agent.page.getByRole('checkbox', { name: `Select ${subject}`, exact: true }).count()).toBe(1);
    expect(await agent.page.locator('table tbody').innerText()).toContain('Pending');
  });

  it('shows the customer the ticket’s state in plain words and the conversation, without the SLA', async () => {
    const { page } = customer;
    await page.goto(`${server.url}/tickets/${ticketId}`);
    const panel = page.getByRole('region', { name: 'Workflow' });
    expect((await panel.locator('h2 + span').textContent())!.trim()).toBe('Waiting for your reply');
    expect(await panel.innerText()).toContain('We answered you: reply below and we take it up again.');
    expect(await panel.innerText()).not.toContain('Nothing for you to do here now.');
    const thread = page.getByRole('list', { name: 'Comments' }).locator(':scope > li');
    expect(await thread.allInnerTexts()).toEqual([expect.stringContaining(`Which model is it? ${tag}`)]);
    expect(await page.getByRole('form', { name: 'Reply' }).count()).toBe(1);
    expect(await page.getByText('SLA due', { exact: true }).count()).toBe(0);
    expect(await page.locator('[data-constant="slaHours"]').count()).toBe(0);

    // The agent reads the desk's words for the same ticket, its SLA among them.
    await agent.page.goto(`${server.url}/tickets/${ticketId}`);
    expect((await agent.page.getByRole('region', { name: 'Workflow' }).locator('h2 + span').textContent())!.trim()).toBe('Pending');
    expect(await agent.page.locator('[data-constant="slaHours"]').count()).toBe(1);
  });

  it('keeps the portal accessible and within the screen at 1280 and 360 pixels', async () => {
    const { page } = customer;
    const found: Record<string, unknown> = {};
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      for (const address of ['/', '/tickets', `/tickets/${ticketId}`]) {
        await page.goto(`${server.url}${address}`);
        found[`${address} ${width}`] = { violations: await axeViolations(page), sideways: await sidewaysScroll(page) };
        await page.screenshot({
          path: path.join(SCREENSHOTS, `portal-roles-${address.replace(/\W+/g, '-')}-${width}.png`),
          fullPage: true,
        });
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(Object.values(found)).toEqual(Object.values(found).map(() => ({ violations: [], sideways: 0 })));
  });
});
