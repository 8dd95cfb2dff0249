import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations } from './axe';
import { openBrowser, openFilters, sidewaysScroll, signIn, type Browser } from './browser';
import { ADMIN } from './servers';

const server = inject('helpdesk');
const SCREENSHOTS = path.join(process.env.NF_SCREENSHOTS ?? '/tmp/shots');

/*
 * Lists people keep: the address holds the whole list (filters, search, sort, columns), filters
 * apply as they change and leave no empty parameter, the column chooser picks and orders columns,
 * and saved views live in the navigation under their list, across reloads and sign-ins; rename,
 * delete (confirmed) and sharing by an administrator. Agents other than the demo agent most tests
 * use, and names of their own, so that other tests' pages do not meet these views.
 */
const AGENT = { email: 'agent3@demo.ninefold.test', password: 'demo-password' } as const;
const OTHER_AGENT = { email: 'agent4@demo.ninefold.test', password: 'demo-password' } as const;

const headers = (page: Page) =>
  page.locator('thead th').evaluateAll((cells) => cells.map((c) => c.textContent?.trim() ?? '').filter((t) => t !== ''));
const chooser = (page: Page) => page.getByRole('form', { name: 'Choose the columns' });
const openChooser = async (page: Page) => {
  if (!(await chooser(page).isVisible())) await page.locator('summary', { hasText: 'Columns' }).click();
};
const viewsNav = (page: Page) => page.getByRole('navigation', { name: 'Saved views of Tickets' });
const search = (page: Page) => page.getByRole('searchbox', { name: 'Search', exact: true });
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
const query = (page: Page) => new URL(page.url()).search;

/** axe's serious and critical violations of the page as it is now, in the light and the dark theme. */
async function blockingViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  // No transitions: axe reads the colours of the theme, not a frame in between.
  await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const v of await axeViolations(page))
      if (v.impact === 'serious' || v.impact === 'critical')
        found.push(`${colorScheme}: ${v.rule} ${JSON.stringify(v.nodes)}`.slice(0, 600));
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

async function shot(page: Page, name: string): Promise<void> {
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `saved-views-${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe('lists people keep', () => {
  let agent: Browser;
  let noScript: Browser;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    [agent, noScript] = await Promise.all([openBrowser(), openBrowser({ javaScriptEnabled: false })]);
    await signIn(agent.page, server.url, AGENT.email, AGENT.password);
    await signIn(noScript.page, server.url, AGENT.email, AGENT.password);
  });
  afterAll(() => Promise.all([agent, noScript].filter(Boolean).map((b) => b.close())));

  it('applies filters as they change, keeps focus where the user types, and leaves no empty parameter', async () => {
    const { page } = agent;
    await page.goto(`${server.url}/tickets`);
    // With JavaScript the filters need no Apply button.
    await expect.poll(() => page.getByRole('search').getByRole('button', { name: 'Apply', exact: true }).isVisible()).toBe(false);
    await openFilters(page);
    const state = page.getByRole('combobox', { name: 'State', exact: true });
    await state.focus();
    await state.selectOption('open');
    await page.waitForURL((url) => url.searchParams.get('state') === 'open');
    expect(query(page)).toBe('?state=open');
    expect(await focusedId(page)).toBe('filter-state');

    await search(page).click();
    await search(page).pressSequentially('wrong', { delay: 30 });
    await page.waitForURL((url) => url.searchParams.get('q') === 'wrong');
    expect(query(page)).toBe('?q=wrong&state=open');
    expect(await focusedId(page)).toBe('list-q');
    // Emptying the search takes it out of the address.
    await search(page).fill('');
    await search(page).press('Enter');
    await page.waitForURL((url) => !url.searchParams.has('q'));
    expect(query(page)).toBe('?state=open');
  });

  it('a GET form without JavaScript lands on the clean address of the same list', async () => {
    const { page } = noScript;
    await page.goto(`${server.url}/tickets`);
    await openFilters(page);
    await page.getByRole('combobox', { name: 'Priority', exact: true }).selectOption('urgent');
    await page.getByRole('search').getByRole('button', { name: 'Apply', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('priority') === 'urgent');
    expect(query(page)).toBe('?priority=urgent');
    await page.goto(`${server.url}/tickets?q=&state=&priority=high&cursor=`);
    expect(query(page)).toBe('?priority=high');
  });

  it('the column chooser picks and orders the columns, through the address, with and without JavaScript', async () => {
    const { page } = agent;
    await page.goto(`${server.url}/tickets?state=open`);
    const before = await headers(page);
    expect(before).toContain('Priority');
    await openChooser(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'saved-views-chooser-open-1280.png') });
    await chooser(page).getByRole('checkbox', { name: 'Requester', exact: true }).uncheck();
    await page.waitForURL((url) => url.searchParams.has('columns'));
    await expect.poll(async () => (await headers(page)).includes('Requester')).toBe(false);
    expect(await focusedId(page)).toBe('column-show-requester');
    await chooser(page).getByRole('button', { name: 'Move Priority up' }).click();
    await expect.poll(async () => (await headers(page)).indexOf('Priority')).toBe(before.indexOf('Priority') - 1);
    // Focus stays on the button used, so that moving again is one more key press.
    expect(await focusedId(page)).toBe('column-move-priority-up');
    const chosen = new URL(page.url()).searchParams.get('columns');
    expect(page.url()).toContain('columns=id,subject,priority,state');
    await page.setViewportSize({ width: 360, height: 900 });
    expect(await sidewaysScroll(page)).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'saved-views-chooser-open-360.png') });
    await page.setViewportSize({ width: 1280, height: 900 });

    // Reload: the same columns, in the same order.
    const chosenHeaders = await headers(page);
    await page.reload();
    expect(await headers(page)).toEqual(chosenHeaders);
    // Back and forward land on the lists they left.
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('columns') !== chosen);
    await expect.poll(async () => (await headers(page)).indexOf('Priority')).toBe(before.indexOf('Priority'));
    expect(await headers(page)).not.toContain('Requester');
    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('columns'));
    await expect.poll(() => headers(page)).toEqual(before);
    await page.goForward();
    await page.goForward();
    await page.waitForURL((url) => url.searchParams.get('columns') === chosen);
    await expect.poll(() => headers(page)).toEqual(chosenHeaders);
    // Sorting by a header keeps the columns.
    await page
      .getByRole('columnheader', { name: /Subject/ })
      .getByRole('link')
      .click();
    await page.waitForURL((url) => url.searchParams.has('sort'));
    expect(new URL(page.url()).searchParams.get('columns')).toBe(chosen);

    // Without JavaScript: tick and move, then Apply; the page redirects to `columns=`.
    const plain = noScript.page;
    await plain.goto(`${server.url}/tickets?columns=subject,state`);
    await openChooser(plain);
    await chooser(plain).getByRole('checkbox', { name: 'Priority', exact: true }).check();
    await chooser(plain).getByRole('button', { name: 'Apply', exact: true }).click();
    await plain.waitForURL((url) => url.searchParams.get('columns') === 'subject,state,priority');
    expect(await headers(plain)).toEqual(['Subject', 'State', 'Priority']);
    await openChooser(plain);
    await chooser(plain).getByRole('button', { name: 'Move Priority up' }).click();
    await plain.waitForURL((url) => url.searchParams.get('columns') === 'subject,priority,state');
    expect(await headers(plain)).toEqual(['Subject', 'Priority', 'State']);
  });

  it('never shows a column the viewer may not read, and says so', async () => {
    const customer = await openBrowser();
    try {
      await signIn(customer.page, server.url, 'customer3@demo.ninefold.test', 'demo-password');
      await customer.page.goto(`${server.url}/tickets?columns=subject,assignee,organization,state`);
      expect(await headers(customer.page)).toEqual(['Subject', 'State']);
      await expect.poll(() => customer.page.getByText('2 columns in the address are not available to you').count()).toBe(1);
      await openChooser(customer.page);
      const offered = await chooser(customer.page)
        .getByRole('checkbox')
        .evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value));
      expect(offered).not.toContain('assignee');
      expect(offered).not.toContain('organization');
    } finally {
      await customer.close();
    }
  });

  it('saves a view that stays in the navigation under its list across reloads and sign-ins; rename and delete', async () => {
    const { page } = agent;
    const name = `Open urgent ${randomUUID().slice(0, 6)}`;
    await page.goto(`${server.url}/tickets?state=open&priority=urgent&columns=subject,priority,state`);
    const address = query(page);
    await page.locator('summary', { hasText: 'Save view' }).click();
    await page.getByLabel('Name of the view').fill(name);
    await page.getByRole('button', { name: 'Save view', exact: true }).click();
    await expect.poll(() => page.locator('[data-active-view]').getAttribute('data-active-view')).toBe(name);
    await expect.poll(() => viewsNav(page).getByRole('link', { name }).getAttribute('aria-current')).toBe('page');
    await shot(page, 'nav');

    // Saving the same name again is refused with the catalogue's words, nothing saved twice.
    await page.goto(`${server.url}/tickets?state=new`);
    await page.locator('summary', { hasText: 'Save view' }).click();
    await page.getByLabel('Name of the view').fill(name.toUpperCase());
    await page.getByRole('button', { name: 'Save view', exact: true }).click();
    await expect.poll(() => page.getByText(`You already have a view of tickets named "${name}".`).count()).toBe(1);
    expect(await page.getByLabel('Name of the view').getAttribute('aria-invalid')).toBe('true');
    await openChooser(page);
    expect(await blockingViolations(page)).toEqual([]);

    // Sign out, sign in again: the view is in the navigation and opens the same list.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/sign-in'));
    await signIn(page, server.url, AGENT.email, AGENT.password);
    await page.goto(`${server.url}/tickets`);
    await viewsNav(page).getByRole('link', { name }).click();
    await page.waitForURL((url) => url.search === address);
    await expect.poll(() => headers(page)).toEqual(['Subject', 'Priority', 'State']);
    await page.reload();
    expect(await page.locator('[data-active-view]').getAttribute('data-active-view')).toBe(name);

    // Rename at /views.
    const renamed = `${name} (renamed)`;
    await page.goto(`${server.url}/views`);
    expect(await blockingViolations(page)).toEqual([]);
    await shot(page, 'manage');
    const item = page.locator(`li[data-view="${name}"]`);
    await item.getByLabel('New name').fill(renamed);
    await item.getByRole('button', { name: 'Rename' }).click();
    await expect.poll(() => page.getByText(`Renamed to "${renamed}".`).count()).toBe(1);
    await page.goto(`${server.url}/tickets`);
    await expect.poll(() => viewsNav(page).getByRole('link', { name: renamed }).count()).toBe(1);

    // Delete asks first, with JavaScript and without.
    await page.goto(`${server.url}/views`);
    const renamedItem = page.locator(`li[data-view="${renamed}"]`);
    await renamedItem.locator('summary', { hasText: 'Delete' }).click();
    await expect.poll(() => renamedItem.getByText(`Delete the view “${renamed}”? This cannot be undone.`).isVisible()).toBe(true);
    await renamedItem.getByRole('button', { name: 'Delete view' }).click();
    await expect.poll(() => page.locator(`li[data-view="${renamed}"]`).count()).toBe(0);
    await page.goto(`${server.url}/tickets`);
    expect(await page.getByRole('link', { name: renamed }).count()).toBe(0);
  });

  it('saves, confirms and deletes without JavaScript too', async () => {
    const { page } = noScript;
    const name = `No script ${randomUUID().slice(0, 6)}`;
    await page.goto(`${server.url}/tickets?state=pending`);
    await page.locator('summary', { hasText: 'Save view' }).click();
    await page.getByLabel('Name of the view').fill(name);
    await page.getByRole('button', { name: 'Save view', exact: true }).click();
    await page.waitForLoadState();
    expect(await page.locator('[data-active-view]').getAttribute('data-active-view')).toBe(name);
    expect(await viewsNav(page).getByRole('link', { name }).getAttribute('aria-current')).toBe('page');
    await page.goto(`${server.url}/views`);
    const item = page.locator(`li[data-view="${name}"]`);
    // The confirmation is hidden until asked for: one click never deletes.
    expect(await item.getByRole('button', { name: 'Delete view' }).isVisible()).toBe(false);
    await item.locator('summary', { hasText: 'Delete' }).click();
    await item.getByRole('button', { name: 'Delete view' }).click();
    await page.waitForLoadState();
    expect(await page.locator(`li[data-view="${name}"]`).count()).toBe(0);
  });

  it('works the same for another spec: a salesperson keeps a view of the deals of the CRM', async () => {
    const crm = inject('crm');
    const sales = await openBrowser();
    const name = `Qualified ${randomUUID().slice(0, 6)}`;
    try {
      await signIn(sales.page, crm.url, 'sales2@demo.ninefold.test', 'demo-password');
      const { page } = sales;
      // The deals open as a board; the column chooser's headers are the table's.
      await page.goto(`${crm.url}/deals?view=table`);
      // The filters apply as they change once the form's script runs (it marks the form when it has).
      await page.locator('form[role="search"][data-enhanced]').waitFor();
      await openFilters(page);
      await page.getByRole('combobox', { name: 'State', exact: true }).selectOption('qualified');
      await page.waitForURL((url) => url.searchParams.get('state') === 'qualified' && url.searchParams.get('view') === 'table');
      await openChooser(page);
      await chooser(page).getByRole('checkbox', { name: 'Company', exact: true }).uncheck();
      await page.waitForURL((url) => url.searchParams.has('columns'));
      await expect.poll(async () => (await headers(page)).includes('Company')).toBe(false);
      await page.locator('summary', { hasText: 'Save view' }).click();
      await page.getByLabel('Name of the view').fill(name);
      await page.getByRole('button', { name: 'Save view', exact: true }).click();
      await expect
        .poll(() => page.getByRole('navigation', { name: 'Saved views of Deals' }).getByRole('link', { name }).getAttribute('aria-current'))
        .toBe('page');
      await page.goto(`${crm.url}/views`);
      const item = page.locator(`li[data-view="${name}"]`);
      await item.locator('summary', { hasText: 'Delete' }).click();
      await item.getByRole('button', { name: 'Delete view' }).click();
      await expect.poll(() => page.locator(`li[data-view="${name}"]`).count()).toBe(0);
    } finally {
      await sales.close();
    }
  });

  it('an administrator shares a view with a role: its members see it, read-only', async () => {
    const admin = await openBrowser();
    const other = await openBrowser();
    const name = `Team queue ${randomUUID().slice(0, 6)}`;
    try {
      await signIn(admin.page, server.url, ADMIN.email, ADMIN.password);
      await admin.page.goto(`${server.url}/tickets?state=new`);
      await admin.page.locator('summary', { hasText: 'Save view' }).click();
      await admin.page.getByLabel('Name of the view').fill(name);
      await admin.page.getByRole('button', { name: 'Save view', exact: true }).click();
      await expect.poll(() => admin.page.locator('[data-active-view]').getAttribute('data-active-view')).toBe(name);

      await signIn(other.page, server.url, OTHER_AGENT.email, OTHER_AGENT.password);
      await other.page.goto(`${server.url}/tickets`);
      expect(await other.page.getByRole('link', { name }).count()).toBe(0);

      await admin.page.goto(`${server.url}/views`);
      const item = admin.page.locator(`li[data-view="${name}"]`);
      await item.getByRole('checkbox', { name: 'Agent' }).check();
      await item.getByRole('button', { name: 'Save sharing' }).click();
      await expect.poll(() => item.getByText('Sharing saved.').count()).toBe(1);

      await other.page.goto(`${server.url}/tickets`);
      await viewsNav(other.page).getByRole('link', { name }).click();
      await other.page.waitForURL((url) => url.searchParams.get('state') === 'new');
      await expect.poll(() => other.page.getByText('(shared with you)').count()).toBe(1);
      await other.page.goto(`${server.url}/views`);
      const seen = other.page.locator(`li[data-view="${name}"]`);
      expect(await seen.getByText('Shared with you').count()).toBe(1);
      expect(await seen.getByRole('button').count()).toBe(0);

      // The administrator deletes it: gone for the agents too.
      await item.locator('summary', { hasText: 'Delete' }).click();
      await item.getByRole('button', { name: 'Delete view' }).click();
      await expect.poll(() => admin.page.locator(`li[data-view="${name}"]`).count()).toBe(0);
      await other.page.goto(`${server.url}/tickets`);
      expect(await other.page.getByRole('link', { name }).count()).toBe(0);
    } finally {
      await Promise.all([admin.close(), other.close()]);
    }
  });
});
