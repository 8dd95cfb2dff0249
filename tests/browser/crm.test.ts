import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, signInOverApi, type ApiSession } from './api-session';
import { openBrowser, signIn, type Browser, sidewaysScroll } from './browser';

const server = inject('crm');
const SALES = { email: 'sales1@demo.ninefold.test', password: 'demo-password' } as const;
const MANAGER = { email: 'manager1@demo.ninefold.test', password: 'demo-password' } as const;
const SCREENSHOTS = path.resolve(__dirname, '../../tmp/screenshots');
const OPEN_STAGES = ['lead', 'qualified', 'proposal'];
const STAGE_LABELS: Record<string, string> = { lead: 'Lead', qualified: 'Qualified', proposal: 'Proposal', won: 'Won', lost: 'Lost' };

interface Deal {
  readonly id: number;
  readonly title: string;
  readonly state: string;
  readonly company: number;
  readonly owner: number;
  readonly value: string | null;
  readonly version: number;
}

/** Deal values are money in euros (purpose.currency), written the en-US way on pages. */
const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' });

/*
 * The second example, served with no engine code of its own: a salesperson starts on the
 * pipeline home, opens My deals, looks a company up and moves a deal through the pipeline; the
 * manager sees every deal.
 */
describe('the CRM example', () => {
  let sales: Browser;
  let manager: Browser;
  let salesApi: ApiSession;
  let managerApi: ApiSession;
  let mine: Deal[];
  let all: Deal[];

  async function deals(session: ApiSession): Promise<Deal[]> {
    const found: Deal[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: { status: number; body: { items: Deal[]; nextCursor: string | null } } = await callApi(
        server.url,
        session,
        'GET',
        `/deals?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      found.push(...page.body.items);
      cursor = page.body.nextCursor;
    }
    return found;
  }

  /** The ids of the deals a page links to (in its main content). */
  async function linkedDeals(page: Page, scope = page.locator('main')): Promise<number[]> {
    const hrefs = await scope.locator('a[href^="/deals/"]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    return [
      ...new Set(
        hrefs
          .map((h) => /^\/deals\/(\d+)$/.exec(h)?.[1])
          .filter(Boolean)
          .map(Number),
      ),
    ].sort((a, b) => a - b);
  }

  const ids = (list: readonly Deal[]) => list.map((d) => d.id).sort((a, b) => a - b);

  beforeAll(async () => {
    [sales, manager] = await Promise.all([openBrowser(), openBrowser()]);
    await signIn(sales.page, server.url, SALES.email, SALES.password);
    await signIn(manager.page, server.url, MANAGER.email, MANAGER.password);
    [salesApi, managerApi] = await Promise.all([
      signInOverApi(server.url, SALES.email, SALES.password),
      signInOverApi(server.url, MANAGER.email, MANAGER.password),
    ]);
    [mine, all] = await Promise.all([deals(salesApi), deals(managerApi)]);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(() => Promise.all([sales, manager].filter(Boolean).map((b) => b.close())));

  it('gives the seeded salesperson deals of their own, open ones among them, and the manager every deal', () => {
    expect(mine.filter((d) => OPEN_STAGES.includes(d.state)).length).toBeGreaterThan(0);
    expect(mine.every((d) => d.owner === salesApi.user.id)).toBe(true);
    expect(all.length).toBeGreaterThan(mine.length);
    expect(new Set(all.map((d) => d.owner)).size).toBeGreaterThan(1);
  });

  it("shows the salesperson's pipeline value per stage on the home", async () => {
    const page = sales.page;
    await page.goto(`${server.url}/`);
    const widget = page.getByRole('region', { name: 'Pipeline value by stage' });
    await expect.poll(() => widget.isVisible()).toBe(true);
    for (const stage of Object.keys(STAGE_LABELS)) {
      const sum = mine.filter((d) => d.state === stage).reduce((total, d) => total + Number(d.value ?? 0), 0);
      const name = `${STAGE_LABELS[stage]}: ${money.format(Math.round(sum * 100) / 100)}`;
      expect(await widget.getByRole('link', { name, exact: true }).count(), name).toBe(1);
    }
    const needing = page.getByRole('region', { name: 'Deals needing my action' });
    const expected = ids(mine.filter((d) => OPEN_STAGES.includes(d.state)));
    const listed = await linkedDeals(page, needing);
    expect(listed.length).toBeGreaterThan(0);
    for (const id of listed) expect(expected).toContain(id);
    const chart = page.getByRole('region', { name: 'Deals created and won per day' });
    expect(await chart.textContent()).toMatch(/Created: [1-9]/);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'crm-home-1280.png'), fullPage: true });
  });

  it('lists only their own open deals under My deals, reached from the navigation', async () => {
    const page = sales.page;
    await page.goto(`${server.url}/`);
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/my-deals'),
      page.getByRole('navigation').getByRole('link', { name: 'My deals' }).first().click(),
    ]);
    await expect.poll(() => page.getByRole('heading', { name: 'My deals' }).first().isVisible()).toBe(true);
    expect(await linkedDeals(page)).toEqual(ids(mine.filter((d) => OPEN_STAGES.includes(d.state))));
  });

  it("shows a company's contacts and the viewer's deals with it on the company's page", async () => {
    const page = sales.page;
    const company = mine[0]!.company;
    const contacts = await callApi<{ items: { id: number; name: string }[] }>(
      server.url,
      salesApi,
      'GET',
      `/contacts?company=${company}&limit=100`,
    );
    await page.goto(`${server.url}/companies/${company}`);
    const contactSection = page.getByRole('region', { name: /^Contacts/ });
    for (const contact of contacts.body.items) {
      expect(await contactSection.locator(`a[href="/contacts/${contact.id}"]`).count(), contact.name).toBeGreaterThan(0);
    }
    const dealSection = page.getByRole('region', { name: /^Deals/ });
    expect(await linkedDeals(page, dealSection)).toEqual(ids(mine.filter((d) => d.company === company)));
    await page.screenshot({ path: path.join(SCREENSHOTS, 'crm-company-1280.png'), fullPage: true });
  });

  it('fits a phone: no page scrolls sideways at 360 px', async () => {
    const page = sales.page;
    await page.setViewportSize({ width: 360, height: 780 });
    try {
      const pages = {
        home: '/',
        'my-deals': '/my-deals',
        company: `/companies/${mine[0]!.company}`,
        deal: `/deals/${mine[0]!.id}`,
        deals: '/deals',
        'deals-table': '/deals?view=table',
      };
      for (const [name, address] of Object.entries(pages)) {
        await page.goto(`${server.url}${address}`);
        expect(await sidewaysScroll(page), name).toBe(0);
        await page.screenshot({ path: path.join(SCREENSHOTS, `crm-${name}-360.png`), fullPage: true });
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('writes a deal value as euros with separators in the list and on the deal, and plain in the API', async () => {
    const page = sales.page;
    const title = `Money ${randomUUID().slice(0, 8)}`;
    const created = await callApi<Deal>(server.url, salesApi, 'POST', '/deals', { title, company: mine[0]!.company, value: 38533.32 });
    expect(created.status).toBe(201);
    expect(created.body.value).toBe('38533.32');
    await page.goto(`${server.url}/deals?q=${encodeURIComponent(title)}&view=table`);
    const row = page.locator('main tbody tr').filter({ hasText: title });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('€38,533.32');
    await page.goto(`${server.url}/deals/${created.body.id}`);
    expect(await page.locator('main dl').first().textContent()).toContain('Value€38,533.32');
  });

  describe('a new deal through the pipeline', () => {
    const panel = (page: Page) => page.getByRole('region', { name: 'Workflow' });
    const state = async (page: Page) => (await panel(page).locator('h2 + span').textContent())!.trim();

    async function take(page: Page, label: string, to: string): Promise<void> {
      await panel(page).getByRole('button', { name: label, exact: true }).click();
      await expect.poll(() => state(page)).toBe(to);
    }

    async function newDeal(value: string | null): Promise<Deal> {
      const created = await callApi<Deal>(server.url, salesApi, 'POST', '/deals', {
        title: `Pilot ${randomUUID().slice(0, 8)}`,
        company: mine[0]!.company,
        ...(value ? { value } : {}),
      });
      expect(created.status).toBe(201);
      return created.body;
    }

    it('moves lead → qualified → proposal from the workflow panel', async () => {
      const page = sales.page;
      const deal = await newDeal('12500.00');
      await page.goto(`${server.url}/deals/${deal.id}`);
      expect(await state(page)).toBe('Lead');
      await take(page, 'Qualify', 'Qualified');
      await take(page, 'Send proposal', 'Proposal');
      const stored = await callApi<Deal>(server.url, salesApi, 'GET', `/deals/${deal.id}`);
      expect(stored.body.state).toBe('proposal');
    });

    it("refuses a proposal without a value, with the spec's own words", async () => {
      const page = sales.page;
      const deal = await newDeal(null);
      await page.goto(`${server.url}/deals/${deal.id}`);
      await take(page, 'Qualify', 'Qualified');
      const propose = panel(page).getByRole('button', { name: 'Send proposal', exact: true });
      expect(await propose.isDisabled()).toBe(true);
      expect(await panel(page).textContent()).toContain('A deal needs a value before a proposal is sent.');
      const refused = await callApi<{ code: string }>(server.url, salesApi, 'POST', `/deals/${deal.id}/transitions/propose`, {
        version: 2,
      });
      expect(refused.body.code).toBe('DEAL_NEEDS_VALUE');
    });
  });

  it("lets the manager see every deal, and keeps a salesperson out of another's", async () => {
    const page = manager.page;
    const now = await deals(managerApi);
    await page.goto(`${server.url}/deals?view=table`);
    expect(await page.locator('[data-list-count]').first().textContent()).toBe(`${now.length} deals`);
    const other = all.find((d) => d.owner !== salesApi.user.id)!;
    await page.goto(`${server.url}/deals/${other.id}`);
    expect(await page.getByRole('heading', { level: 1 }).first().textContent()).toContain(other.title);
    const refused = await callApi(server.url, salesApi, 'GET', `/deals/${other.id}`);
    expect(refused.status).toBe(404);
  });
});
