import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, signIn, type Browser } from './browser';
import { ADMIN } from './servers';

const server = inject('helpdesk');
/** A demo agent no other test signs in as: its theme is this file's to change (and put back). */
const THEME_USER = { email: 'agent4@demo.ninefold.test', password: 'demo-password' } as const;
const SHOTS = '/tmp/shots';

/** What the page looks like now: the theme the server wrote, and whether the page is painted dark. */
async function looks(page: Page): Promise<{ theme: string | null; dark: boolean; colorScheme: string }> {
  return page.evaluate(() => {
    // The body's background as the screen shows it: painted on a canvas and read back as sRGB.
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const context = canvas.getContext('2d') as CanvasRenderingContext2D;
    context.fillStyle = getComputedStyle(document.body).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    const [r = 0, g = 0, b = 0] = context.getImageData(0, 0, 1, 1).data;
    return {
      theme: document.documentElement.dataset.theme ?? null,
      dark: r + g + b < 3 * 128,
      colorScheme: getComputedStyle(document.documentElement).colorScheme,
    };
  });
}

/** The theme the server rendered into the HTML (the first byte), read from the document as sent. */
async function servedTheme(page: Page, pathname: string): Promise<string | null> {
  const response = await page.request.get(`${server.url}${pathname}`);
  return /<html[^>]*data-theme="(\w+)"/.exec(await response.text())?.[1] ?? null;
}

const pressed = (page: Page) => page.locator('header [role=group][aria-label=Theme] button[aria-pressed=true]').getAttribute('aria-label');

describe('the dark theme', () => {
  const browsers: Browser[] = [];
  const open = async (options?: { javaScriptEnabled?: boolean }) => {
    const browser = await openBrowser(options);
    browsers.push(browser);
    return browser;
  };

  beforeAll(() => mkdirSync(SHOTS, { recursive: true }));
  afterAll(async () => {
    // Back to "System", so that the account is as the seed made it.
    const browser = await open();
    await signIn(browser.page, server.url, THEME_USER.email, THEME_USER.password);
    await browser.page.getByRole('button', { name: 'System theme' }).click();
    // Stored once the server has answered: then the header shows it pressed.
    await browser.page.locator('header button[aria-label="System theme"][aria-pressed="true"]').waitFor();
    await Promise.all(browsers.map((b) => b.close()));
  });

  it('follows the system setting when no choice was made, signed out and signed in', async () => {
    const { page } = await open();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${server.url}/sign-in`);
    expect(await looks(page)).toEqual({ theme: 'system', dark: true, colorScheme: 'dark' });
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await looks(page)).toEqual({ theme: 'system', dark: false, colorScheme: 'light' });

    await signIn(page, server.url, THEME_USER.email, THEME_USER.password);
    expect(await pressed(page)).toBe('System theme');
    expect((await looks(page)).dark).toBe(false);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await looks(page)).toEqual({ theme: 'system', dark: true, colorScheme: 'dark' });
  });

  it('is chosen in the header, rendered by the server from then on, and stays with the account on another browser', async () => {
    const { page } = await open();
    await page.emulateMedia({ colorScheme: 'light' });
    await signIn(page, server.url, THEME_USER.email, THEME_USER.password);
    await page.goto(`${server.url}/tickets`);
    await page.getByRole('button', { name: 'Dark theme' }).click();
    await expect.poll(() => pressed(page)).toBe('Dark theme');
    expect(await looks(page)).toEqual({ theme: 'dark', dark: true, colorScheme: 'dark' });
    // Still on the list it was chosen on.
    expect(new URL(page.url()).pathname).toBe('/tickets');

    // A reload, and the HTML as the server sends it: dark from the first byte, whatever the device says.
    await page.reload();
    expect(await looks(page)).toEqual({ theme: 'dark', dark: true, colorScheme: 'dark' });
    expect(await servedTheme(page, '/tickets')).toBe('dark');

    // Signed out: the device's setting again (the choice belongs to the account, not the browser).
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/sign-in');
    expect(await looks(page)).toMatchObject({ theme: 'system', dark: false });

    // Another browser, never used by this user: signing in brings the choice along.
    const other = await open();
    await other.page.emulateMedia({ colorScheme: 'light' });
    await signIn(other.page, server.url, THEME_USER.email, THEME_USER.password);
    expect(await looks(other.page)).toEqual({ theme: 'dark', dark: true, colorScheme: 'dark' });
    expect(await servedTheme(other.page, '/')).toBe('dark');

    // Light, chosen on the account page, overrides a dark device.
    await other.page.emulateMedia({ colorScheme: 'dark' });
    await other.page.goto(`${server.url}/account`);
    const appearance = other.page.getByRole('region', { name: 'Appearance' });
    await appearance.getByRole('button', { name: 'Light' }).click();
    // Pressed once the server has stored it and answered (the page is painted light at the click already).
    await appearance.locator('button[aria-pressed="true"]', { hasText: 'Light' }).waitFor();
    await other.page.reload();
    expect(await looks(other.page)).toEqual({ theme: 'light', dark: false, colorScheme: 'light' });
    expect(await appearance.getByRole('button', { name: 'Light' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('is chosen without JavaScript too: a plain form post, back on the same page', async () => {
    const { page } = await open({ javaScriptEnabled: false });
    await page.emulateMedia({ colorScheme: 'light' });
    await signIn(page, server.url, THEME_USER.email, THEME_USER.password);
    await page.goto(`${server.url}/tickets?state=open`);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Dark theme' }).click()]);
    await expect.poll(() => pressed(page)).toBe('Dark theme');
    expect(await looks(page)).toEqual({ theme: 'dark', dark: true, colorScheme: 'dark' });
    const url = new URL(page.url());
    expect(`${url.pathname}${url.search}`).toBe('/tickets?state=open');
    await page.getByRole('button', { name: 'System theme' }).click();
    await expect.poll(() => pressed(page)).toBe('System theme');
  });

  // Seven pages at two widths in two themes: 28 full-page screenshots.
  it(
    'looks right in both: screenshots of the home, a list, a ticket, a form with errors and the spec, at 1280 and 360 px',
    { timeout: 150_000 },
    async () => {
      const { page } = await open();
      // An administrator, who may read the spec and the API document too.
      await signIn(page, server.url, ADMIN.email, ADMIN.password);
      await page.goto(`${server.url}/tickets`);
      const ticket = (await page.locator('main table a[href^="/tickets/"]').first().getAttribute('href')) ?? '';
      expect(ticket).toMatch(/^\/tickets\/\d+$/);
      const pages: Record<string, (page: Page) => Promise<void>> = {
        home: async (p) => void (await p.goto(`${server.url}/`)),
        list: async (p) => void (await p.goto(`${server.url}/tickets`)),
        ticket: async (p) => void (await p.goto(`${server.url}${ticket}`)),
        spec: async (p) => void (await p.goto(`${server.url}/spec`)),
        api: async (p) => void (await p.goto(`${server.url}/api/docs`)),
        account: async (p) => void (await p.goto(`${server.url}/account`)),
        'form-errors': async (p) => {
          await p.goto(`${server.url}/tickets/new`);
          await p.getByLabel('Subject').fill('ab');
          await p.getByRole('button', { name: 'Create ticket' }).click();
          await p.getByText('Subject must be at least 3 characters.').first().waitFor();
        },
      };
      for (const [name, show] of Object.entries(pages)) {
        for (const width of [1280, 360]) {
          await page.setViewportSize({ width, height: 900 });
          await show(page);
          // Buttons fade their colours (transition-colors): the shot is of the theme, not of a fade.
          await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; }' });
          for (const colorScheme of ['light', 'dark'] as const) {
            await page.emulateMedia({ colorScheme });
            expect((await looks(page)).dark).toBe(colorScheme === 'dark');
            await page.screenshot({ path: `${SHOTS}/theme-${name}-${colorScheme}-${width}.png`, fullPage: true });
          }
        }
      }
    },
  );
});
