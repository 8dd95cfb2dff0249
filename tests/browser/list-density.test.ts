import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, requesterId, signInOverApi } from './api-session';
import { axeViolations } from './axe';
import { openBrowser, openFilters, sidewaysScroll, signIn, type Browser } from './browser';
import { DEMO_AGENT } from './servers';

const server = inject('helpdesk');
const LAPTOP = { width: 1280, height: 800 } as const;
/** Outside the repository: looked at by whoever changes the layout, never committed. */
const SCREENSHOTS = path.join(process.env.NF_SCREENSHOTS ?? '/tmp/nf-screenshots', 'list-density');

/** How far the list's table region scrolls sideways: 0 when its columns fit. */
const tableOverflow = (page: Page) =>
  page.getByRole('group', { name: 'Table: Tickets' }).evaluate((region) => region.scrollWidth - region.clientWidth);

/** The rows wholly inside the window, and where the first starts. */
async function rowsInView(page: Page): Promise<{ firstTop: number; whole: number }> {
  return page.locator('tbody tr').evaluateAll((rows) => {
    const boxes = rows.map((row) => row.getBoundingClientRect());
    return { firstTop: boxes[0]?.top ?? Infinity, whole: boxes.filter((box) => box.bottom <= window.innerHeight).length };
  });
}

const chips = (page: Page) => page.getByRole('list', { name: 'Active filters' }).getByRole('link');

/*
 * A list people can read on a laptop: one row of search, a Filters disclosure and the active
 * filters as chips above the table; columns that fit the width (the spec's order is which stay);
 * long text cut with an ellipsis and whole on hover.
 */
describe('a list that fits a laptop screen', () => {
  let agent: Browser;
  let noScript: Browser;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    [agent, noScript] = await Promise.all([openBrowser(), openBrowser({ javaScriptEnabled: false })]);
    await Promise.all([agent.page.setViewportSize(LAPTOP), noScript.page.setViewportSize(LAPTOP)]);
    await signIn(agent.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
    await signIn(noScript.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
  });
  afterAll(() => Promise.all([agent, noScript].filter(Boolean).map((b) => b.close())));

  it('starts the table high and shows ten rows or more, with no column beyond the width', async () => {
    const { page } = agent;
    await page.goto(`${server.url}/tickets`);
    await expect.poll(() => page.locator('tbody tr').count()).toBeGreaterThanOrEqual(10);
    const { firstTop, whole } = await rowsInView(page);
    expect(firstTop).toBeLessThan(300);
    expect(whole).toBeGreaterThanOrEqual(10);
    expect(await tableOverflow(page)).toBeLessThanOrEqual(0);
    expect(await sidewaysScroll(page)).toBe(0);
    // The first columns of the spec's list stay, the last go; the hidden ones are still in the chooser.
    const shown = await page
      .locator('thead th')
      .evaluateAll((cells) => cells.filter((c) => getComputedStyle(c).display !== 'none').map((c) => c.textContent?.trim() ?? ''));
    expect(shown).toEqual(expect.arrayContaining(['ID', 'Subject', 'State', 'Priority']));
    expect(shown).not.toContain('Updated');
    await page.locator('summary', { hasText: 'Columns' }).click();
    const chooser = page.getByRole('form', { name: 'Choose the columns' });
    expect(await chooser.getByRole('checkbox', { name: 'Updated', exact: true }).isChecked()).toBe(true);
    await page.locator('summary', { hasText: 'Columns' }).click();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'tickets-1280.png') });
    // Wider than the laptop's window, the same rules: still nothing beyond the width.
    await page.setViewportSize({ width: 1600, height: 900 });
    expect(await tableOverflow(page)).toBeLessThanOrEqual(0);
    // And narrower: fewer columns, none cut off at the edge.
    await page.setViewportSize({ width: 800, height: 800 });
    expect(await tableOverflow(page)).toBeLessThanOrEqual(0);
    expect(await sidewaysScroll(page)).toBe(0);
    await page.setViewportSize(LAPTOP);
  });

  it('cuts a long subject with an ellipsis, keeps its row one line high, and gives the whole subject on hover', async () => {
    const { page } = agent;
    const word = `ld${randomUUID().replace(/-/g, '').slice(0, 10)}`;
    const subject = `The invoice export fails for every customer whose name has an accent in it ${word}`;
    const api = await signInOverApi(server.url, DEMO_AGENT.email, DEMO_AGENT.password);
    expect((await callApi(server.url, api, 'POST', '/tickets', { requester: await requesterId(server.url), subject })).status).toBe(201);
    await page.goto(`${server.url}/tickets?q=${word}`);
    const cell = page.locator('tbody td[data-column="subject"] .nf-cell-text');
    await expect.poll(() => cell.count()).toBe(1);
    expect(await cell.getAttribute('title')).toBe(subject);
    expect(await cell.evaluate((span) => span.scrollWidth > span.clientWidth)).toBe(true);
    expect(await page.getByRole('link', { name: subject }).count()).toBe(1);
    // One line of text: as high as a row whose subject is short.
    const height = await page
      .locator('tbody tr')
      .first()
      .evaluate((row) => row.getBoundingClientRect().height);
    expect(height).toBeLessThan(50);
    // A short subject has no tooltip to give.
    await page.goto(`${server.url}/tickets`);
    const titled = await page
      .locator('tbody td[data-column="subject"] .nf-cell-text')
      .evaluateAll((spans) =>
        spans.filter((s) => s.hasAttribute('title') && s.scrollWidth <= s.clientWidth && (s.textContent ?? '').length < 20),
      );
    expect(titled).toHaveLength(0);
  });

  it('shows an active filter as a chip beside the Filters disclosure, which removes it', async () => {
    const { page } = agent;
    await page.goto(`${server.url}/tickets`);
    await page.locator('form[role="search"][data-enhanced]').waitFor();
    expect(await chips(page).count()).toBe(0);
    await openFilters(page);
    await Promise.all([
      page.waitForURL((url) => url.searchParams.get('priority') === 'urgent'),
      page.getByRole('combobox', { name: 'Priority', exact: true }).selectOption('urgent'),
    ]);
    await expect.poll(() => chips(page).allTextContents()).toEqual(['Remove the filter Priority: Urgent']);
    expect(await chips(page).first().innerText()).toContain('Priority: Urgent');
    await expect.poll(() => page.locator('summary', { hasText: 'Filters' }).innerText()).toBe('Filters (1)');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'tickets-filtered-open-1280.png') });
    // The disclosure closed, the table still starts high with a filter on.
    await page.locator('summary', { hasText: 'Filters' }).click();
    expect((await rowsInView(page)).firstTop).toBeLessThan(300);
    expect(await axeViolations(page)).toEqual([]);

    await Promise.all([page.waitForURL((url) => !url.searchParams.has('priority')), chips(page).first().click()]);
    await expect.poll(() => chips(page).count()).toBe(0);
    // (The disclosure is closed: its select is read where it is.)
    expect(await page.locator('form[role="search"] select[name="priority"]').inputValue()).toBe('');
  });

  it('works without JavaScript: the disclosure opens, Apply filters, a chip removes the filter', async () => {
    const { page } = noScript;
    await page.goto(`${server.url}/tickets?sort=-updatedAt`);
    const priority = page.getByRole('combobox', { name: 'Priority', exact: true });
    expect(await priority.isVisible()).toBe(false);
    await page.locator('summary', { hasText: 'Filters' }).click();
    await expect.poll(() => priority.isVisible()).toBe(true);
    await priority.selectOption('high');
    await Promise.all([
      page.waitForURL((url) => url.searchParams.get('priority') === 'high'),
      page.getByRole('search').getByRole('button', { name: 'Apply', exact: true }).click(),
    ]);
    // The sort is kept, and the filter shows as a chip whose link is the list without it.
    expect(new URL(page.url()).search).toBe('?priority=high&sort=-updatedAt');
    expect(await chips(page).allTextContents()).toEqual(['Remove the filter Priority: High']);
    await Promise.all([page.waitForURL((url) => !url.searchParams.has('priority')), chips(page).first().click()]);
    expect(new URL(page.url()).search).toBe('?sort=-updatedAt');
    expect(await chips(page).count()).toBe(0);
  });
});
