import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** The flags every headless Chromium of this project starts with (tests and bench). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  readonly context: BrowserContext;
  readonly page: Page;
  close(): Promise<void>;
}

/** Debian's Chromium with a fresh profile, as a first-time visitor would arrive. */
export async function openBrowser(options: { javaScriptEnabled?: boolean; timezoneId?: string } = {}): Promise<Browser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'nf-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    viewport: { width: 1280, height: 900 },
    // Pages show times in the browser's zone once it has told the server (src/ui/time/browser-zone.tsx):
    // pinned, so that what the tests read does not depend on the machine's zone.
    timezoneId: options.timezoneId ?? 'UTC',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await Promise.all([
    page.waitForURL((url) => !url.pathname.startsWith('/sign-in')),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
}

/** How far the page can scroll sideways, in px: 0 when nothing is wider than the screen. */
export function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/**
 * Opens a list's Filters disclosure (src/ui/list-filters.tsx), which holds its filter fields (and
 * a phone's sort); a native <details>, so this works without JavaScript too.
 */
export async function openFilters(page: Page): Promise<void> {
  const filters = page.locator('form[role="search"] details');
  if (!(await filters.evaluate((details) => (details as HTMLDetailsElement).open))) await filters.locator('summary').click();
}
