import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, requesterId, signInOverApi, type ApiSession } from './api-session';
import { axeViolations } from './axe';
import { openBrowser, signIn, type Browser } from './browser';
import { ADMIN, DEMO_AGENT } from './servers';

const server = inject('helpdesk');
const SCREENSHOTS = path.resolve(__dirname, '../../tmp/screenshots');

/*
 * "Set <field>" and Delete on a list's selected rows: the panel shows only once a row is ticked;
 * an agent sets the priority of two tickets and reads per row what happened (one changed by
 * someone else meanwhile); an administrator deletes the selected tickets after a question, with
 * and without JavaScript. Each test makes its own tickets with a word of its own and searches the
 * list for it.
 */
describe('bulk field updates and deletes on a list', () => {
  let agent: Browser;
  let admin: Browser;
  let adminNoScript: Browser;
  let agentApi: ApiSession;

  beforeAll(async () => {
    [agent, admin, adminNoScript] = await Promise.all([openBrowser(), openBrowser(), openBrowser({ javaScriptEnabled: false })]);
    await signIn(agent.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
    await signIn(admin.page, server.url, ADMIN.email, ADMIN.password);
    await signIn(adminNoScript.page, server.url, ADMIN.email, ADMIN.password);
    agentApi = await signInOverApi(server.url, DEMO_AGENT.email, DEMO_AGENT.password);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(() => Promise.all([agent, admin, adminNoScript].filter(Boolean).map((b) => b.close())));

  interface Ticket {
    readonly id: number;
    readonly version: number;
    readonly subject: string;
  }

  async function newTicket(subject: string): Promise<Ticket> {
    const created = await callApi<{ id: number; version: number }>(server.url, agentApi, 'POST', '/tickets', {
      requester: await requesterId(server.url),
      subject,
    });
    expect(created.status).toBe(201);
    return { id: created.body.id, version: created.body.version, subject };
  }

  const read = async (ticket: Ticket) =>
    callApi<{ priority: string; version: number }>(server.url, agentApi, 'GET', `/tickets/${ticket.id}`);
  const panel = (page: Page) => page.getByRole('form', { name: 'Selected tickets' });
  const choice = (page: Page) => panel(page).getByRole('combobox', { name: 'With the selected tickets' });
  const apply = (page: Page) => panel(page).getByRole('button', { name: 'Apply to selected' });
  const select = (page: Page, ticket: Ticket) => page.getByRole('checkbox', { name: `Select ${ticket.subject}`, exact: true }).check();
  const refusedRows = (page: Page) => page.getByRole('list', { name: 'Refused rows' }).locator(':scope > li');

  it('shows the panel once a row is ticked, sets the priority of the selected tickets and reports a row changed meanwhile', async () => {
    const word = `setp${randomUUID().slice(0, 8)}`;
    const first = await newTicket(`Toner low ${word}`);
    const second = await newTicket(`Fax silent ${word}`);
    const changing = await newTicket(`Badge broken ${word}`);
    const { page } = agent;

    // No live updates for this list: the change made meanwhile must not reach it before Apply
    // (a live list would show it, and then rightly change all three).
    await page.route('**/api/live**', (route) => route.abort());
    await page.goto(`${server.url}/tickets?q=${word}`);
    await page.getByRole('table').waitFor();
    expect(await panel(page).isVisible()).toBe(false);
    await select(page, first);
    await expect.poll(() => panel(page).isVisible()).toBe(true);
    await page.getByRole('checkbox', { name: `Select ${first.subject}`, exact: true }).uncheck();
    await expect.poll(() => panel(page).isVisible()).toBe(false);

    // Someone else changes one ticket after the list was loaded.
    const patched = await callApi(server.url, agentApi, 'PATCH', `/tickets/${changing.id}`, {
      dueAt: '2099-01-01T09:00:00Z',
      version: changing.version,
    });
    expect(patched.status).toBe(200);

    for (const ticket of [first, second, changing]) await select(page, ticket);
    await choice(page).selectOption({ label: 'Set Priority' });
    // With JavaScript only the chosen field's input shows.
    const priority = panel(page).getByRole('combobox', { name: 'New Priority' });
    await expect.poll(() => priority.isVisible()).toBe(true);
    expect(await panel(page).getByRole('combobox', { name: 'New Assignee' }).isVisible()).toBe(false);
    expect((await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await priority.selectOption('high');
    await apply(page).click();

    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Priority set' }).textContent())
      .toBe('Priority set to High on 2 tickets.');
    expect((await refusedRows(page).allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      `#${changing.id} Badge broken ${word} — Changed by someone else after the list was loaded; the list now shows it as it is.`,
    ]);
    await page.unroute('**/api/live**');
    expect([(await read(first)).body.priority, (await read(second)).body.priority, (await read(changing)).body.priority]).toEqual([
      'high',
      'high',
      'normal',
    ]);
    // The form was reset: nothing is selected, so the panel hides again while the report stays.
    await expect.poll(() => panel(page).isVisible()).toBe(false);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'bulk-set-priority.png'), fullPage: true });
  });

  it('offers Delete to whoever may delete, asks in a dialog first, and deletes the selected tickets', async () => {
    const word = `del${randomUUID().slice(0, 8)}`;
    const first = await newTicket(`Old duplicate ${word}`);
    const second = await newTicket(`Spam message ${word}`);
    const { page } = admin;

    // An agent may not delete tickets: no Delete among the choices.
    await agent.page.goto(`${server.url}/tickets?q=${word}`);
    expect(await choice(agent.page).locator('option').allTextContents()).not.toContain('Delete');

    await page.goto(`${server.url}/tickets?q=${word}`);
    await select(page, first);
    await select(page, second);
    await choice(page).selectOption({ label: 'Delete' });
    const dialog = page.getByRole('dialog', { name: 'Delete the selected tickets?' });
    await apply(page).click();
    await dialog.waitFor();
    expect((await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect([(await read(first)).status, (await read(second)).status]).toEqual([200, 200]);

    await apply(page).click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'deleted' }).textContent()).toBe('2 tickets deleted.');
    expect([(await read(first)).status, (await read(second)).status]).toEqual([404, 404]);
  });

  it('deletes without JavaScript after the server asks, in a form that posts the same rows again', async () => {
    const word = `delnojs${randomUUID().slice(0, 8)}`;
    const ticket = await newTicket(`Stale request ${word}`);
    const { page } = adminNoScript;

    await page.goto(`${server.url}/tickets?q=${word}`);
    expect(await panel(page).isVisible()).toBe(false);
    await select(page, ticket);
    expect(await panel(page).isVisible()).toBe(true);
    await choice(page).selectOption({ label: 'Delete' });
    await Promise.all([page.waitForEvent('load'), apply(page).click()]);
    const question = page.getByRole('form', { name: 'Confirm: selected tickets' });
    expect(await question.getByRole('alert').innerText()).toContain('Delete the selected tickets?');
    expect((await read(ticket)).status).toBe(200);

    await Promise.all([page.waitForEvent('load'), question.getByRole('button', { name: 'Delete', exact: true }).click()]);
    expect(await page.getByRole('status').filter({ hasText: 'deleted' }).textContent()).toBe('1 ticket deleted.');
    expect((await read(ticket)).status).toBe(404);
  });
});
