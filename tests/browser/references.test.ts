import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, signInOverApi, type ApiSession } from './api-session';
import { axeViolations } from './axe';
import { openBrowser, openFilters, sidewaysScroll, signIn, type Browser } from './browser';
import { ADMIN, startServer, stopServer, type RunningServer } from './servers';
import { pick } from './pick';

const SCREENSHOTS = path.resolve(__dirname, '../../tmp/screenshots');

/*
 * A references field on the pages (examples/publication: an article's tags): chosen with the
 * keyboard and the mouse in a combobox, shown as links on the record and in the list, one
 * removed again, and the same form without JavaScript as a plain multiple select.
 */
describe('a references field in forms, lists and records', () => {
  let server: RunningServer;
  let api: ApiSession;
  let browser: Browser;
  let team: number;
  const tags: Record<string, number> = {};

  beforeAll(async () => {
    server = await startServer('publication', {
      NINEFOLD_SPEC: 'examples/publication/ninefold.spec.ts',
      NINEFOLD_ADMIN_EMAIL: ADMIN.email,
      NINEFOLD_ADMIN_PASSWORD: ADMIN.password,
    });
    api = await signInOverApi(server.url, ADMIN.email, ADMIN.password);
    const made = await callApi<{ id: number }>(server.url, api, 'POST', '/teams', { name: 'Newsdesk' });
    expect(made.status).toBe(201);
    team = made.body.id;
    for (const name of ['News', 'Sport', 'Culture', 'Weather']) {
      const tag = await callApi<{ id: number }>(server.url, api, 'POST', '/tags', { name });
      expect(tag.status).toBe(201);
      tags[name] = tag.body.id;
    }
    browser = await openBrowser();
    await signIn(browser.page, server.url, ADMIN.email, ADMIN.password);
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    if (server) await stopServer(server);
  });

  it('picks tags with the keyboard and the mouse, saves them, and shows them as links', async () => {
    const page = browser.page;
    await page.goto(`${server.url}/articles/new`);
    await page.getByLabel('Title').fill('Cup final report');
    await pick(page, 'Team', 'Newsdesk');
    const box = page.getByRole('combobox', { name: 'Tags' });
    await box.click();
    await box.fill('spo');
    const choices = page.getByRole('listbox', { name: 'Tags: choices' });
    // The server answers what was typed: only the matching tags.
    await expect.poll(() => choices.getByRole('option').allTextContents()).toEqual(['Sport']);
    await box.press('Enter');
    await expect.poll(() => page.getByRole('button', { name: 'Remove Sport' }).count()).toBe(1);
    // The list stays open after a choice: the mouse adds another.
    await box.press('ArrowDown');
    await choices.getByRole('option', { name: 'Culture' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Remove Culture' }).count()).toBe(1);
    expect(await choices.getByRole('option', { name: 'Sport' }).getAttribute('aria-selected')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);
    await box.press('Escape');
    expect(await choices.isHidden()).toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'references-form-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 360, height: 800 });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'references-form-360.png'), fullPage: true });
    expect(await sidewaysScroll(page)).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });

    await Promise.all([page.waitForURL(/\/articles\/\d+$/), page.getByRole('button', { name: 'Create article' }).click()]);
    const links = page.locator('main a[href^="/tags/"]');
    expect((await links.allTextContents()).sort()).toEqual(['Culture', 'Sport']);
    expect(await page.locator('main a', { hasText: 'Sport' }).first().getAttribute('href')).toBe(`/tags/${tags.Sport}`);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'references-detail-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 360, height: 800 });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'references-detail-360.png'), fullPage: true });
    expect(await sidewaysScroll(page)).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('removes one, keeps the other, and tells the history', async () => {
    const page = browser.page;
    const id = Number(/\/articles\/(\d+)$/.exec(page.url())?.[1]);
    await page.goto(`${server.url}/articles/${id}/edit`);
    await page.getByRole('button', { name: 'Remove Sport' }).click();
    await Promise.all([page.waitForURL(new RegExp(`/articles/${id}$`)), page.getByRole('button', { name: 'Save changes' }).click()]);
    expect(await page.locator('main a[href^="/tags/"]').allTextContents()).toEqual(['Culture']);
    const record = await callApi<{ tags: number[] }>(server.url, api, 'GET', `/articles/${id}`);
    expect(record.body.tags).toEqual([tags.Culture]);
    await expect.poll(async () => (await page.locator('main').textContent()) ?? '').toContain('removed Sport');
  });

  it('lists articles with their tags as links, filtered by "any of"', async () => {
    const page = browser.page;
    await callApi(server.url, api, 'POST', '/articles', { title: 'Rain all week', team, tags: [tags.Weather, tags.News] });
    await page.goto(`${server.url}/articles?tags=${tags.Weather}`);
    const rows = page.locator('main table tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    expect((await rows.first().locator('a[href^="/tags/"]').allTextContents()).sort()).toEqual(['News', 'Weather']);
    await page.goto(`${server.url}/articles`);
    // The filter takes several: a combobox searching the server that applies as it changes, once
    // the form is enhanced (before, it is the plain GET form with its multiple select and Apply button).
    await page.locator('form[role="search"][data-enhanced]').waitFor();
    await openFilters(page);
    const filter = page.getByRole('combobox', { name: 'Tags (any of)' });
    await filter.click();
    await filter.fill('wea');
    const choices = page.getByRole('listbox', { name: 'Tags (any of): choices' });
    await expect.poll(() => choices.getByRole('option').allTextContents()).toEqual(['Weather']);
    await Promise.all([page.waitForURL(new RegExp(`tags=${tags.Weather}$`)), filter.press('Enter')]);
    await filter.fill('spo');
    await expect.poll(() => choices.getByRole('option').allTextContents()).toEqual(['Sport']);
    await Promise.all([page.waitForURL(new RegExp(`tags=${tags.Weather},${tags.Sport}$`)), filter.press('Enter')]);
    await expect.poll(() => rows.count()).toBe(1);
    expect(await page.getByRole('list', { name: 'Tags (any of): chosen' }).getByRole('button').allTextContents()).toHaveLength(2);
    expect(await page.getByRole('list', { name: 'Active filters' }).textContent()).toContain('Tags (any of): Weather, Sport');
    await page.goto(`${server.url}/articles`);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'references-list-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 360, height: 800 });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'references-list-360.png'), fullPage: true });
    expect(await sidewaysScroll(page)).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });
    const api360 = await callApi<{ items: { tags: number[] }[] }>(server.url, api, 'GET', `/articles?tags=${tags.Weather},${tags.Sport}`);
    expect(api360.body.items.map((a) => a.tags)).toEqual([[tags.News!, tags.Weather!].sort((a, b) => a - b)]);
  });

  it('works without JavaScript: a multiple select posting every choice', async () => {
    const plain = await openBrowser({ javaScriptEnabled: false });
    try {
      const page = plain.page;
      await signIn(page, server.url, ADMIN.email, ADMIN.password);
      await page.goto(`${server.url}/articles/new`);
      await page.getByLabel('Title').fill('Gallery opening');
      await page.getByLabel('Team').selectOption(String(team));
      const select = page.getByLabel('Tags');
      expect(await select.evaluate((el) => el instanceof HTMLSelectElement && el.multiple)).toBe(true);
      await select.selectOption([String(tags.Culture), String(tags.News)]);
      await Promise.all([page.waitForURL(/\/articles\/\d+$/), page.getByRole('button', { name: 'Create article' }).click()]);
      expect((await page.locator('main a[href^="/tags/"]').allTextContents()).sort()).toEqual(['Culture', 'News']);
      // Choosing none empties the set (the form posts the field even then).
      const id = Number(/\/articles\/(\d+)$/.exec(page.url())?.[1]);
      await page.goto(`${server.url}/articles/${id}/edit`);
      await page.getByLabel('Tags').selectOption([]);
      await Promise.all([page.waitForURL(new RegExp(`/articles/${id}$`)), page.getByRole('button', { name: 'Save changes' }).click()]);
      expect(await page.locator('main a[href^="/tags/"]').count()).toBe(0);
      expect((await callApi<{ tags: number[] }>(server.url, api, 'GET', `/articles/${id}`)).body.tags).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});
