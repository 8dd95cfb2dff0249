import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, fetchPage, signInOverApi, type ApiSession } from './api-session';
import { openBrowser, signIn, type Browser, sidewaysScroll } from './browser';
import { DEMO_CUSTOMER, DEMO_AGENT } from './servers';

const server = inject('helpdesk');
const SCREENSHOTS = path.resolve(__dirname, '../../tmp/screenshots');

/*
 * The conversation is the reply: a ticket's comments are a thread on its page. The agent answers
 * and waits for the customer in one step, without a reload; an internal note is marked for the
 * agent and absent from everything the customer's browser receives; the customer's answer takes
 * the ticket back to open; a plain post works without JavaScript; a closed ticket takes no more.
 */
describe("a ticket's conversation, on the ticket's page", () => {
  let customer: Browser;
  let agent: Browser;
  let customerNoScript: Browser;
  let customerApi: ApiSession;
  let agentApi: ApiSession;
  let ticketUrl = '';
  let ticketId = 0;

  beforeAll(async () => {
    [customer, agent, customerNoScript] = await Promise.all([openBrowser(), openBrowser(), openBrowser({ javaScriptEnabled: false })]);
    await signIn(customer.page, server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    await signIn(agent.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
    await signIn(customerNoScript.page, server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    [customerApi, agentApi] = await Promise.all([
      signInOverApi(server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password),
      signInOverApi(server.url, DEMO_AGENT.email, DEMO_AGENT.password),
    ]);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(() => Promise.all([customer, agent, customerNoScript].filter(Boolean).map((b) => b.close())));

  const thread = (page: Page) => page.getByRole('list', { name: 'Comments' }).locator(':scope > li');
  const replyBox = (page: Page) => page.getByRole('form', { name: 'Reply' });
  const state = async (page: Page) => (await page.getByRole('region', { name: 'Workflow' }).locator('h2 + span').textContent())!.trim();
  const messages = async (page: Page) => (await thread(page).allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());

  /** Everything the customer's browser receives for the ticket: the HTML and the RSC payload. */
  async function customerBytes(): Promise<string> {
    const pathname = new URL(ticketUrl).pathname;
    const pages = await Promise.all([false, true].map((rsc) => fetchPage(server.url, customerApi, pathname, rsc)));
    for (const page of pages) expect(page.status).toBe(200);
    return pages.map((p) => p.text).join('\n');
  }

  async function apiTransition(name: string, input?: Record<string, unknown>): Promise<void> {
    const current = await callApi<{ version: number }>(server.url, agentApi, 'GET', `/tickets/${ticketId}`);
    const taken = await callApi(server.url, agentApi, 'POST', `/tickets/${ticketId}/transitions/${name}`, {
      version: current.body.version,
      ...(input ? { input } : {}),
    });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
  }

  it('lets the agent and the customer talk on the ticket, each reply moving it along', { timeout: 240_000 }, async () => {
    const tag = randomUUID().slice(0, 8);
    const created = await callApi<{ id: number }>(server.url, customerApi, 'POST', '/tickets', {
      subject: `Cannot print ${tag}`,
      description: 'The printer says **no**.',
    });
    expect(created.status).toBe(201);
    ticketId = created.body.id;
    ticketUrl = `${server.url}/tickets/${ticketId}`;
    await apiTransition('start', { assignee: agentApi.user.id });

    // The agent answers and waits for the customer in one step: no reload, the scroll kept.
    const page = agent.page;
    await page.goto(ticketUrl);
    expect(await messages(page)).toEqual([]);
    // Its buttons: the attachments' file chooser (a button to the browser) has no text of its own.
    const buttons = (await replyBox(page).getByRole('button').allInnerTexts()).filter((text) => text !== '');
    expect(buttons).toEqual(['Reply', 'Reply and wait for customer', 'Reply and resolve']);
    await page.evaluate(() => Object.assign(window, { nfMarker: 'same page' }));
    await replyBox(page).getByLabel('Body').fill(`Could you send a screenshot? ${tag}`);
    const waitButton = replyBox(page).getByRole('button', { name: 'Reply and wait for customer' });
    await waitButton.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    await waitButton.click();
    await expect.poll(() => state(page)).toBe('Pending');
    expect(await messages(page)).toEqual([
      expect.stringMatching(new RegExp(`^${agentApi.user.name} .* UTC Could you send a screenshot\\? ${tag}$`)),
    ]);
    expect(await page.evaluate(() => (window as unknown as { nfMarker?: string }).nfMarker)).toBe('same page');
    expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolled)).toBeLessThan(80);
    await expect.poll(() => replyBox(page).getByLabel('Body').inputValue()).toBe('');
    // The workflow panel no longer offers the requester's "Reply": replying is how it is taken.
    expect(await page.getByRole('region', { name: 'Workflow' }).getByRole('button', { name: 'Reply', exact: true }).count()).toBe(0);

    // An internal note: its own mode, marked while it is written, its button saying what it sends.
    await replyBox(page).getByLabel('Body').fill(`Customer's printer is an old model ${tag}`);
    await replyBox(page).getByText('Internal note', { exact: true }).click();
    expect(await replyBox(page).getByRole('radio', { name: 'Internal note' }).isChecked()).toBe(true);
    expect(await replyBox(page).getByText('Visible to agents only').isVisible()).toBe(true);
    // (Pending now: "wait" is not available, "resolve" is.)
    expect((await replyBox(page).getByRole('button').allInnerTexts()).filter((text) => text !== '')).toEqual([
      'Add internal note',
      'Add internal note and resolve',
    ]);
    await replyBox(page).getByRole('button', { name: 'Add internal note', exact: true }).click();
    await expect.poll(() => thread(page).count()).toBe(2);
    expect(await thread(page).nth(1).innerText()).toContain('Internal');
    expect(await thread(page).nth(0).innerText()).not.toContain('Internal');
    expect((await page.locator('#related-comment-heading').innerText()).replace(/\s+/g, ' ')).toBe('Comments 2');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'conversation-agent.png'), fullPage: true });
    await page.setViewportSize({ width: 360, height: 800 });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'conversation-agent-phone.png'), fullPage: true });
    expect(await sidewaysScroll(page)).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });

    // The customer sees the reply, not the note (nor its count, nor anything of it in what the browser gets).
    await customer.page.goto(ticketUrl);
    expect(await messages(customer.page)).toEqual([expect.stringContaining(`Could you send a screenshot? ${tag}`)]);
    expect((await customer.page.locator('#related-comment-heading').innerText()).replace(/\s+/g, ' ')).toBe('Comments 1');
    const bytes = await customerBytes();
    expect(bytes).toContain(`Could you send a screenshot? ${tag}`);
    expect(bytes).not.toContain(`old model ${tag}`);
    expect(bytes).not.toContain('Internal');
    // Only the plain reply for the customer: no transitions beside it, no Reply button in the panel.
    expect((await replyBox(customer.page).getByRole('button').allInnerTexts()).filter((text) => text !== '')).toEqual(['Reply']);
    expect(await customer.page.getByRole('region', { name: 'Workflow' }).getByRole('button').count()).toBe(0);

    // The customer's answer takes the ticket back to open.
    await replyBox(customer.page).getByLabel('Body').fill(`Here it is ${tag}`);
    await replyBox(customer.page).getByRole('button', { name: 'Reply', exact: true }).click();
    await expect.poll(() => state(customer.page)).toBe('Open');
    expect(await messages(customer.page)).toHaveLength(2);
    await customer.page.screenshot({ path: path.join(SCREENSHOTS, 'conversation-customer.png'), fullPage: true });
    await customer.page.setViewportSize({ width: 360, height: 800 });
    await customer.page.screenshot({ path: path.join(SCREENSHOTS, 'conversation-customer-phone.png'), fullPage: true });
    expect(await sidewaysScroll(customer.page)).toBe(0);
    await customer.page.setViewportSize({ width: 1280, height: 900 });

    // Without JavaScript: a plain post, then back at the thread.
    const noScript = customerNoScript.page;
    await noScript.goto(ticketUrl);
    await replyBox(noScript).getByLabel('Body').fill(`And one more thing ${tag}`);
    await Promise.all([
      noScript.waitForURL(/#related-comment$/),
      replyBox(noScript).getByRole('button', { name: 'Reply', exact: true }).click(),
    ]);
    expect(new URL(noScript.url()).pathname).toBe(`/tickets/${ticketId}`);
    expect((await messages(noScript)).at(-1)).toContain(`And one more thing ${tag}`);

    // The agent sees the whole conversation, oldest first.
    await page.goto(ticketUrl);
    expect((await messages(page)).map((m) => m.split(' UTC ')[1])).toEqual([
      `Could you send a screenshot? ${tag}`,
      `Internal Customer's printer is an old model ${tag}`,
      `Here it is ${tag}`,
      `And one more thing ${tag}`,
    ]);

    // Closed: no more replies, and no Edit; the edit page answers 403.
    await apiTransition('resolve');
    await apiTransition('close');
    await customer.page.goto(ticketUrl);
    expect(await state(customer.page)).toBe('Closed');
    expect(await replyBox(customer.page).count()).toBe(0);
    expect(await customer.page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
    await page.goto(ticketUrl);
    expect(await replyBox(page).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
    const edit = await customer.page.goto(`${ticketUrl}/edit`);
    expect(edit?.status()).toBe(403);
    const refused = await callApi<{ code: string }>(server.url, customerApi, 'POST', '/comments', { ticket: ticketId, body: 'Too late' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('TICKET_CLOSED');
    await customer.page.goto(ticketUrl);
    await customer.page.screenshot({ path: path.join(SCREENSHOTS, 'conversation-closed.png'), fullPage: true });
  });

  it(
    "shows an organization's tickets as a table, counted, paged in the address, with a form to add one",
    { timeout: 120_000 },
    async () => {
      const organizations = await callApi<{ items: { id: number }[] }>(server.url, agentApi, 'GET', '/organizations?limit=100');
      const counts = await Promise.all(
        organizations.body.items.map(async (o) => ({
          id: o.id,
          tickets: (await callApi<{ items: unknown[] }>(server.url, agentApi, 'GET', `/tickets?organization=${o.id}&limit=100`)).body.items
            .length,
        })),
      );
      const busiest = counts.sort((a, b) => b.tickets - a.tickets)[0]!;
      expect(busiest.tickets).toBeGreaterThan(0);
      const page = agent.page;
      await page.goto(`${server.url}/organizations/${busiest.id}?history=x`);
      const section = page.getByRole('region', { name: /^Tickets/ });
      expect((await page.locator('#related-ticket-heading').innerText()).replace(/\s+/g, ' ')).toBe(`Tickets ${busiest.tickets}`);
      const rows = section.locator('tbody tr');
      expect(await rows.count()).toBe(Math.min(busiest.tickets, 10));
      expect(await section.locator('thead th').allInnerTexts()).not.toContain('ORGANIZATION');
      // Agents may create tickets: the form is there, the organization set by the page.
      const add = page.getByRole('form', { name: 'Add ticket' });
      expect(await add.getByLabel('Subject').count()).toBe(1);
      expect(await add.getByLabel('Organization').count()).toBe(0);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'related-table.png'), fullPage: true });
      if (busiest.tickets > 10) {
        await section.getByRole('link', { name: 'Next page' }).click();
        await page.waitForURL(/[?&]tickets=/);
        // The other parameters of the page are kept.
        expect(new URL(page.url()).searchParams.get('history')).toBe('x');
        await expect.poll(() => rows.count()).toBe(Math.min(busiest.tickets - 10, 10));
      }
    },
  );
});
