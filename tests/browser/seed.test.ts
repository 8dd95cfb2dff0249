import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, signIn, type Browser } from './browser';

const server = inject('seed');
const HEADINGS = [
  'Purpose and audience',
  'Screens and routes',
  'Entities and fields',
  'States and transitions',
  'Validation rules',
  'Roles and permissions',
  'The calls',
  'Error catalogue',
  'Business constants and limits',
];

/** The one line of the server's log that holds a setup code (the server started with no user). */
function setupCodeFromLog(): string {
  const codes = [...readFileSync(server.logFile, 'utf8').matchAll(/enter the setup code ([2-9A-Z]{4}-[2-9A-Z]{4})/g)].map((m) => m[1]);
  expect(codes).toHaveLength(1);
  return codes[0]!;
}

describe('the empty spec still serves the shell', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(() => browser.close());

  it('asks the first visitor to create the admin with the setup code from the log, then signs them in', async () => {
    const { page } = browser;
    const fill = async (setupCode: string) => {
      await page.getByLabel('Setup code').fill(setupCode);
      await page.getByLabel('Email').fill('first@example.com');
      await page.getByLabel('Name').fill('First Admin');
      await page.locator('#setup-password').fill('first-password');
      await page.getByLabel('Password again').fill('first-password');
      await page.getByRole('button', { name: 'Create administrator' }).click();
    };
    await page.goto(`${server.url}/`);
    await page.waitForURL(`${server.url}/setup`);
    // Whoever reaches a fresh server first cannot take it without the code from its log.
    await fill('AAAA-AAAA');
    await page.getByText('The setup code is not correct.').waitFor();
    await page.goto(`${server.url}/`);
    await page.waitForURL(`${server.url}/setup`);
    await fill(setupCodeFromLog());
    await page.waitForURL(`${server.url}/`);
    expect(await page.getByText('first@example.com').count()).toBeGreaterThan(0);
    // Setup is closed once a user exists.
    await page.goto(`${server.url}/setup`);
    await page.waitForURL(/\/sign-in|\/$/);
  });

  it('has a home with nothing but the title (no entities, no numbers)', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/`);
    expect(await page.locator('main h1').textContent()).toBe('Seed');
    expect(await page.locator('main').getByRole('link').count()).toBe(0);
    expect(await page.locator('main').getByRole('region').count()).toBe(0);
  });

  it('prints the nine points, each "not shown"', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/spec`);
    const headings = await page.locator('section h2').allTextContents();
    expect(headings.map((h) => h.replace(/^\d+\.\s*/, ''))).toEqual(HEADINGS);
    const sections = page.locator('section');
    for (let i = 0; i < HEADINGS.length; i++) {
      expect(await sections.nth(i).textContent()).toContain('not shown');
    }
  });

  it('signs out on the server and back in', async () => {
    const { page, context } = browser;
    await page.goto(`${server.url}/`);
    const cookie = (await context.cookies()).find((c) => c.name === 'nf_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${server.url}/sign-in`);
    // The old session no longer works, even if a client kept the cookie.
    const replay = await fetch(`${server.url}/spec`, { headers: { cookie: `nf_session=${cookie!.value}` }, redirect: 'manual' });
    expect(replay.status).toBeGreaterThanOrEqual(300);
    expect(replay.status).toBeLessThan(400);
    await signIn(page, server.url, 'first@example.com', 'first-password');
    expect(new URL(page.url()).pathname).toBe('/');
  });
});
