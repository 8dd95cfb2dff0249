import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, signIn, type Browser } from './browser';
import { ADMIN, startServer, stopServer, type RunningServer } from './servers';

const SPEC = 'src/engine/seed/fixtures/events.spec.ts';
/** The spec grants events to its own roles only: staff make them (the built-in admin has no grant). */
const STAFF = { email: 'sam@example.com', password: 'staff-password-1' } as const;

/*
 * A users field on the pages (src/engine/seed/fixtures/events.spec.ts: an event's organizers,
 * users with the role organizer): picked by name in the form's combobox, and without JavaScript
 * in a plain multiple select; the record and the list show their names.
 */
describe('a users field in forms, lists and records', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    const root = path.resolve(__dirname, '../..');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'nf-browser-events-'));
    const env = {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      NINEFOLD_SPEC: SPEC,
      NINEFOLD_ADMIN_EMAIL: ADMIN.email,
      NINEFOLD_ADMIN_PASSWORD: ADMIN.password,
    };
    for (const [email, name, role] of [
      [STAFF.email, 'Sam Staff', 'staff'],
      ['ann@example.com', 'Ann Organizer', 'organizer'],
      ['bob@example.com', 'Bob Organizer', 'organizer'],
    ] as const) {
      execFileSync(
        process.execPath,
        [
          path.join(root, 'node_modules/tsx/dist/cli.mjs'),
          'src/cli/main.ts',
          'user',
          'add',
          '--email',
          email,
          '--password',
          STAFF.password,
          '--role',
          role,
          '--name',
          name,
        ],
        { cwd: root, env, stdio: 'ignore' },
      );
    }
    server = await startServer(
      'events',
      { NINEFOLD_SPEC: SPEC, NINEFOLD_ADMIN_EMAIL: ADMIN.email, NINEFOLD_ADMIN_PASSWORD: ADMIN.password },
      dataDir,
    );
    browser = await openBrowser();
    await signIn(browser.page, server.url, STAFF.email, STAFF.password);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    if (server) await stopServer(server);
  });

  it('picks organizers by name, and shows their names on the record and in the list', async () => {
    const page = browser.page;
    await page.goto(`${server.url}/events/new`);
    await page.getByLabel('Name').fill('Summer fair');
    const box = page.getByRole('combobox', { name: 'Organizers' });
    await box.click();
    await box.fill('ann');
    const choices = page.getByRole('listbox', { name: 'Organizers: choices' });
    await expect.poll(() => choices.getByRole('option').allTextContents()).toEqual(['Ann Organizer']);
    await box.press('Enter');
    await expect.poll(() => page.getByRole('button', { name: 'Remove Ann Organizer' }).count()).toBe(1);
    await box.press('Escape');
    await Promise.all([page.waitForURL(/\/events\/\d+$/), page.getByRole('button', { name: 'Create event' }).click()]);
    await expect.poll(async () => (await page.locator('main').textContent()) ?? '').toContain('Ann Organizer');
    await page.goto(`${server.url}/events`);
    const row = page.locator('main table tbody tr', { hasText: 'Summer fair' });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('Ann Organizer');
  });

  it('works without JavaScript: a multiple select posting every choice', async () => {
    const plain = await openBrowser({ javaScriptEnabled: false });
    try {
      const page = plain.page;
      await signIn(page, server.url, STAFF.email, STAFF.password);
      await page.goto(`${server.url}/events/new`);
      await page.getByLabel('Name').fill('Winter ball');
      const select = page.getByLabel('Organizers');
      expect(await select.evaluate((el) => el instanceof HTMLSelectElement && el.multiple)).toBe(true);
      await select.selectOption([{ label: 'Ann Organizer' }, { label: 'Bob Organizer' }]);
      await Promise.all([page.waitForURL(/\/events\/\d+$/), page.getByRole('button', { name: 'Create event' }).click()]);
      const text = (await page.locator('main').textContent()) ?? '';
      expect(text).toContain('Ann Organizer');
      expect(text).toContain('Bob Organizer');
    } finally {
      await plain.close();
    }
  });
});
