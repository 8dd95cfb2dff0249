import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, fetchPage, requesterId, signInOverApi, type ApiSession } from './api-session';
import { openBrowser, signIn, type Browser } from './browser';
import { DEMO_CUSTOMER, DEMO_AGENT } from './servers';
import { offeredFor, pick } from './pick';

const server = inject('helpdesk');
/** Assigned to the ticket: a name and an address the customer's pages must never carry. */
const DEMO_ASSIGNEE = { email: 'agent2@demo.ninefold.test', password: 'demo-password' } as const;
const SCREENSHOTS = path.resolve(__dirname, '../../tmp/screenshots');

/*
 * A ticket's whole life with two people in two browsers: the customer opens it, the agent
 * assigns it (in start's small form) and starts it, waits, the customer replies, the agent
 * resolves it, the customer reopens it, the agent resolves and closes it. Each sees only the
 * transitions that are theirs, the history says who did what, and the customer's pages never
 * carry the assignee. One step is taken without JavaScript.
 */
describe("a ticket's life, seen by its customer and its agent", () => {
  let customer: Browser;
  let agent: Browser;
  let agentNoScript: Browser;
  let names: { customer: string; agent: string; assignee: ApiSession['user'] };
  let ticketUrl = '';

  beforeAll(async () => {
    [customer, agent, agentNoScript] = await Promise.all([openBrowser(), openBrowser(), openBrowser({ javaScriptEnabled: false })]);
    await signIn(customer.page, server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    await signIn(agent.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
    await signIn(agentNoScript.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
    const [c, a, assignee] = await Promise.all([
      signInOverApi(server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password),
      signInOverApi(server.url, DEMO_AGENT.email, DEMO_AGENT.password),
      signInOverApi(server.url, DEMO_ASSIGNEE.email, DEMO_ASSIGNEE.password),
    ]);
    names = { customer: c.user.name, agent: a.user.name, assignee: assignee.user };
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(() => Promise.all([customer, agent, agentNoScript].filter(Boolean).map((b) => b.close())));

  const panel = (page: Page) => page.getByRole('region', { name: 'Workflow' });
  const history = (page: Page) => page.getByRole('list', { name: 'History' }).locator(':scope > li');

  /** The transitions offered, as "Label" (takeable) or "Label (blocked: reason)". */
  async function offered(page: Page): Promise<string[]> {
    const buttons = panel(page).getByRole('list', { name: 'Transitions' }).getByRole('button');
    const found: string[] = [];
    for (const button of await buttons.all()) {
      const label = (await button.textContent())!.trim();
      found.push(
        (await button.isDisabled())
          ? `${label} (blocked: ${await button.evaluate((b) => document.getElementById(b.getAttribute('aria-describedby') ?? '')?.textContent)})`
          : label,
      );
    }
    return found;
  }

  async function state(page: Page): Promise<string> {
    return (await panel(page).locator('h2 + span').textContent())!.trim();
  }

  /** Opens the ticket afresh (a full load, as after switching windows). */
  async function open(page: Page): Promise<void> {
    await page.goto(ticketUrl);
  }

  /** Clicks a transition and waits until the page shows the state it leads to. */
  async function take(page: Page, label: string, to: string): Promise<void> {
    await panel(page).getByRole('button', { name: label, exact: true }).click();
    await expect.poll(() => state(page)).toBe(to);
  }

  async function timeline(page: Page): Promise<string[]> {
    return (await history(page).allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  }

  /** The customer's page as the server sends it: the HTML and the RSC payload of a client-side navigation. */
  async function customerBytes(): Promise<string> {
    const cookies = await customer.context.cookies(server.url);
    const session = { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') } as ApiSession;
    const pathname = new URL(ticketUrl).pathname;
    let bytes = '';
    for (const rsc of [false, true]) {
      const page = await fetchPage(server.url, session, pathname, rsc);
      expect(page.status).toBe(200);
      bytes += page.text;
    }
    return bytes;
  }

  async function expectNoAssigneeForCustomer(): Promise<void> {
    const bytes = await customerBytes();
    expect(bytes).toContain(names.customer);
    expect(bytes).not.toContain(names.assignee.name);
    expect(bytes).not.toContain(names.assignee.email);
    expect(bytes).not.toContain('Assignee');
    expect(bytes).not.toContain('"assignee"');
  }

  it('goes from new to closed, each person seeing their own steps and the same history', { timeout: 240_000 }, async () => {
    const subject = `Printer on fire ${randomUUID().slice(0, 8)}`;

    // The customer opens a ticket: nothing for them to do while it is new.
    await customer.page.goto(`${server.url}/tickets/new`);
    await customer.page.getByLabel('Subject').fill(subject);
    await customer.page.getByLabel('Description').fill('It is **really** on fire.');
    await customer.page.getByRole('button', { name: 'Create ticket' }).click();
    await customer.page.waitForURL(/\/tickets\/\d+$/);
    ticketUrl = customer.page.url();
    expect(await state(customer.page)).toBe('New');
    expect(await offered(customer.page)).toEqual([]);
    expect(await panel(customer.page).textContent()).toContain('Nothing for you to do here now.');
    // The SLA is the desk's clock: the customer's list leaves it out, so their page does too.
    expect(await customer.page.locator('[data-constant="slaHours"]').count()).toBe(0);
    expect(await customer.page.getByText('SLA due', { exact: true }).count()).toBe(0);
    expect(await timeline(customer.page)).toEqual([expect.stringMatching(new RegExp(`^Created ${names.customer} · `))]);

    // The agent starts it with start's small form, which asks for the assignee it needs.
    await open(agent.page);
    // The SLA due time is the engine's field, with the promise behind it beside it.
    expect(await agent.page.locator('[data-constant="slaHours"]').textContent()).toBe(
      'SLA 24 h for normal priority · Time to resolution promised for each priority.',
    );
    expect(
      await agent.page
        .locator('dd', { has: agent.page.locator('[data-constant="slaHours"]') })
        .locator('time')
        .textContent(),
    ).toMatch(/^\w{3} \d{1,2}, \d{4}, \d{2}:\d{2} UTC$/);
    expect(await offered(agent.page)).toEqual(['Start']);
    const start = agent.page.getByRole('form', { name: 'Start' });
    expect(await start.textContent()).toContain('Needs an assignee.');
    // Without a choice, the server says so next to the select (the browser's own check skipped).
    await start.evaluate((form) => ((form as HTMLFormElement).noValidate = true));
    await start.getByRole('button', { name: 'Start' }).click();
    await expect.poll(() => start.locator('#field-assignee-error').textContent()).toBe('Needs an assignee.');
    expect(await agent.page.getByRole('combobox', { name: 'Assignee', exact: true }).getAttribute('aria-invalid')).toBe('true');
    await agent.page.screenshot({ path: path.join(SCREENSHOTS, 'ticket-agent-start.png'), fullPage: true });
    // An agent sees names, never addresses: emails are for those who manage users.
    const assigneeOptions = await offeredFor(agent.page, 'Assignee', names.assignee.name);
    expect(assigneeOptions).toContain(names.assignee.name);
    expect(assigneeOptions.filter((o) => o.includes('@'))).toEqual([]);
    await pick(agent.page, 'Assignee', names.assignee.name);
    await take(agent.page, 'Start', 'Open');
    expect(await offered(agent.page)).toEqual(['Wait for customer', 'Resolve']);
    expect((await timeline(agent.page))[0]).toBe(
      `Start: New → Open ${names.agent} · ${await firstTime(agent.page)} Assignee: — → ${names.assignee.name}`,
    );
    await agent.page.screenshot({ path: path.join(SCREENSHOTS, 'ticket-agent.png'), fullPage: true });

    // The customer sees it open, still with nothing to do, and not who it is assigned to.
    await open(customer.page);
    expect(await state(customer.page)).toBe('Open');
    expect(await offered(customer.page)).toEqual([]);
    expect((await timeline(customer.page))[0]).toBe(`Start: New → Open ${names.agent} · ${await firstTime(customer.page)}`);
    await expectNoAssigneeForCustomer();

    // The agent's window loses its live stream (as on a train), so it will miss the next change.
    await agent.page.route('**/api/live*', (route) => route.abort());
    await open(agent.page);

    // The agent waits for the customer, without JavaScript: a plain form post, then the fresh page.
    const noScript = agentNoScript.page;
    await open(noScript);
    await Promise.all([noScript.waitForLoadState('load'), panel(noScript).getByRole('button', { name: 'Wait for customer' }).click()]);
    expect(new URL(noScript.url()).pathname).toBe(new URL(ticketUrl).pathname);
    expect(await state(noScript)).toBe('Pending');
    // The agent's "Reply" (pending → open) is no button: replying in the conversation takes it.
    expect(await offered(noScript)).toEqual(['Resolve']);
    expect((await timeline(noScript))[0]).toMatch(/^Wait for customer: Open → Pending /);

    // The agent's other window still shows the ticket open: resolving from it is refused as stale, with a reload link.
    expect(await state(agent.page)).toBe('Open');
    await panel(agent.page).getByRole('button', { name: 'Resolve' }).click();
    const resolveForm = agent.page.getByRole('form', { name: 'Resolve' });
    await expect.poll(() => resolveForm.getByRole('alert').count()).toBe(1);
    expect(await resolveForm.getByRole('alert').textContent()).toMatch(/This ticket was changed by someone else/);
    await resolveForm.getByRole('link', { name: 'Reload' }).click();
    await expect.poll(() => state(agent.page)).toBe('Pending');
    await agent.page.unroute('**/api/live*');

    // The customer replies in the conversation, which takes the ticket back to open.
    await open(customer.page);
    expect(await offered(customer.page)).toEqual([]);
    const reply = customer.page.getByRole('form', { name: 'Reply' });
    await reply.getByLabel('Body').fill('Here is the model number you asked for.');
    await reply.getByRole('button', { name: 'Reply', exact: true }).click();
    await expect.poll(() => state(customer.page)).toBe('Open');
    expect((await timeline(customer.page))[0]).toMatch(new RegExp(`^Reply: Pending → Open ${names.customer} · `));

    // The agent resolves; the customer may reopen (within the window), and does.
    await open(agent.page);
    await take(agent.page, 'Resolve', 'Resolved');
    expect(await offered(agent.page)).toEqual(['Reopen', 'Close']);
    expect((await timeline(agent.page))[0]).toMatch(/^Resolve: Open → Resolved .* Resolved: — → \w{3} \d{1,2}, \d{4}, \d{2}:\d{2} UTC$/);
    await open(customer.page);
    expect(await offered(customer.page)).toEqual(['Reopen']);
    // Resolved: the SLA clock stopped, whatever the time.
    expect(await customer.page.locator('[data-overdue]').count()).toBe(0);
    await customer.page.screenshot({ path: path.join(SCREENSHOTS, 'ticket-customer.png'), fullPage: true });
    await take(customer.page, 'Reopen', 'Open');

    // The agent resolves and closes it; a closed ticket offers nothing to anyone.
    await open(agent.page);
    await take(agent.page, 'Resolve', 'Resolved');
    // Closing cannot be undone: the page asks first, and takes it on the answer.
    await panel(agent.page).getByRole('button', { name: 'Close', exact: true }).click();
    await agent.page
      .getByRole('dialog', { name: /^Close ticket #\d+\?$/ })
      .getByRole('button', { name: 'Close', exact: true })
      .click();
    await expect.poll(() => state(agent.page)).toBe('Closed');
    expect(await offered(agent.page)).toEqual([]);
    expect(await panel(agent.page).textContent()).toContain('This is a final state.');
    await open(customer.page);
    expect(await state(customer.page)).toBe('Closed');
    expect(await offered(customer.page)).toEqual([]);

    // The whole history, newest first, the same for both but for the assignee.
    const steps = (lines: string[]) => lines.map((line) => line.split(' · ')[0]);
    const expected = [
      `Close: Resolved → Closed ${names.agent}`,
      `Resolve: Open → Resolved ${names.agent}`,
      `Reopen: Resolved → Open ${names.customer}`,
      `Resolve: Open → Resolved ${names.agent}`,
      `Reply: Pending → Open ${names.customer}`,
      `Wait for customer: Open → Pending ${names.agent}`,
      `Start: New → Open ${names.agent}`,
      `Created ${names.customer}`,
    ];
    expect(steps(await timeline(customer.page))).toEqual(expected);
    expect(steps(await timeline(agent.page))).toEqual(expected);
    expect((await timeline(customer.page)).join('\n')).not.toContain('Assignee');
    await expectNoAssigneeForCustomer();
    await agent.page.screenshot({ path: path.join(SCREENSHOTS, 'ticket-agent-closed.png'), fullPage: true });
  });
});

describe('the history timeline', () => {
  let agent: Browser;
  beforeAll(async () => {
    agent = await openBrowser();
    await signIn(agent.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
  });
  afterAll(() => agent?.close());

  it('prints field changes with their labels, twenty entries a page, older ones by a link', { timeout: 120_000 }, async () => {
    const session = await signInOverApi(server.url, DEMO_AGENT.email, DEMO_AGENT.password);
    const created = await callApi<{ id: number; version: number }>(server.url, session, 'POST', '/tickets', {
      requester: await requesterId(server.url),
      subject: `Long story ${randomUUID().slice(0, 8)}`,
    });
    expect(created.status).toBe(201);
    let version = created.body.version;
    const priorities = ['high', 'low'];
    for (let i = 0; i < 22; i++) {
      const updated = await callApi<{ version: number }>(server.url, session, 'PATCH', `/tickets/${created.body.id}`, {
        priority: priorities[i % 2],
        version,
      });
      expect(updated.status).toBe(200);
      version = updated.body.version;
    }
    const { page } = agent;
    await page.goto(`${server.url}/tickets/${created.body.id}`);
    const entries = page.getByRole('list', { name: 'History' }).locator(':scope > li');
    expect(await entries.count()).toBe(20);
    const newest = (await entries.first().innerText()).replace(/\s+/g, ' ');
    // The SLA due time follows the priority, in the same change.
    expect(newest).toMatch(
      /^Changed .* · .* UTC Priority: High → Low SLA due: \w{3} \d{1,2}, \d{4}, \d{2}:\d{2} UTC → \w{3} \d{1,2}, \d{4}, \d{2}:\d{2} UTC$/,
    );
    await page.getByRole('link', { name: 'Show older' }).click();
    await page.waitForURL(/\?history=\d+#history$/);
    await expect.poll(() => entries.count()).toBe(3);
    expect((await entries.last().innerText()).split('\n')[0]).toBe('Created');
    expect((await entries.nth(1).innerText()).replace(/\s+/g, ' ')).toMatch(/^Changed .* Priority: Normal → High SLA due: .* → .*$/);
    expect(await page.getByRole('link', { name: 'Show older' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Newest' }).click();
    await expect.poll(() => entries.count()).toBe(20);
    // A cursor that is not one starts from the newest instead of failing.
    await page.goto(`${server.url}/tickets/${created.body.id}?history=nonsense`);
    expect(await entries.count()).toBe(20);
  });
});

/** The time of the newest history entry, as the page prints it. */
async function firstTime(page: Page): Promise<string> {
  return (await page.getByRole('list', { name: 'History' }).locator('time').first().textContent())!.trim();
}
