import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, signInOverApi, type ApiSession } from './api-session';
import { axeViolations } from './axe';
import { openBrowser, sidewaysScroll, signIn, type Browser } from './browser';
import { DEMO_AGENT, DEMO_CUSTOMER } from './servers';

const server = inject('helpdesk');
const SCREENSHOTS = path.resolve(__dirname, '../../tmp/screenshots');

/*
 * A morning's queue without the edit page: the ticket reads as a conversation (the thread and its
 * reply box first, the facts and the requester beside it), a field changes in place with one save
 * (with and without JavaScript), and "Assign to me" takes a ticket in one press.
 */
describe('triage on the ticket page', () => {
  let agent: Browser;
  let agentNoScript: Browser;
  let agentApi: ApiSession;
  let customerApi: ApiSession;

  beforeAll(async () => {
    [agent, agentNoScript] = await Promise.all([openBrowser(), openBrowser({ javaScriptEnabled: false })]);
    await signIn(agent.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
    await signIn(agentNoScript.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
    [agentApi, customerApi] = await Promise.all([
      signInOverApi(server.url, DEMO_AGENT.email, DEMO_AGENT.password),
      signInOverApi(server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password),
    ]);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(() => Promise.all([agent, agentNoScript].filter(Boolean).map((b) => b.close())));

  /** A new ticket of the demo customer with `replies` public replies of the agent, in state new. */
  async function ticketWithReplies(subject: string, replies: number): Promise<number> {
    const created = await callApi<{ id: number }>(server.url, customerApi, 'POST', '/tickets', { subject, description: 'It **broke**.' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    for (let i = 1; i <= replies; i++) {
      const reply = await callApi(server.url, agentApi, 'POST', '/comments', {
        ticket: created.body.id,
        body: `Answer ${i} to ${subject}`,
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    }
    return created.body.id;
  }

  const box = async (page: Page, name: string) => (await page.getByRole('region', { name }).first().boundingBox())!;
  const fact = (page: Page, label: string) => page.locator('dt', { hasText: new RegExp(`^${label}$`, 'i') }).locator('+ dd > :first-child');

  it(
    'leads with the conversation and its reply box, the facts and the requester beside it; on a phone, folded below',
    { timeout: 180_000 },
    async () => {
      const tag = randomUUID().slice(0, 8);
      const id = await ticketWithReplies(`Layout ${tag}`, 3);
      const page = agent.page;
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${server.url}/tickets/${id}`);

      const thread = await box(page, 'Comments');
      const workflow = await box(page, 'Workflow');
      expect(thread.y).toBeLessThan(800);
      // Beside, not above: the side panel starts to the right of the conversation.
      expect(workflow.x).toBeGreaterThan(thread.x + thread.width);
      // The requester's card: who the conversation is with, and their other tickets in progress.
      const requester = page.getByRole('region', { name: 'Requester' });
      expect(await requester.innerText()).toContain(customerApi.user.name);
      expect(await requester.innerText()).toMatch(/Their other tickets in progress: \d/);
      // One step to the reply box below the thread.
      await page.getByRole('link', { name: 'Write a reply' }).click();
      await expect.poll(() => new URL(page.url()).hash).toBe('#related-comment-reply');
      const reply = await page.getByRole('form', { name: 'Reply' }).boundingBox();
      expect(reply!.y).toBeGreaterThanOrEqual(0);
      expect(reply!.y).toBeLessThan(800);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'triage-conversation.png') });

      await page.setViewportSize({ width: 360, height: 800 });
      await page.goto(`${server.url}/tickets/${id}`);
      expect(await sidewaysScroll(page)).toBe(0);
      // In reading order: the conversation, then what one can do, then the facts folded away.
      expect((await box(page, 'Comments')).y).toBeLessThan((await box(page, 'Workflow')).y);
      const details = page.locator('details', { has: page.locator('summary', { hasText: 'Details' }) });
      expect(await details.getAttribute('open')).toBeNull();
      expect((await details.boundingBox())!.y).toBeGreaterThan((await box(page, 'Workflow')).y);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'triage-conversation-phone.png'), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
    },
  );

  it('changes one field in place and assigns to me with one press, writing that field alone', { timeout: 180_000 }, async () => {
    const tag = randomUUID().slice(0, 8);
    const id = await ticketWithReplies(`In place ${tag}`, 0);
    const page = agent.page;
    await page.goto(`${server.url}/tickets/${id}`);
    expect(await fact(page, 'Priority').innerText()).toBe('Normal');

    await page.getByText('Change Priority').click();
    await page.getByRole('combobox', { name: 'Priority' }).selectOption('high');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => fact(page, 'Priority').innerText()).toBe('High');
    // The disclosure closed with the save; the page was refreshed in place.
    expect(await page.locator('details[open]').count()).toBe(0);

    await page.getByRole('button', { name: 'Assign to me as Assignee' }).click();
    await expect.poll(() => fact(page, 'Assignee').innerText()).toBe(agentApi.user.name);
    expect(await page.getByRole('button', { name: 'Assign to me as Assignee' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    // Each save wrote its own field: the history names no other.
    const history = (await page.getByRole('region', { name: 'History' }).innerText()).replace(/\s+/g, ' ');
    expect(history).toContain('Priority: Normal → High');
    expect(history).toContain(agentApi.user.name);
    expect(history).not.toMatch(/Description:|Subject:|Due:/);

    // Without JavaScript: a plain post, back on the record with the new value.
    const plain = agentNoScript.page;
    await plain.goto(`${server.url}/tickets/${id}`);
    await plain.getByText('Change Priority').click();
    await plain.getByRole('combobox', { name: 'Priority' }).selectOption('urgent');
    await Promise.all([plain.waitForURL(`${server.url}/tickets/${id}`), plain.getByRole('button', { name: 'Save', exact: true }).click()]);
    expect(await fact(plain, 'Priority').innerText()).toBe('Urgent');
  });
});
