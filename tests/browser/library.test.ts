import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, signInOverApi, type ApiSession } from './api-session';
import { axeViolations } from './axe';
import { openBrowser, sidewaysScroll, signIn, type Browser } from './browser';
import { ADMIN, startServer, stopServer, type RunningServer } from './servers';

const SCREENSHOTS = path.resolve(__dirname, '../../tmp/screenshots');
const LIBRARIAN = { email: 'librarian1@demo.ninefold.test', password: 'demo-password' } as const;
const MEMBER = { email: 'member1@demo.ninefold.test', password: 'demo-password' } as const;
const WIDTHS = [1280, 360] as const;

/**
 * What keeps a table's cells from being seen, on the page as it is now: a table wider than the
 * box that clips it where that box does not scroll, or scrolls but is no tab stop or has no name
 * (a keyboard could not reach its last columns), and any cell whose content overflows it.
 */
function clippedTables(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    for (const table of document.querySelectorAll('table')) {
      if (!table.checkVisibility()) continue;
      const name = table.caption?.textContent ?? '(no caption)';
      let box = table.parentElement;
      while (box && box !== document.body && getComputedStyle(box).overflowX === 'visible') box = box.parentElement;
      if (box && box !== document.body && box.scrollWidth > box.clientWidth + 1) {
        const overflow = getComputedStyle(box).overflowX;
        if (overflow !== 'auto' && overflow !== 'scroll') problems.push(`${name}: clipped by a box that does not scroll`);
        else if (box.tabIndex !== 0) problems.push(`${name}: scrolls sideways, but is no tab stop for the keyboard`);
        else if (!box.getAttribute('aria-label')) problems.push(`${name}: scrolls sideways, but has no name`);
      }
      for (const cell of table.querySelectorAll<HTMLElement>('th, td')) {
        if (cell.checkVisibility() && cell.scrollWidth > cell.clientWidth + 1)
          problems.push(`${name}: cell "${(cell.textContent ?? '').slice(0, 40)}" overflows`);
      }
    }
    return problems;
  });
}

/*
 * A lending library written the way outside specs are (tests/browser/specs/library.spec.ts): a
 * loan has a dozen columns and is titled by its item, and the home has widgets for librarians
 * only. Every table on its pages can be read to its last column at 1280 and 360 px (scrolling
 * sideways in a named, focusable box where it is wider than the page), a loan reads as its item
 * wherever it is named, and a member is not shown the librarians' widgets.
 */
describe('a library: wide tables, loans named by their item, widgets per role', () => {
  let server: RunningServer;
  let librarian: Browser;
  let member: Browser;
  let sessions: { librarian: ApiSession; member: ApiSession };
  let item: number;
  let loan: number;

  beforeAll(async () => {
    // Demo data first (librarians, members, items and loans with notes), as a user would with the CLI.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'nf-browser-library-'));
    const env = {
      NINEFOLD_SPEC: 'tests/browser/specs/library.spec.ts',
      NINEFOLD_ADMIN_EMAIL: ADMIN.email,
      NINEFOLD_ADMIN_PASSWORD: ADMIN.password,
    };
    const root = path.resolve(__dirname, '../..');
    execFileSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'src/cli/main.ts', 'seed', '--count', '20'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, ...env },
      stdio: 'ignore',
    });
    server = await startServer('library', env, dataDir);
    sessions = {
      librarian: await signInOverApi(server.url, LIBRARIAN.email, LIBRARIAN.password),
      member: await signInOverApi(server.url, MEMBER.email, MEMBER.password),
    };
    const created = await callApi<{ id: number }>(server.url, sessions.librarian, 'POST', '/items', {
      name: 'Cordless Drill',
      shelf: 'T-4',
    });
    expect(created.status).toBe(201);
    item = created.body.id;
    const lent = await callApi<{ id: number }>(server.url, sessions.librarian, 'POST', '/loans', {
      item,
      borrower: sessions.member.user.id,
      branch: 'riverside',
      checkedOut: '2031-03-01',
      due: '2031-03-15',
      renewals: 1,
      fee: '2.50',
      notes: 'Comes with two batteries and a charger; the member asked for the long drill bits as well, which are kept at the desk.',
    });
    expect(lent.status).toBe(201);
    loan = lent.body.id;
    [librarian, member] = await Promise.all([openBrowser(), openBrowser()]);
    await signIn(librarian.page, server.url, LIBRARIAN.email, LIBRARIAN.password);
    await signIn(member.page, server.url, MEMBER.email, MEMBER.password);
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 300_000);
  afterAll(async () => {
    await Promise.all([librarian, member].filter(Boolean).map((b) => b.close()));
    if (server) await stopServer(server);
  });

  it('fits every table to the page at 1280 and 360 px, no cell clipped, and passes axe', async () => {
    const { page } = librarian;
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      for (const [name, address] of [
        ['home', '/'],
        ['loans', '/loans'],
        ['item', `/items/${item}`],
        ['loan', `/loans/${loan}`],
      ] as const) {
        await page.goto(`${server.url}${address}`);
        expect(await clippedTables(page), `${address} at ${width} px`).toEqual([]);
        expect(await sidewaysScroll(page), `${address} at ${width} px`).toBe(0);
        expect(await axeViolations(page), `${address} at ${width} px`).toEqual([]);
        await page.screenshot({ path: path.join(SCREENSHOTS, `library-${name}-${width}.png`), fullPage: true });
      }
    }

    // At 1280 px the loans' dozen columns are more than the page holds: the table keeps to its
    // width (src/ui/list/column-fit.ts) rather than scrolling sideways, so it is no tab stop of its
    // own; the spec's first columns stay and the last (Updated) goes; a long note is cut to one line.
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const address of ['/loans', `/items/${item}`]) {
      await page.goto(`${server.url}${address}`);
      const box = page.getByRole('group', { name: /^Table: Loans/ });
      await expect.poll(() => box.getAttribute('tabindex'), { timeout: 5_000 }).toBeNull();
      expect(await box.evaluate((region) => region.scrollWidth - region.clientWidth), address).toBeLessThanOrEqual(1);
      expect(await box.locator('thead th').last().isVisible(), address).toBe(false);
      expect(await box.locator('thead th').first().isVisible(), address).toBe(true);
      const row = await box.locator('tbody tr', { hasText: 'two batteries' }).boundingBox();
      expect(row!.height, address).toBeLessThanOrEqual(60);
    }
    // A table that fits is no tab stop of its own.
    await page.goto(`${server.url}/items`);
    await expect.poll(() => page.getByRole('group', { name: 'Table: Items' }).getAttribute('tabindex')).toBeNull();
  });

  it('names a loan by its item on the home, in lists, headings and history', async () => {
    const { page } = librarian;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/`);
    const out = page.getByRole('region', { name: 'Loans out', exact: true });
    const titles = await out.getByRole('listitem').getByRole('link').allTextContents();
    expect(titles).toContain('Cordless Drill');
    expect(titles.filter((t) => /^Loan #\d+$/.test(t))).toEqual([]);

    await page.goto(`${server.url}/loans/${loan}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Cordless Drill');

    // Lent another item: the history names both by their names.
    const other = await callApi<{ id: number }>(server.url, sessions.librarian, 'POST', '/items', { name: 'Camping Tent' });
    const current = await callApi<{ version: number }>(server.url, sessions.librarian, 'GET', `/loans/${loan}`);
    expect(
      (await callApi(server.url, sessions.librarian, 'PATCH', `/loans/${loan}`, { item: other.body.id, version: current.body.version }))
        .status,
    ).toBe(200);
    await page.goto(`${server.url}/loans/${loan}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Camping Tent');
    const history = page.locator('#history');
    await expect.poll(() => history.textContent()).toMatch(/Cordless Drill[\s\S]*Camping Tent/);
    expect(await history.textContent()).not.toMatch(/#\d+/);
  });

  it("shows a member the widgets for everyone, not the librarians' own", async () => {
    const { page } = member;
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.url}/`);
      const widgets = await page
        .locator('main')
        .getByRole('region')
        .evaluateAll((sections) => sections.map((s) => s.getAttribute('aria-label')));
      expect(widgets).toEqual(['Loans out']);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(SCREENSHOTS, `library-home-member-${width}.png`), fullPage: true });
    }
    await librarian.page.goto(`${server.url}/`);
    const shown = await librarian.page
      .locator('main')
      .getByRole('region')
      .evaluateAll((sections) => sections.map((s) => s.getAttribute('aria-label')));
    expect(shown).toEqual(['Loans out', 'Loans by state', 'Renewed loans']);
  });
});
