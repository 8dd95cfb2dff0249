import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations } from './axe';
import { openBrowser, sidewaysScroll, signIn, type Browser } from './browser';
import { ADMIN, DEMO_AGENT, DEMO_CUSTOMER } from './servers';

const server = inject('helpdesk');
const SCREENSHOTS = path.join(process.env.NF_SCREENSHOTS ?? '/tmp/shots');

/*
 * CSV: "Export CSV" downloads the list as it is filtered, every page, without the fields the
 * viewer may not read; "Import CSV" reports each bad row by line and writes nothing, then the
 * good rows at a click (with JavaScript) or through the plain form (without).
 */

/** Clicks the link and returns the downloaded file's rows (header first), checking the file's name. */
async function download(page: Page, link: string, fileName: RegExp): Promise<string[][]> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: link, exact: true }).click()]);
  expect(file.suggestedFilename()).toMatch(fileName);
  const text = readFileSync(await file.path(), 'utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  return parse(text.slice(1)) as string[][];
}

const column = (rows: string[][], name: string) => rows.slice(1).map((row) => row[rows[0]!.indexOf(name)]);

async function shot(page: Page, name: string): Promise<void> {
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `csv-${name}-${width}.png`), fullPage: true });
    expect(await sidewaysScroll(page)).toBe(0);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe('CSV export and import', () => {
  let agent: Browser;
  let customer: Browser;
  let admin: Browser;
  let noScript: Browser;
  const tag = randomUUID().slice(0, 8);
  const file = {
    name: `organizations-${tag}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(
      [
        'Name,Domain,Tier',
        `Csv Alpha ${tag},alpha.example,premium`,
        'X,,standard',
        `Csv Beta ${tag},,gold`,
        `Csv Gamma ${tag},gamma.example,`,
      ].join('\r\n'),
    ),
  };

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    agent = await openBrowser();
    customer = await openBrowser();
    admin = await openBrowser();
    noScript = await openBrowser({ javaScriptEnabled: false });
    await signIn(agent.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
    await signIn(customer.page, server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    await signIn(admin.page, server.url, ADMIN.email, ADMIN.password);
    await signIn(noScript.page, server.url, ADMIN.email, ADMIN.password);
  });
  afterAll(() => Promise.all([agent, customer, admin, noScript].filter(Boolean).map((b) => b.close())));

  it('exports the filtered list, all of it, as the list shows it', async () => {
    const { page } = agent;
    await page.goto(`${server.url}/tickets?priority=high&sort=id`);
    const shown = Number((await page.locator('[data-list-count]').textContent())?.match(/^[\d,]+/)?.[0].replace(/,/g, ''));
    expect(shown).toBeGreaterThan(0);
    const rows = await download(page, 'Export CSV', /^tickets-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(rows[0]).toEqual(
      await page.locator('thead th').evaluateAll((cells) => cells.map((c) => c.textContent?.trim() ?? '').filter((t) => t !== '')),
    );
    expect(rows).toHaveLength(shown + 1);
    expect(new Set(column(rows, 'Priority'))).toEqual(new Set(['High']));
    // The first row of the page is the first of the file, its cells as the table shows them (the ID, "#12" there, is a plain number).
    const firstRow = await page
      .locator('tbody tr')
      .first()
      .locator('th, td')
      .evaluateAll((cells) => cells.map((c) => c.textContent?.trim() ?? ''));
    expect(firstRow).toContain(`#${rows[1]![0]}`);
    // (A cell may also hold its column's name for the phone layout.)
    for (const name of ['Subject', 'State', 'Requester'])
      expect(firstRow.some((cell) => cell.endsWith(rows[1]![rows[0]!.indexOf(name)]!))).toBe(true);
  });

  it('gives a customer the tickets they may see without the fields hidden from them', async () => {
    const { page } = customer;
    const listed = async (viewer: Page) => {
      await viewer.goto(`${server.url}/tickets`);
      // "12 tickets", or "More than 1,000 tickets" past the count's cap.
      return Number((await viewer.locator('[data-list-count]').textContent())?.match(/[\d,]+/)?.[0].replace(/,/g, ''));
    };
    const everyone = await listed(agent.page);
    const theirs = await listed(page);
    // The export, not the import: the helpdesk's customers (`import: false` for their list) never see it.
    await expect.poll(() => page.getByRole('link', { name: 'Export CSV' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Import CSV' }).count()).toBe(0);
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: path.join(SCREENSHOTS, `csv-list-links-${width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    const rows = await download(page, 'Export CSV', /^tickets-.*\.csv$/);
    expect(rows[0]).not.toContain('Assignee');
    expect(rows[0]).not.toContain('Organization');
    // Their own and their organization's tickets (the helpdesk's scope), every one of them, and no one else's.
    expect(rows.length).toBeGreaterThan(1);
    expect(rows).toHaveLength(theirs + 1);
    expect(theirs).toBeLessThan(everyone);
    // Asking for a hidden column by address changes nothing.
    const asked = await page.request.get(`${server.url}/tickets/export.csv?columns=subject,assignee,organization`);
    expect(asked.headers()['content-type']).toMatch(/^text\/csv/);
    expect((parse((await asked.text()).replace(/^\uFEFF/, '')) as string[][])[0]).toEqual(['Subject']);
    // Organizations are not the customer's to list: the export says so.
    expect((await page.request.get(`${server.url}/organizations/export.csv`)).status()).toBe(403);
  });

  it('imports nothing from a file with bad rows and names their lines; then the good rows at a click', async () => {
    const { page } = admin;
    await page.goto(`${server.url}/organizations`);
    await page.getByRole('link', { name: 'Import CSV' }).click();
    await page.waitForURL(`${server.url}/organizations/import`);
    await page.getByLabel('CSV file').setInputFiles(file);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const outcome = page.getByRole('heading', { level: 2, name: 'Nothing was imported' });
    await outcome.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('import-outcome');
    const problems = page.getByRole('table', { name: 'Problems by line' });
    expect(
      await problems.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent?.trim()))),
    ).toEqual([
      ['3', 'Name', 'Name must be at least 2 characters.'],
      ['4', 'Tier', 'Tier must be one of: standard, premium.'],
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'import-report');

    await page.getByRole('button', { name: 'Import the good rows', exact: true }).click();
    await page.getByRole('heading', { level: 2, name: 'Imported 2 rows; 2 rows were left out' }).waitFor();
    const exported = await page.request.get(`${server.url}/organizations/export.csv?q=${tag}&sort=name`);
    expect((parse((await exported.text()).replace(/^\uFEFF/, '')) as string[][]).slice(1).map((r) => r[0])).toEqual([
      `Csv Alpha ${tag}`,
      `Csv Gamma ${tag}`,
    ]);
    await shot(page, 'import-good-rows');
  });

  it('works without JavaScript: the form posts the file and the page shows the report', async () => {
    const { page } = noScript;
    await page.goto(`${server.url}/organizations/import`);
    await page.getByLabel('CSV file').setInputFiles({ ...file, name: `again-${tag}.csv` });
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Import', exact: true }).click()]);
    await page.getByRole('heading', { level: 2, name: 'Nothing was imported' }).waitFor();
    const cells = await page.getByRole('table', { name: 'Problems by line' }).locator('tbody td').allTextContents();
    // The two good rows are already in: now every row has a problem.
    expect(cells).toEqual(expect.arrayContaining(['2', 'This name is already used.', '3', '4', '5']));
  });

  it('sends the file without JavaScript to the import’s own route, whose limit is the import’s, not a form’s', async () => {
    const { page } = noScript;
    await page.goto(`${server.url}/organizations/import`);
    // A name of 2 MB: more than a form of the helpdesk may post to a server action (under 1 MB).
    const big = {
      name: `big-${tag}.csv`,
      mimeType: 'text/csv',
      buffer: Buffer.from(`Name,Domain,Tier\r\n${'N'.repeat(2 * 1024 * 1024)},,standard\r\n`),
    };
    await page.getByLabel('CSV file').setInputFiles(big);
    const [posted] = await Promise.all([
      page.waitForRequest((r) => r.method() === 'POST'),
      page.getByRole('button', { name: 'Import', exact: true }).click(),
    ]);
    expect(new URL(posted.url()).pathname).toBe('/organizations/import/run');
    expect(posted.headers()['next-action']).toBeUndefined();
    await page.getByRole('heading', { level: 2, name: 'Nothing was imported' }).waitFor();
    const cells = await page.getByRole('table', { name: 'Problems by line' }).locator('tbody td').allTextContents();
    expect(cells).toEqual(['2', 'Name', 'Name must be at most 120 characters.']);
  });
});
