import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations } from './axe';
import { openBrowser, sidewaysScroll, signIn, type Browser } from './browser';
import { ADMIN } from './servers';

const server = inject('helpdesk');
const SCREENSHOTS = '/tmp/shots';

/*
 * Destructive and irreversible actions ask first: with JavaScript in a modal dialog (focus kept
 * inside and given back, Escape cancels), without it by the server, which changes nothing until
 * the form comes back with its confirmation.
 */
describe('confirmation of destructive actions', () => {
  const browsers: Browser[] = [];
  const fresh = async (options?: { javaScriptEnabled?: boolean }) => {
    const browser = await openBrowser(options);
    browsers.push(browser);
    return browser;
  };
  let admin: Browser;

  /** A new account, invited by the administrator and accepted in a browser of its own (signed in there). */
  async function invitedUser(name: string): Promise<{ email: string; browser: Browser }> {
    const { page } = admin;
    const email = `${name}.${Date.now()}@example.com`;
    await page.goto(`${server.url}/admin/users`);
    const invite = page.locator('form', { has: page.getByRole('button', { name: 'Create invitation link' }) });
    await invite.getByLabel('Email').fill(email);
    await invite.getByLabel('Customer').check();
    await invite.getByRole('button', { name: 'Create invitation link' }).click();
    const link = (await page.locator('code[data-secret]').textContent())!.trim();
    const browser = await fresh();
    await browser.page.goto(link);
    await browser.page.getByLabel('Name').fill(name);
    await browser.page.getByLabel('Password', { exact: true }).fill(`${name}-password-1`);
    await browser.page.getByLabel('Password again').fill(`${name}-password-1`);
    await Promise.all([browser.page.waitForURL(`${server.url}/`), browser.page.getByRole('button', { name: 'Create my account' }).click()]);
    return { email, browser };
  }

  const status = (page: Page, email: string) => page.locator(`tr[data-user="${email}"] td`).nth(2).innerText();

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    admin = await fresh();
    await signIn(admin.page, server.url, ADMIN.email, ADMIN.password);
  });
  afterAll(() => Promise.all(browsers.map((b) => b.close())));

  it('asks in a dialog before disabling a user: Escape and Cancel keep them enabled and give the focus back', async () => {
    const { email, browser: user } = await invitedUser('dana');
    const { page } = admin;
    await page.goto(`${server.url}/admin/users`);
    const row = page.locator(`tr[data-user="${email}"]`);
    const disable = row.getByRole('button', { name: 'Disable' });
    const dialog = page.getByRole('dialog', { name: `Disable ${email}?` });

    // Escape cancels.
    await disable.click();
    await dialog.waitFor();
    expect(await dialog.getByText('signed out everywhere').count()).toBe(1);
    // The safe choice has the focus, and Tab stays within the dialog.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: path.join(SCREENSHOTS, `confirm-dialog-${width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious).toEqual([]);
    // The system's dark setting (the theme "system", the default).
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'confirm-dialog-dark-1280.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await disable.evaluate((button) => button === document.activeElement)).toBe(true);

    // Cancel cancels.
    await disable.click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await disable.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.reload();
    expect(await status(page, email)).toContain('Active');
    // Still signed in.
    expect((await user.page.goto(`${server.url}/tickets`))?.url()).toBe(`${server.url}/tickets`);

    // Going ahead disables: their next page is the sign-in.
    await disable.click();
    await dialog.getByRole('button', { name: 'Disable account' }).click();
    await expect.poll(() => status(page, email)).toContain('Disabled');
    await user.page.goto(`${server.url}/tickets`);
    expect(new URL(user.page.url()).pathname).toBe('/sign-in');
  });

  it('asks on the server without JavaScript: the first post changes nothing, Cancel keeps the user, the confirmation disables', async () => {
    const { email } = await invitedUser('noah');
    const { page } = await fresh({ javaScriptEnabled: false });
    await signIn(page, server.url, ADMIN.email, ADMIN.password);
    await page.goto(`${server.url}/admin/users`);
    const row = () => page.locator(`tr[data-user="${email}"]`);

    await Promise.all([page.waitForLoadState('load'), row().getByRole('button', { name: 'Disable' }).click()]);
    // The server's question (the closed dialog, in the page for scripted browsers, holds the same words).
    const question = () =>
      row()
        .getByRole('alert')
        .filter({ hasText: `Disable ${email}?` })
        .count();
    expect(await question()).toBe(1);
    expect(await status(page, email)).toContain('Active');
    await page.setViewportSize({ width: 360, height: 800 });
    await row().scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'confirm-noscript-360.png') });
    await page.setViewportSize({ width: 1280, height: 900 });

    // (The address is /admin/users already: the post answered there.)
    await row().getByRole('link', { name: 'Cancel' }).click();
    await expect.poll(question).toBe(0);
    expect(await status(page, email)).toContain('Active');

    await Promise.all([page.waitForLoadState('load'), row().getByRole('button', { name: 'Disable' }).click()]);
    await Promise.all([page.waitForLoadState('load'), row().getByRole('button', { name: 'Disable account' }).click()]);
    expect(await status(page, email)).toContain('Disabled');
  });

  it('asks before revoking an API token, with and without JavaScript', async () => {
    const { page } = admin;
    await page.goto(`${server.url}/account`);
    for (const name of ['confirm js', 'confirm nojs']) {
      await page.getByLabel('Token name').fill(name);
      await page.getByRole('button', { name: 'Create token' }).click();
      await page.locator('code[data-secret]').waitFor();
      await page.reload();
    }
    const row = page.locator('tr[data-token="confirm js"]');
    await row.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke the token “confirm js”?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.reload();
    expect(await row.getByText('Active').count()).toBe(1);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await dialog.getByRole('button', { name: 'Revoke token' }).click();
    await row.getByText('Revoked').waitFor();
    // On a phone each token is a card: nothing to scroll sideways to reach Revoke.
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await sidewaysScroll(page)).toBe(0);
    expect(await page.locator('tr[data-token="confirm nojs"]').evaluate((tr) => tr.scrollWidth <= tr.clientWidth)).toBe(true);
    await page.locator('tr[data-token="confirm nojs"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'confirm-tokens-360.png') });
    await page.setViewportSize({ width: 1280, height: 900 });

    const noScript = await fresh({ javaScriptEnabled: false });
    await signIn(noScript.page, server.url, ADMIN.email, ADMIN.password);
    await noScript.page.goto(`${server.url}/account`);
    const other = noScript.page.locator('tr[data-token="confirm nojs"]');
    await Promise.all([noScript.page.waitForLoadState('load'), other.getByRole('button', { name: 'Revoke' }).click()]);
    expect(await other.getByText('Active').count()).toBe(1);
    await Promise.all([noScript.page.waitForLoadState('load'), other.getByRole('button', { name: 'Revoke token' }).click()]);
    expect(await other.getByText('Revoked').count()).toBe(1);
  });

  it('deletes a record only from its confirmation page, which works without JavaScript', async () => {
    const { page } = await fresh({ javaScriptEnabled: false });
    await signIn(page, server.url, ADMIN.email, ADMIN.password);
    await page.goto(`${server.url}/organizations/new`);
    await page.getByLabel('Name').fill(`Confirm Ltd ${Date.now()}`);
    await Promise.all([page.waitForURL(/\/organizations\/\d+$/), page.getByRole('button', { name: /Create/ }).click()]);
    const recordUrl = page.url();
    await Promise.all([page.waitForURL(`${recordUrl}/delete`), page.getByRole('link', { name: 'Delete' }).click()]);
    expect(await page.getByRole('heading', { name: 'Delete this organization?' }).count()).toBe(1);
    await Promise.all([page.waitForURL(recordUrl), page.getByRole('link', { name: 'Cancel' }).click()]);
    expect((await page.goto(recordUrl))?.status()).toBe(200);
  });
});
