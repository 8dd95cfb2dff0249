import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, requesterId, signInOverApi, type ApiSession } from './api-session';
import { openBrowser, signIn, type Browser } from './browser';
import { ADMIN } from './servers';

/*
 * Hostile values stored through the API render inert on every page that shows them (detail,
 * list, edit form and its Markdown preview, history, the palette's results) and in the CSV
 * export: no script runs (each payload would set window.nfXss or open a dialog), nothing even
 * tries to (the Content-Security-Policy would report it), no javascript:/data: link or event
 * handler reaches the DOM, and cells that a spreadsheet would run as a formula are quoted.
 */
const server = inject('helpdesk');

const tag = `xss${randomUUID().slice(0, 8)}`;
/** Each payload marks the window with its own number if it ever runs. */
const PAYLOADS = [
  `<script>window.nfXss=1</script>`,
  `<img src=x onerror="window.nfXss=2">`,
  `[click me](javascript:window.nfXss=3)`,
  `<svg onload="window.nfXss=4"><circle r="1"/></svg>`,
  `<a href="data:text/html,<script>alert(5)</script>">data link</a>`,
  `[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCg2KTwvc2NyaXB0Pg==)`,
  `![picture](x" onerror="window.nfXss=7)`,
  `<iframe src="javascript:alert(8)"></iframe>`,
  `[vb](vbscript:msgbox(9))`,
  `<a href="jav&#x09;ascript:alert(10)">entity link</a>`,
  `"><img src=x onerror=alert(11)>`,
];
const SUBJECT = `=HYPERLINK("http://evil.example") ${tag} <script>window.nfXss=20</script><img src=x onerror="window.nfXss=21">`;
const DESCRIPTION = [`Hostile ${tag}`, ...PAYLOADS].join('\n\n');
const COMMENT = [`@SUM(1+1) ${tag}`, ...PAYLOADS].join('\n\n');

interface Traps {
  readonly dialogs: string[];
  readonly violations: string[];
}

async function trap(browser: Browser): Promise<Traps> {
  const traps: Traps = { dialogs: [], violations: [] };
  const { page, context } = browser;
  page.on('dialog', (dialog) => {
    traps.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await context.exposeBinding('nfReportViolation', (_source, text: string) => traps.violations.push(text));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { nfReportViolation(text: string): void }).nfReportViolation(
        `${event.violatedDirective} ${event.blockedURI} at ${location.pathname}`,
      );
    });
  });
  return traps;
}

/** Nothing ran, and nothing executable is in the document. */
async function expectInert(page: Page, traps: Traps, where: string): Promise<void> {
  // Give handlers (onerror of a broken image, onload) the time to fire.
  await page.waitForLoadState('load');
  await page.waitForTimeout(300);
  const found = await page.evaluate(() => {
    const all = [...document.querySelectorAll('*')];
    return {
      flag: (window as unknown as { nfXss?: number }).nfXss ?? null,
      handlers: all.flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName} ${a.name}`)),
      links: all.flatMap((el) =>
        ['href', 'src', 'action', 'formaction', 'xlink:href']
          .map((name) => el.getAttribute(name) ?? '')
          .filter((v) => /^\s*(javascript|data|vbscript):/i.test(v) && !/^data:image\//i.test(v)),
      ),
      // A script of the page's own other than Next.js's payload (whose data holds the values, as JSON strings).
      scripts: [...document.scripts].filter(
        (s) => (s.textContent ?? '').includes('nfXss') && !/^\s*\(?self\.__next_f/.test(s.textContent ?? ''),
      ).length,
      hostileElements: document.querySelectorAll('main iframe, main object, main embed, main svg[onload]').length,
    };
  });
  expect(found, where).toEqual({ flag: null, handlers: [], links: [], scripts: 0, hostileElements: 0 });
  expect(traps.dialogs, where).toEqual([]);
  expect(traps.violations, where).toEqual([]);
}

describe('hostile values render inert', () => {
  let browser: Browser;
  let traps: Traps;
  let admin: ApiSession;
  let ticketId = 0;

  beforeAll(async () => {
    admin = await signInOverApi(server.url, ADMIN.email, ADMIN.password);
    const created = await callApi<{ id: number; version: number }>(server.url, admin, 'POST', '/tickets', {
      requester: await requesterId(server.url),
      subject: SUBJECT,
      description: DESCRIPTION,
      priority: 'high',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    ticketId = created.body.id;
    // A change, so that the history shows hostile values on both sides.
    const changed = await callApi(server.url, admin, 'PATCH', `/tickets/${ticketId}`, {
      version: created.body.version,
      description: `${DESCRIPTION}\n\n-1+2 changed`,
      subject: `+${SUBJECT}`,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const comment = await callApi(server.url, admin, 'POST', '/comments', { ticket: ticketId, body: COMMENT, internal: false });
    expect(comment.status, JSON.stringify(comment.body)).toBe(201);
    const organization = await callApi(server.url, admin, 'POST', '/organizations', {
      name: `-2+3 ${tag} <img src=x onerror=alert(12)>`,
      tier: 'standard',
    });
    expect(organization.status, JSON.stringify(organization.body)).toBe(201);

    browser = await openBrowser();
    traps = await trap(browser);
    await signIn(browser.page, server.url, ADMIN.email, ADMIN.password);
  });
  afterAll(() => browser?.close());

  it('on the detail page, with its comments and history', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/tickets/${ticketId}`);
    // Shown as text: the value is there, as typed.
    await expect.poll(() => page.locator('main').textContent()).toContain(`${tag} <script>window.nfXss=20</script>`);
    await expect.poll(() => page.locator('main').textContent()).toContain(`@SUM(1+1) ${tag}`);
    await expectInert(page, traps, 'detail');
    // The Markdown's links lead nowhere hostile; clicking one runs nothing.
    const click = page.getByRole('link', { name: 'click me' }).first();
    if ((await click.count()) > 0) {
      await click.click();
      await expectInert(page, traps, 'detail after clicking the javascript: link');
    }
  });

  it('in the list and its search', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/tickets?q=${tag}`);
    await expect.poll(() => page.locator('tbody').textContent()).toContain(tag);
    await expectInert(page, traps, 'list');
    await page.goto(`${server.url}/organizations?q=${tag}`);
    await expect.poll(() => page.locator('tbody').textContent()).toContain(`-2+3 ${tag} <img src=x onerror=alert(12)>`);
    await expectInert(page, traps, 'organizations');
    await page.goto(`${server.url}/comments`);
    await expectInert(page, traps, 'comments');
  });

  it('in the edit form and its Markdown preview', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/tickets/${ticketId}/edit`);
    expect(await page.getByLabel('Subject').inputValue()).toBe(`+${SUBJECT}`);
    expect(await page.getByLabel('Description').first().inputValue()).toContain('<script>window.nfXss=1</script>');
    await expectInert(page, traps, 'edit');
    const preview = page.getByRole('tab', { name: 'Preview' }).first();
    await preview.click();
    await expect.poll(() => page.getByRole('tabpanel', { name: 'Preview' }).textContent(), { timeout: 10_000 }).toContain(`Hostile ${tag}`);
    await expectInert(page, traps, 'preview');
  });

  it("in the palette's results", async () => {
    const { page } = browser;
    await page.goto(`${server.url}/tickets`);
    await page.waitForFunction(() => document.documentElement.dataset.shortcuts === 'on');
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await expect.poll(() => palette.isVisible(), { timeout: 10_000 }).toBe(true);
    await palette.getByRole('combobox').fill(tag);
    await expect
      .poll(() => palette.getByRole('option').allInnerTexts(), { timeout: 10_000 })
      .toEqual(expect.arrayContaining([expect.stringContaining(tag)]));
    await expectInert(page, traps, 'palette');
    await page.keyboard.press('Escape');
  });

  it('in the CSV export: formulas quoted, markup kept as text', async () => {
    const fetchCsv = async (address: string) => {
      const response = await fetch(`${server.url}${address}`, { headers: { cookie: admin.cookie } });
      expect(response.status).toBe(200);
      return parse((await response.text()).replace(/^\uFEFF/, '')) as string[][];
    };
    const tickets = await fetchCsv(`/tickets/export.csv?q=${tag}&columns=subject,description`);
    expect(tickets.slice(1).map((row) => row[0])).toEqual([`'+${SUBJECT}`]);
    const organizations = await fetchCsv(`/organizations/export.csv?q=${tag}`);
    expect(organizations[1]![0]).toBe(`'-2+3 ${tag} <img src=x onerror=alert(12)>`);
    const comments = await fetchCsv(`/comments/export.csv?q=${tag}&columns=body`);
    expect(comments.slice(1).map((row) => row[0])).toEqual([`'${COMMENT}`]);
    // Every cell of these files that starts like a formula is quoted (plain numbers aside).
    for (const cell of [tickets, organizations, comments].flatMap((rows) => rows.slice(1).flat())) {
      if (/^[=+\-@\t\r]/.test(cell)) expect(cell).toMatch(/^[-+]?\d+(\.\d+)?$/);
    }
  });
});
