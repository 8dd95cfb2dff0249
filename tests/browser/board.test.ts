import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, signInOverApi, type ApiSession } from './api-session';
import { axeViolations } from './axe';
import { openBrowser, sidewaysScroll, signIn, type Browser } from './browser';

const server = inject('crm');
const SALES = { email: 'sales1@demo.ninefold.test', password: 'demo-password' } as const;

interface Deal {
  readonly id: number;
  readonly title: string;
  readonly state: string;
  readonly company: number;
  readonly version: number;
}

/*
 * The CRM's deals open as a board (screens.lists.deal.board: 'state'): a salesperson moves their
 * deals across it by keyboard and by drag and drop, each move the transition that leads to the
 * column; a refused one says why, and the deal stays.
 */
describe('the deals board', () => {
  let sales: Browser;
  let api: ApiSession;
  let company: number;

  const column = (page: Page, label: string) => page.getByRole('region', { name: label, exact: true });
  const card = (page: Page, deal: Deal) => page.locator(`li[data-card="${deal.id}"]`);
  const stateOf = async (deal: Deal) => (await callApi<Deal>(server.url, api, 'GET', `/deals/${deal.id}`)).body.state;

  async function newDeal(value: string | null, state: 'lead' | 'qualified' = 'lead'): Promise<Deal> {
    const title = `Board ${randomUUID().slice(0, 8)}`;
    const created = await callApi<Deal>(server.url, api, 'POST', '/deals', { title, company, ...(value ? { value } : {}) });
    expect(created.status).toBe(201);
    if (state === 'lead') return created.body;
    const moved = await callApi<Deal>(server.url, api, 'POST', `/deals/${created.body.id}/transitions/qualify`, {
      version: created.body.version,
    });
    expect(moved.status).toBe(200);
    return moved.body;
  }

  /** Chooses the column in the card's "Move to" select and presses its Move button from the keyboard. */
  async function moveByKeyboard(page: Page, deal: Deal, to: string): Promise<void> {
    const select = page.getByRole('combobox', { name: `Move ${deal.title} to`, exact: true });
    await select.focus();
    await select.selectOption({ label: to });
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Move');
    await page.keyboard.press('Enter');
  }

  beforeAll(async () => {
    sales = await openBrowser();
    await signIn(sales.page, server.url, SALES.email, SALES.password);
    api = await signInOverApi(server.url, SALES.email, SALES.password);
    const companies = await callApi<{ items: { id: number }[] }>(server.url, api, 'GET', '/companies?limit=1');
    company = companies.body.items[0]!.id;
  });
  afterAll(() => sales?.close());

  it('opens as a board: a labelled column per stage with its count and value, the table one switch away', async () => {
    const page = sales.page;
    const deal = await newDeal('1234.50');
    await page.goto(`${server.url}/deals`);
    for (const stage of ['Lead', 'Qualified', 'Proposal', 'Won', 'Lost']) {
      expect(await column(page, stage).getByRole('heading', { name: stage, level: 2 }).count(), stage).toBe(1);
    }
    const lead = column(page, 'Lead');
    expect(await lead.locator('p').first().textContent()).toMatch(/^\d+ deals? · €[\d,.]+$/);
    expect(await lead.getByRole('link', { name: deal.title, exact: true }).count()).toBe(1);
    expect(await card(page, deal).textContent()).toContain('€1,234.50');
    await page.getByRole('navigation', { name: 'Show as' }).getByRole('link', { name: 'Table' }).click();
    await page.waitForURL((url) => url.searchParams.get('view') === 'table');
    expect(await page.locator('main tbody tr').count()).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('moves a deal by keyboard, announcing it', async () => {
    const page = sales.page;
    const deal = await newDeal('500');
    await page.goto(`${server.url}/deals`);
    await page.locator('form[aria-label="Move deals"]').waitFor();
    await moveByKeyboard(page, deal, 'Qualified');
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'moved to' }).textContent())
      .toBe(`“${deal.title}” moved to Qualified.`);
    await expect.poll(() => column(page, 'Qualified').locator(`li[data-card="${deal.id}"]`).count()).toBe(1);
    expect(await stateOf(deal)).toBe('qualified');
  });

  it('moves a deal by drag and drop onto a column it may go to', async () => {
    const page = sales.page;
    const deal = await newDeal('750', 'qualified');
    await page.goto(`${server.url}/deals`);
    // The drop is React's: wait until the board's form carries its handlers.
    await page.waitForFunction(() => {
      const form = document.querySelector('form[aria-label="Move deals"]');
      return form !== null && Object.keys(form).some((key) => key.startsWith('__reactProps'));
    });
    await card(page, deal).dragTo(column(page, 'Proposal'));
    await expect.poll(() => stateOf(deal), { timeout: 10_000 }).toBe('proposal');
    await expect.poll(() => column(page, 'Proposal').locator(`li[data-card="${deal.id}"]`).count()).toBe(1);
  });

  it('refuses a move with its reason, and the deal stays', async () => {
    const page = sales.page;
    const deal = await newDeal(null, 'qualified');
    await page.goto(`${server.url}/deals`);
    await moveByKeyboard(page, deal, 'Proposal');
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: deal.title }).textContent())
      .toBe(`“${deal.title}” was not moved: A deal needs a value before a proposal is sent.`);
    expect(await column(page, 'Qualified').locator(`li[data-card="${deal.id}"]`).count()).toBe(1);
    expect(await stateOf(deal)).toBe('qualified');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('opens the deal for a move that asks for a comment (lost)', async () => {
    const page = sales.page;
    const deal = await newDeal('90');
    await page.goto(`${server.url}/deals`);
    await moveByKeyboard(page, deal, 'Lost');
    await page.waitForURL((url) => url.pathname === `/deals/${deal.id}`);
    expect(await stateOf(deal)).toBe('lead');
  });

  it('moves a deal without JavaScript, and fits a phone', async () => {
    const plain = await openBrowser({ javaScriptEnabled: false });
    try {
      await signIn(plain.page, server.url, SALES.email, SALES.password);
      const page = plain.page;
      const deal = await newDeal('300');
      await page.goto(`${server.url}/deals`);
      await page.getByRole('combobox', { name: `Move ${deal.title} to`, exact: true }).selectOption({ label: 'Qualified' });
      await page.getByRole('button', { name: `Move ${deal.title}`, exact: true }).click();
      await page.waitForLoadState('load');
      await expect.poll(() => stateOf(deal)).toBe('qualified');
      expect(await page.getByRole('status').filter({ hasText: 'moved to' }).textContent()).toBe(`“${deal.title}” moved to Qualified.`);
      await page.setViewportSize({ width: 360, height: 780 });
      await page.goto(`${server.url}/deals`);
      expect(await sidewaysScroll(page)).toBe(0);
    } finally {
      await plain.close();
    }
  });
});
