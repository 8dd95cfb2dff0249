import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations } from './axe';
import { openBrowser, sidewaysScroll, signIn, type Browser } from './browser';
import { ADMIN } from './servers';

const server = inject('helpdesk');
const SCREENSHOTS = '/tmp/shots';

/**
 * The helpdesk's user field `organization` (users.fields), set by an administrator on
 * /admin/users: a select of the organizations by name, with and without JavaScript.
 */
describe('user fields on /admin/users', () => {
  const browsers: Browser[] = [];
  let admin: Browser;

  /** The row of an account that is not the administrator's own, with its fields form. */
  const someoneElse = async (page: Page): Promise<{ email: string; form: Locator }> => {
    const row = page
      .locator('tr[data-user]')
      .filter({ hasNot: page.getByText('(you)') })
      .first();
    const email = (await row.getAttribute('data-user'))!;
    return { email, form: row.getByRole('form', { name: `Fields of ${email}` }) };
  };

  beforeAll(async () => {
    admin = await openBrowser();
    browsers.push(admin);
    await signIn(admin.page, server.url, ADMIN.email, ADMIN.password);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await Promise.all(browsers.map((b) => b.close()));
  });

  it('sets, keeps and clears the organization of an account; a refusal shows next to the field', async () => {
    const { page } = admin;
    await page.goto(`${server.url}/admin/users`);
    expect(await page.getByRole('columnheader', { name: 'Fields' }).count()).toBe(1);
    // The field's help, once above the accounts (and read out with each input).
    expect(await page.locator('dl').getByText('The company a customer belongs to', { exact: false }).count()).toBe(1);
    const { email, form } = await someoneElse(page);
    const select = form.getByLabel('Organization');
    const options = (await select.locator('option').allTextContents()).filter((o) => o !== '—');
    expect(options.length).toBeGreaterThan(1);
    // By name, in order: the administrator picks among the organizations they may read.
    expect(options).toEqual([...options].sort((a, b) => a.localeCompare(b)));

    await select.selectOption({ label: options[1] });
    await form.getByRole('button', { name: 'Save fields' }).click();
    await form.getByText('Fields saved.').waitFor();
    await page.reload();
    const again = (await someoneElse(page)).form.getByLabel('Organization');
    expect(await again.locator('option:checked').textContent()).toBe(options[1]);

    // A value the form never offers (a record deleted meanwhile, a tampered post): the field's message.
    await again.evaluate((element) => {
      const option = document.createElement('option');
      option.value = '999999';
      option.textContent = 'Gone';
      element.append(option);
    });
    await again.selectOption('999999');
    const form2 = (await someoneElse(page)).form;
    await form2.getByRole('button', { name: 'Save fields' }).click();
    await form2.getByText('Organization: no record #999999.').waitFor();
    expect(await form2.getByText('Check the fields marked below.').count()).toBe(1);
    expect(await form2.getByLabel('Organization').getAttribute('aria-invalid')).toBe('true');
    // The message is the input's description, read out with it.
    const describedBy = (await form2.getByLabel('Organization').getAttribute('aria-describedby'))!.split(' ');
    expect(await page.locator(`[id="${describedBy.at(-1)}"]`).textContent()).toBe('Organization: no record #999999.');
    expect((await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await page.reload();
    expect(await (await someoneElse(page)).form.getByLabel('Organization').locator('option:checked').textContent()).toBe(options[1]);

    await (await someoneElse(page)).form.getByLabel('Organization').selectOption({ label: '—' });
    await (await someoneElse(page)).form.getByRole('button', { name: 'Save fields' }).click();
    await (await someoneElse(page)).form.getByText('Fields saved.').waitFor();
    expect(email).toMatch(/@/);
  });

  it('saves without JavaScript too', async () => {
    const noJs = await openBrowser({ javaScriptEnabled: false });
    browsers.push(noJs);
    await signIn(noJs.page, server.url, ADMIN.email, ADMIN.password);
    await noJs.page.goto(`${server.url}/admin/users`);
    const { form } = await someoneElse(noJs.page);
    const options = (await form.getByLabel('Organization').locator('option').allTextContents()).filter((o) => o !== '—');
    await form.getByLabel('Organization').selectOption({ label: options[0] });
    await Promise.all([noJs.page.waitForLoadState('load'), form.getByRole('button', { name: 'Save fields' }).click()]);
    await noJs.page.getByText('Fields saved.').waitFor();
    await noJs.page.goto(`${server.url}/admin/users`);
    expect(await (await someoneElse(noJs.page)).form.getByLabel('Organization').locator('option:checked').textContent()).toBe(options[0]);
  });

  it('stays tidy at 1280 and 360 px', async () => {
    const { page } = admin;
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.url}/admin/users`);
      expect(await sidewaysScroll(page)).toBe(0);
      await (await someoneElse(page)).form.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SCREENSHOTS, `user-fields-${width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
