import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, requesterId, signInOverApi, type ApiSession } from './api-session';
import { openBrowser, signIn, type Browser } from './browser';
import { DEMO_CUSTOMER, DEMO_AGENT } from './servers';
import { pick } from './pick';

const server = inject('helpdesk');
const SCREENSHOTS = path.resolve(__dirname, '../../tmp/screenshots');

/*
 * Bulk transitions from the list: an agent selects rows of /tickets, takes one transition on all
 * of them, and reads per row what happened (moved, or refused with why) while the list shows the
 * new states; the same without JavaScript; a customer, whose list has no bulk actions, is offered
 * none. Each test makes its own tickets with a word of its own and searches the list for it.
 */
describe('bulk transitions on a list', () => {
  let agent: Browser;
  let agentNoScript: Browser;
  let customer: Browser;
  let agentApi: ApiSession;
  let customerApi: ApiSession;

  beforeAll(async () => {
    [agent, agentNoScript, customer] = await Promise.all([openBrowser(), openBrowser({ javaScriptEnabled: false }), openBrowser()]);
    await signIn(agent.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
    await signIn(agentNoScript.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
    await signIn(customer.page, server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    [agentApi, customerApi] = await Promise.all([
      signInOverApi(server.url, DEMO_AGENT.email, DEMO_AGENT.password),
      signInOverApi(server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password),
    ]);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(() => Promise.all([agent, agentNoScript, customer].filter(Boolean).map((b) => b.close())));

  interface Ticket {
    readonly id: number;
    readonly version: number;
    readonly subject: string;
  }

  /** A ticket made by the agent over the API (agents are exempt from the customers' limit). */
  async function newTicket(subject: string, fields: Record<string, unknown> = {}): Promise<Ticket> {
    const created = await callApi<{ id: number; version: number }>(server.url, agentApi, 'POST', '/tickets', {
      requester: await requesterId(server.url),
      subject,
      ...fields,
    });
    expect(created.status).toBe(201);
    return { id: created.body.id, version: created.body.version, subject };
  }

  async function transition(ticket: Ticket, name: string, version: number): Promise<number> {
    const taken = await callApi<{ version: number }>(server.url, agentApi, 'POST', `/tickets/${ticket.id}/transitions/${name}`, {
      version,
    });
    expect(taken.status).toBe(200);
    return taken.body.version;
  }

  const toolbar = (page: Page) => page.getByRole('form', { name: 'Selected tickets' });
  const transitionSelect = (page: Page) => toolbar(page).getByRole('combobox', { name: 'With the selected tickets' });
  const refusedRows = (page: Page) => page.getByRole('list', { name: 'Refused rows' }).locator(':scope > li');

  /** The State cell of the row whose link is this subject. */
  async function stateOf(page: Page, subject: string): Promise<string> {
    return page.evaluate((text) => {
      const headers = [...document.querySelectorAll('table thead th')].map((th) => th.textContent?.trim());
      const row = [...document.querySelectorAll('table tbody tr')].find((tr) =>
        [...tr.querySelectorAll('a')].some((a) => a.textContent?.trim() === text),
      );
      return row?.querySelectorAll('td')[headers.indexOf('State')]?.textContent?.trim() ?? '(no row)';
    }, subject);
  }

  async function states(page: Page, tickets: readonly Ticket[]): Promise<string[]> {
    const found: string[] = [];
    for (const ticket of tickets) found.push(await stateOf(page, ticket.subject));
    return found;
  }

  const select = (page: Page, ticket: Ticket) => page.getByRole('checkbox', { name: `Select ${ticket.subject}`, exact: true }).check();

  it('an agent selects rows, applies a transition, and reads per row what happened while the list shows the new states', async () => {
    const word = `bulk${randomUUID().slice(0, 8)}`;
    const agentId = agentApi.user.id;
    const ready = await newTicket(`Printer jammed ${word}`, { assignee: agentId });
    const alsoReady = await newTicket(`Screen flickers ${word}`, { assignee: agentId });
    const unassigned = await newTicket(`Printer on fire ${word}`);
    const changing = await newTicket(`Keyboard sticky ${word}`, { assignee: agentId });
    const tickets = [ready, alsoReady, unassigned, changing];
    const { page } = agent;

    await page.goto(`${server.url}/tickets?q=${word}`);
    await expect.poll(() => states(page, tickets)).toEqual(['New', 'New', 'New', 'New']);
    // The transitions, then "Set" for the fields an agent may change (an agent may not delete tickets).
    // (Read from the markup: the panel itself shows once a row is ticked.)
    const offered = page.locator('form[aria-label="Selected tickets"] select[name="bulk"] option:not([disabled])');
    expect(await offered.allTextContents()).toEqual([
      'Start',
      'Wait for customer',
      'Reply',
      'Resolve',
      'Reopen',
      'Close',
      'Set Priority',
      'Set Organization',
      'Set Requester',
      'Set Assignee',
      'Set Due',
    ]);
    // Someone else changes one ticket after the list was loaded.
    const patched = await callApi(server.url, agentApi, 'PATCH', `/tickets/${changing.id}`, {
      priority: 'high',
      version: changing.version,
    });
    expect(patched.status).toBe(200);

    // Nothing selected: no panel to act with.
    expect(await toolbar(page).isVisible()).toBe(false);

    // Select all on this page (the search shows just these four), then apply Start.
    await page.getByRole('checkbox', { name: 'Select all tickets on this page' }).check();
    await expect.poll(() => toolbar(page).isVisible()).toBe(true);
    await transitionSelect(page).selectOption({ label: 'Start' });
    for (const ticket of tickets)
      expect(await page.getByRole('checkbox', { name: `Select ${ticket.subject}`, exact: true }).isChecked()).toBe(true);
    await toolbar(page).getByRole('button', { name: 'Apply to selected' }).click();

    await expect
      .poll(() => page.getByRole('status').filter({ hasText: '“Start” taken' }).textContent())
      .toBe('“Start” taken on 2 tickets; they are now Open.');
    expect(await page.getByRole('alert').filter({ hasText: 'was not taken' }).locator('p').first().textContent()).toBe(
      '“Start” was not taken on 2 tickets:',
    );
    // In the order of the list (newest first).
    expect((await refusedRows(page).allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      `#${changing.id} Keyboard sticky ${word} — Changed by someone else after the list was loaded; the list now shows it as it is.`,
      `#${unassigned.id} Printer on fire ${word} — Needs an assignee.`,
    ]);
    expect(
      await refusedRows(page)
        .getByRole('link', { name: `#${unassigned.id} Printer on fire ${word}` })
        .getAttribute('href'),
    ).toBe(`/tickets/${unassigned.id}`);
    // The list was rendered again with the new states; the form was reset, so nothing is selected (as after a post without JavaScript).
    await expect.poll(() => states(page, tickets)).toEqual(['Open', 'Open', 'New', 'New']);
    for (const ticket of tickets)
      expect(await page.getByRole('checkbox', { name: `Select ${ticket.subject}`, exact: true }).isChecked()).toBe(false);
    expect(await page.getByRole('checkbox', { name: 'Select all tickets on this page' }).isChecked()).toBe(false);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'bulk-transitions.png'), fullPage: true });

    // The stale row, taken again now that the list shows it as it is, moves.
    await select(page, changing);
    await expect
      .poll(() =>
        page.getByRole('checkbox', { name: 'Select all tickets on this page' }).evaluate((box: HTMLInputElement) => box.indeterminate),
      )
      .toBe(true);
    await toolbar(page).getByRole('button', { name: 'Apply to selected' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: '“Start” taken' }).textContent())
      .toBe('“Start” taken on 1 ticket; it is now Open.');
    expect(await refusedRows(page).count()).toBe(0);
    await expect.poll(() => states(page, tickets)).toEqual(['Open', 'Open', 'New', 'Open']);

    // The unassigned one starts once the toolbar is given the assignee that Start requires.
    await select(page, unassigned);
    await transitionSelect(page).selectOption({ label: 'Start' });
    await pick(toolbar(page), 'Assignee', agentApi.user.name);
    await toolbar(page).getByRole('button', { name: 'Apply to selected' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: '“Start” taken' }).textContent())
      .toBe('“Start” taken on 1 ticket; it is now Open.');
    await expect.poll(() => states(page, tickets)).toEqual(['Open', 'Open', 'Open', 'Open']);
    const started = await callApi<{ assignee: number | null }>(server.url, agentApi, 'GET', `/tickets/${unassigned.id}`);
    expect(started.body.assignee).toBe(agentId);
  });

  it('works without JavaScript: the form posts, the page comes back with the report and the fresh rows', async () => {
    const word = `nojs${randomUUID().slice(0, 8)}`;
    const agentId = agentApi.user.id;
    const first = await newTicket(`Mouse drifts ${word}`, { assignee: agentId });
    const second = await newTicket(`Monitor dim ${word}`, { assignee: agentId });
    await transition(first, 'start', first.version);
    await transition(second, 'start', second.version);
    const tickets = [first, second];
    const { page } = agentNoScript;

    await page.goto(`${server.url}/tickets?q=${word}`);
    expect(await states(page, tickets)).toEqual(['Open', 'Open']);
    expect(await toolbar(page).isVisible()).toBe(false);
    // "Select all" needs a script: without one it is not offered.
    expect(await page.getByRole('checkbox', { name: 'Select all tickets on this page' }).count()).toBe(0);
    await select(page, first);
    await select(page, second);
    await transitionSelect(page).selectOption({ label: 'Wait for customer' });
    await Promise.all([page.waitForEvent('load'), toolbar(page).getByRole('button', { name: 'Apply to selected' }).click()]);

    expect(await page.getByRole('status').filter({ hasText: 'taken on' }).textContent()).toBe(
      '“Wait for customer” taken on 2 tickets; they are now Pending.',
    );
    expect(await states(page, tickets)).toEqual(['Pending', 'Pending']);

    // Nothing is selected on the page that came back: the panel hides (CSS, no script), the report stays; a tick shows it again.
    expect(await toolbar(page).isVisible()).toBe(false);
    await select(page, first);
    expect(await toolbar(page).isVisible()).toBe(true);
  });

  it('offers a customer no bulk panel: their list (screens.lists.ticket.roles.customer) says bulk: false', async () => {
    const word = `mine${randomUUID().slice(0, 8)}`;
    const waiting = await newTicket(`Invoice question ${word}`, { requester: customerApi.user.id, assignee: agentApi.user.id });
    const started = await transition(waiting, 'start', waiting.version);
    await transition(waiting, 'wait', started);
    const { page } = customer;

    await page.goto(`${server.url}/tickets?q=${word}`);
    // The state in the customer's words; no row to tick and no panel, though they may reply to it.
    expect(await states(page, [waiting])).toEqual(['Waiting for your reply']);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await toolbar(page).count()).toBe(0);
  });

  it('offers no checkboxes and no toolbar on a list without a workflow', async () => {
    const { page } = agent;
    await page.goto(`${server.url}/organizations`);
    await page.getByRole('table').waitFor();
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await page.getByRole('form', { name: /^Selected/ }).count()).toBe(0);
  });
});
