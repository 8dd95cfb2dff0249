import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, signIn, type Browser } from './browser';
import { requesterId } from './api-session';
import { choosePlain, pick } from './pick';
import { ADMIN, DEMO_REQUESTER } from './servers';

const server = inject('helpdesk');

function uniqueWord(): string {
  return `zq${randomUUID().replace(/-/g, '').slice(0, 10)}`;
}

describe('working with tickets in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await openBrowser();
    await signIn(browser.page, server.url, ADMIN.email, ADMIN.password);
  });
  afterAll(() => browser.close());

  it('creates a ticket with the form, finds it in the list, opens, edits and deletes it', async () => {
    const { page } = browser;
    const word = uniqueWord();
    await page.goto(`${server.url}/tickets`);
    await page.getByRole('link', { name: 'Open a ticket' }).first().click();
    await page.waitForURL(`${server.url}/tickets/new`);
    await page.getByLabel('Subject').fill(`Printer on fire ${word}`);
    await page.getByLabel('Description').fill('It **really** is on fire.');
    await page.getByLabel('Priority').selectOption('high');
    // Filed for a customer: an administrator is no requester.
    await pick(page, 'Requester', DEMO_REQUESTER.email, new RegExp(`<${DEMO_REQUESTER.email}>`));
    await page.getByRole('button', { name: 'Create ticket' }).click();
    await page.waitForURL(/\/tickets\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await expect.poll(() => page.getByRole('heading', { name: `Printer on fire ${word}` }).count()).toBe(1);
    expect(await page.locator('strong', { hasText: 'really' }).count()).toBe(1);

    // Found by search in the list.
    await page.goto(`${server.url}/tickets?q=${word}`);
    const link = page.getByRole('link', { name: `Printer on fire ${word}` });
    expect(await link.count()).toBe(1);

    // Edit.
    await link.click();
    await page.waitForURL(`${server.url}/tickets/${id}`);
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`${server.url}/tickets/${id}/edit`);
    await page.getByLabel('Subject').fill(`Printer fixed ${word}`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(`${server.url}/tickets/${id}`);
    await expect.poll(() => page.getByRole('heading', { name: `Printer fixed ${word}` }).count()).toBe(1);

    // Delete, with confirmation.
    await page.getByRole('link', { name: 'Delete' }).click();
    await page.waitForURL(`${server.url}/tickets/${id}/delete`);
    await page.getByRole('button', { name: 'Delete ticket' }).click();
    await page.waitForURL(`${server.url}/tickets`);
    const gone = await page.goto(`${server.url}/tickets/${id}`);
    expect(gone?.status()).toBe(404);
  });

  it('shows an invalid value inline next to its field and keeps the other values', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/tickets/new`);
    // Skip the browser's own checks so that the server's answer is what we see.
    await page
      .locator('form')
      .filter({ has: page.getByLabel('Subject') })
      .evaluate((form) => ((form as HTMLFormElement).noValidate = true));
    await page.getByLabel('Subject').fill('ab');
    await page.getByLabel('Description').fill('Kept description');
    await page.getByLabel('Priority').selectOption('urgent');
    await page.getByRole('button', { name: 'Create ticket' }).click();
    await expect.poll(() => page.getByText('Subject must be at least 3 characters.').count()).toBe(1);
    expect(await page.getByLabel('Subject').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Subject').inputValue()).toBe('ab');
    expect(await page.getByLabel('Description').inputValue()).toBe('Kept description');
    expect(await page.getByLabel('Priority').inputValue()).toBe('urgent');
    expect(new URL(page.url()).pathname).toBe('/tickets/new');
  });

  it('navigates from list to detail and back on the client, without loading a document', async () => {
    const { page } = browser;
    const word = uniqueWord();
    await page.goto(`${server.url}/tickets/new`);
    await page.getByLabel('Subject').fill(`Navigation ${word}`);
    await pick(page, 'Requester', DEMO_REQUESTER.email, new RegExp(`<${DEMO_REQUESTER.email}>`));
    await page.getByRole('button', { name: 'Create ticket' }).click();
    await page.waitForURL(/\/tickets\/\d+$/);

    await page.goto(`${server.url}/tickets?q=${word}`);
    await page.evaluate(() => ((window as unknown as { __marker: string }).__marker = 'still here'));
    await page.getByRole('link', { name: `Navigation ${word}` }).click();
    await page.waitForURL(/\/tickets\/\d+$/);
    await expect.poll(() => page.getByRole('heading', { name: `Navigation ${word}` }).count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { __marker?: string }).__marker)).toBe('still here');
    await page.getByRole('navigation').getByRole('link', { name: 'Organizations' }).click();
    await page.waitForURL(`${server.url}/organizations`);
    expect(await page.evaluate(() => (window as unknown as { __marker?: string }).__marker)).toBe('still here');
  });

  it('answers 404 for unknown routes and missing records', async () => {
    const { page } = browser;
    expect((await page.goto(`${server.url}/no-such-things`))?.status()).toBe(404);
    expect((await page.goto(`${server.url}/tickets/987654321`))?.status()).toBe(404);
    expect((await page.goto(`${server.url}/tickets/not-a-number`))?.status()).toBe(404);
  });
});

describe('with JavaScript disabled', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await openBrowser({ javaScriptEnabled: false });
    await signIn(browser.page, server.url, ADMIN.email, ADMIN.password);
  });
  afterAll(() => browser.close());

  it('creates a ticket with the plain form post', async () => {
    const { page } = browser;
    const word = uniqueWord();
    await page.goto(`${server.url}/tickets/new`);
    await page.getByLabel('Subject').fill(`No script ${word}`);
    await page.getByLabel('Priority').selectOption('low');
    await choosePlain(page, 'requester', await requesterId(server.url));
    await page.getByRole('button', { name: 'Create ticket' }).click();
    await page.waitForURL(/\/tickets\/\d+$/);
    expect(await page.getByRole('heading', { name: `No script ${word}` }).count()).toBe(1);
  });

  it('shows server-side field errors inline and keeps the values', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/tickets/new`);
    await page
      .locator('form')
      .filter({ has: page.getByLabel('Subject') })
      .evaluate((form) => ((form as HTMLFormElement).noValidate = true));
    await page.getByLabel('Subject').fill('x');
    await page.getByLabel('Description').fill('Still here without JS');
    await page.getByRole('button', { name: 'Create ticket' }).click();
    await page.waitForLoadState('load');
    expect(await page.getByText('Subject must be at least 3 characters.').count()).toBe(1);
    expect(await page.getByLabel('Description').inputValue()).toBe('Still here without JS');
  });
});
