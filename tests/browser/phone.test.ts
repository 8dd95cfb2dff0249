import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, requesterId, signInOverApi } from './api-session';
import { openBrowser, signIn, type Browser, sidewaysScroll } from './browser';
import { ADMIN } from './servers';

const server = inject('helpdesk');
const PHONE = { width: 360, height: 740 } as const;
const DESKTOP = { width: 1280, height: 900 } as const;
/** Outside the repository: looked at by whoever changes the layout, never committed. */
const SCREENSHOTS = path.join(process.env.NF_SCREENSHOTS ?? '/tmp/nf-screenshots', 'phone');

async function shoot(page: Page, name: string, fullPage = true): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage });
}

/*
 * At 360 px wide no page scrolls sideways; lists show their records as cards, with the filters
 * (as at every width) and bulk actions folded behind buttons that open them (without JavaScript
 * too: <details>).
 */
describe('on a phone', () => {
  let admin: Browser;
  let visitor: Browser;
  let ticketPath = '';

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    [admin, visitor] = await Promise.all([openBrowser(), openBrowser({ javaScriptEnabled: false })]);
    await signIn(admin.page, server.url, ADMIN.email, ADMIN.password);
    await admin.page.goto(`${server.url}/tickets`);
    ticketPath = new URL((await admin.page.locator('tbody tr a[href^="/tickets/"]').first().getAttribute('href'))!, server.url).pathname;
    await Promise.all([admin.page.setViewportSize(PHONE), visitor.page.setViewportSize(PHONE)]);
  });
  afterAll(() => Promise.all([admin, visitor].filter(Boolean).map((b) => b.close())));

  it('no page scrolls sideways', async () => {
    const pages = [
      '/',
      '/tickets',
      '/queue',
      ticketPath,
      '/tickets/new',
      `${ticketPath}/edit`,
      '/organizations',
      '/comments',
      '/spec',
      '/account',
      '/admin/users',
      '/api/docs',
    ];
    const wide: string[] = [];
    for (const address of pages) {
      await admin.page.goto(`${server.url}${address}`);
      const overflow = await sidewaysScroll(admin.page);
      if (overflow > 0) wide.push(`${address} (${overflow} px)`);
      await shoot(admin.page, address === '/' ? 'home' : address.slice(1).replace(/\//g, '-'));
    }
    await visitor.page.goto(`${server.url}/sign-in`);
    if ((await sidewaysScroll(visitor.page)) > 0) wide.push('/sign-in');
    await shoot(visitor.page, 'sign-in');
    expect(wide).toEqual([]);
  });

  it('wraps long unbroken words (links, ids, pasted data) instead of widening the page', async () => {
    const api = await signInOverApi(server.url, ADMIN.email, ADMIN.password);
    const word = `${'unbroken'.repeat(12)}-${'x'.repeat(40)}`;
    const created = await callApi<{ id: number; version: number }>(server.url, api, 'POST', '/tickets', {
      requester: await requesterId(server.url),
      subject: `Pasted ${word}`,
      description: `See ${word} and [a link](https://example.com/${word}) and \`${word}\` and data:text/html;base64,${'QUJD'.repeat(20)}`,
      priority: 'low',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const comment = await callApi(server.url, api, 'POST', '/comments', { ticket: created.body.id, body: `Also ${word}`, internal: false });
    expect(comment.status, JSON.stringify(comment.body)).toBe(201);
    const wide: string[] = [];
    for (const address of [`/tickets/${created.body.id}`, `/tickets/${created.body.id}/edit`, '/tickets', '/comments']) {
      await admin.page.goto(`${server.url}${address}`);
      const overflow = await sidewaysScroll(admin.page);
      if (overflow > 0) wide.push(`${address} (${overflow} px)`);
    }
    await shoot(admin.page, 'long-words');
    expect(wide).toEqual([]);
  });

  it('shows every entry of the navigation on screen: they wrap onto another line rather than hide', async () => {
    const page = admin.page;
    await page.goto(`${server.url}/`);
    const links = page.locator('nav[aria-label="Main"] a');
    expect(await links.count()).toBeGreaterThanOrEqual(7);
    const boxes = await links.evaluateAll((all) =>
      all.map((a) => a.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right })),
    );
    expect(boxes.filter((box) => box.left < 0 || box.right > PHONE.width)).toEqual([]);
    await shoot(page, 'navigation', false);
  });

  it("puts a ticket's conversation first, then its workflow (its state and transitions), then its history", async () => {
    const page = admin.page;
    await page.goto(`${server.url}${ticketPath}`);
    const top = (name: string) => page.getByRole('region', { name }).evaluate((section) => section.getBoundingClientRect().top);
    const workflow = await top('Workflow');
    expect(await top('Comments')).toBeLessThan(workflow);
    expect(workflow).toBeLessThan(await top('History'));
  });

  it('lists show each record as a card: title, number, state and a few fields, no table header', async () => {
    const page = admin.page;
    await page.goto(`${server.url}/tickets`);
    await expect.poll(() => page.locator('thead').isVisible()).toBe(false);
    const card = page.locator('tbody tr').first();
    const box = (await card.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(PHONE.width);
    expect(await card.evaluate((row) => getComputedStyle(row).display)).toBe('flex');
    // The title, the number and the state, and the fields shown with their labels.
    await expect.poll(() => card.locator('a[href^="/tickets/"]').first().isVisible()).toBe(true);
    const text = (await card.innerText()).replace(/\s+/g, ' ');
    expect(text).toMatch(/#\d+/);
    expect(text).toMatch(/Priority: (Low|Normal|High|Urgent)/);
    expect(text).toContain('SLA due: ');
    // Columns past the first few stay in the table, for wider screens.
    const visibleCells = await card
      .locator('td')
      .evaluateAll((cells) => cells.filter((c) => getComputedStyle(c).display !== 'none').length);
    expect(visibleCells).toBeLessThan(await card.locator('td').count());
    await expect.poll(() => page.locator('[data-list-count]').innerText()).toMatch(/^\d[\d,]* tickets?$|^More than [\d,]+ tickets$/);
  });

  it('folds the filters and bulk actions behind buttons that open them, even without JavaScript', async () => {
    const page = admin.page;
    await page.goto(`${server.url}/tickets`);
    // The search box shows; the filter fields wait behind the Filters disclosure.
    const search = page.getByRole('search', { name: 'Filter the list' });
    const bulk = page.getByRole('form', { name: 'Selected tickets' });
    expect(await search.getByRole('searchbox', { name: 'Search' }).isVisible()).toBe(true);
    expect(await search.getByLabel('SLA due').isVisible()).toBe(false);
    expect(await bulk.isVisible()).toBe(false);
    await page.locator('summary', { hasText: 'Filters' }).click();
    await expect.poll(() => search.getByLabel('SLA due').isVisible()).toBe(true);
    // The bulk panel, and its fold, show once a row is ticked.
    const bulkFold = page.locator('summary', { hasText: 'With the selected tickets' });
    expect(await bulkFold.isVisible()).toBe(false);
    await page.locator('tbody input[type="checkbox"][name="row"]').first().check();
    await bulkFold.click();
    await expect.poll(() => bulk.isVisible()).toBe(true);
    expect(await sidewaysScroll(page)).toBe(0);
    await shoot(page, 'tickets-filters-open', false);

    // Filtering by where the SLA stands, from the folded form.
    // With JavaScript a filter applies as it changes (the Apply button is for browsers without).
    await Promise.all([page.waitForURL(/slaDueAt=overdue/), search.getByLabel('SLA due').selectOption('overdue')]);
    await expect.poll(() => page.locator('summary', { hasText: 'Filters' }).innerText()).toBe('Filters (1)');
    const marks = await page
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => row.querySelector('[data-overdue]')?.textContent ?? ''));
    expect(marks.length).toBeGreaterThan(0);
    expect(marks.every((mark) => mark === 'Overdue')).toBe(true);

    // The headers that sort a table are not shown on a phone: the folded form sorts instead.
    const fold = page.locator('details', { has: page.locator('summary', { hasText: 'Filters' }) });
    if (!(await fold.evaluate((details) => (details as HTMLDetailsElement).open))) await fold.locator('summary').click();
    await Promise.all([page.waitForURL(/sort=slaDueAt/), search.getByLabel('Sort').selectOption('slaDueAt')]);
    const dues = await page
      .locator('tbody td[data-column="slaDueAt"] time')
      .evaluateAll((times) => times.map((t) => t.getAttribute('datetime')));
    expect(dues.length).toBeGreaterThan(0);
    expect(dues).toEqual([...dues].sort());
    expect(new URL(page.url()).searchParams.get('slaDueAt')).toBe('overdue');

    // A browser without JavaScript opens the disclosure too.
    const noScript = await openBrowser({ javaScriptEnabled: false });
    try {
      await noScript.page.setViewportSize(PHONE);
      await signIn(noScript.page, server.url, ADMIN.email, ADMIN.password);
      await noScript.page.goto(`${server.url}/tickets`);
      const folded = noScript.page.getByRole('search', { name: 'Filter the list' }).getByLabel('SLA due');
      expect(await folded.isVisible()).toBe(false);
      await noScript.page.locator('summary', { hasText: 'Filters' }).click();
      await expect.poll(() => folded.isVisible()).toBe(true);
    } finally {
      await noScript.close();
    }
  });

  it('shows the same list as a table, its filters one disclosure beside the search, on a wide screen', async () => {
    const page = admin.page;
    await page.setViewportSize(DESKTOP);
    try {
      await page.goto(`${server.url}/tickets`);
      await expect.poll(() => page.locator('thead').isVisible()).toBe(true);
      expect(await page.locator('summary', { hasText: 'Filters' }).isVisible()).toBe(true);
      expect(await page.getByRole('search', { name: 'Filter the list' }).getByRole('searchbox', { name: 'Search' }).isVisible()).toBe(true);
      expect(
        await page
          .locator('tbody tr')
          .first()
          .evaluate((row) => getComputedStyle(row).display),
      ).toBe('table-row');
      expect(await sidewaysScroll(page)).toBe(0);
      await shoot(page, 'tickets');
      await page.goto(`${server.url}${ticketPath}`);
      await shoot(page, 'ticket');
    } finally {
      await page.setViewportSize(PHONE);
    }
  });
});
