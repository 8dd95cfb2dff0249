import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, signInOverApi, type ApiSession } from './api-session';
import { axeViolations } from './axe';
import { openBrowser, openFilters, signIn, type Browser } from './browser';
import { DEMO_AGENT, DEMO_CUSTOMER } from './servers';

const server = inject('helpdesk');
const SHOTS = '/tmp/shots';

/*
 * The keyboard alone: the skip link, the command palette (places, records by words and by
 * number, the record's own actions, as ops allows them to each user), the list's j/k/x/Enter,
 * e to edit, ? for the shortcuts, the focus after navigation and around dialogs; and the loading
 * states: the progress bar, the reply shown before the server has it and marked when it fails.
 */
describe('keyboard, command palette and loading states', () => {
  let agent: Browser;
  let customer: Browser;
  let agentApi: ApiSession;
  let customerApi: ApiSession;
  /** A word no other ticket has, so the palette's search finds exactly this one. */
  const word = `zanzibar${Date.now().toString(36)}`;
  let ticketId = 0;
  let ticketSubject = '';

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [agent, customer] = await Promise.all([openBrowser(), openBrowser()]);
    await Promise.all([
      signIn(agent.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password),
      signIn(customer.page, server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password),
    ]);
    [agentApi, customerApi] = await Promise.all([
      signInOverApi(server.url, DEMO_AGENT.email, DEMO_AGENT.password),
      signInOverApi(server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password),
    ]);
    // The customer's ticket, resolved by the agent: the agent may reopen or close it, the customer only reopen.
    ticketSubject = `The ${word} printer prints blank pages`;
    const created = await callApi<{ id: number; version: number }>(server.url, customerApi, 'POST', '/tickets', { subject: ticketSubject });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    ticketId = created.body.id;
    const started = await callApi<{ version: number }>(server.url, agentApi, 'POST', `/tickets/${ticketId}/transitions/start`, {
      version: created.body.version,
      input: { assignee: agentApi.user.id },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const resolved = await callApi(server.url, agentApi, 'POST', `/tickets/${ticketId}/transitions/resolve`, {
      version: started.body.version,
    });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
  });
  afterAll(() => Promise.all([agent, customer].filter(Boolean).map((b) => b.close())));

  const palette = (page: Page) => page.getByRole('dialog', { name: 'Command palette' });
  const combobox = (page: Page) => palette(page).getByRole('combobox');
  const focused = (page: Page) =>
    page.evaluate(() => {
      const el = document.activeElement;
      return {
        tag: el?.tagName ?? '',
        id: el?.id ?? '',
        text: (el?.textContent ?? '').trim().slice(0, 80),
        role: el?.getAttribute('role') ?? '',
        href: el?.getAttribute('href') ?? '',
        inMain: Boolean(el?.closest('#main')),
      };
    });
  /** The palette's options under one group, by the group's label. */
  const groupOptions = (page: Page, group: string) =>
    palette(page).getByRole('group', { name: group, exact: true }).getByRole('option').allInnerTexts();

  /** Opens the page and waits until React has hydrated the shell (its listeners are then on). */
  async function visit(page: Page, address: string): Promise<void> {
    await page.goto(`${server.url}${address}`);
    await page.waitForFunction(() => {
      const button = document.querySelector('header button[aria-keyshortcuts]');
      return (
        button !== null &&
        Object.keys(button).some((key) => key.startsWith('__reactProps')) &&
        document.documentElement.dataset.shortcuts === 'on'
      );
    });
  }

  async function openPalette(page: Page): Promise<void> {
    await page.keyboard.press('Control+k');
    await expect.poll(() => palette(page).isVisible(), { timeout: 10_000 }).toBe(true);
    expect((await focused(page)).role).toBe('combobox');
  }

  it('the skip link is the first Tab stop and leads into the main region', async () => {
    const { page } = agent;
    await visit(page, '/tickets');
    const tabsToFirstRow = async (skip: boolean) => {
      await visit(page, '/tickets');
      let tabs = 0;
      if (skip) {
        await page.keyboard.press('Tab');
        tabs += 1;
        await page.keyboard.press('Enter');
      }
      while (tabs < 200 && !(await page.evaluate(() => document.activeElement?.hasAttribute('data-row-link')))) {
        await page.keyboard.press('Tab');
        tabs += 1;
      }
      return tabs;
    };
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'A', text: 'Skip to content', href: '#main' });
    await page.keyboard.press('Enter');
    expect((await focused(page)).id).toBe('main');
    await page.keyboard.press('Tab');
    expect((await focused(page)).inMain).toBe(true);
    const without = await tabsToFirstRow(false);
    const withSkip = await tabsToFirstRow(true);
    console.log(`Tabs to the first ticket: ${without} without the skip link, ${withSkip} with it`);
    expect(withSkip).toBeLessThan(without);
  });

  it('Ctrl+K finds a record by its words and by its number; Enter opens it and the focus lands on its heading', async () => {
    const { page } = agent;
    await visit(page, '/tickets');
    await openPalette(page);
    await page.keyboard.type(word);
    await expect
      .poll(() => groupOptions(page, 'Tickets'), { timeout: 10_000 })
      .toEqual([`${ticketSubject}\n#${ticketId} · Resolved`, `All results for “${word}”`]);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'keyboard-palette-1280.png') });
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/tickets/${ticketId}`);
    await expect.poll(async () => (await focused(page)).tag, { timeout: 10_000 }).toBe('H1');
    expect((await focused(page)).text).toBe(ticketSubject);
    expect(await palette(page).isVisible()).toBe(false);

    await visit(page, '/');
    await openPalette(page);
    await page.keyboard.type(`#${ticketId}`);
    await expect.poll(() => groupOptions(page, 'Tickets'), { timeout: 10_000 }).toContain(`${ticketSubject}\n#${ticketId} · Resolved`);
    // Arrows move the active option; Enter takes the active one.
    const options = palette(page).getByRole('option');
    const labels = await options.allInnerTexts();
    const target = labels.indexOf(`${ticketSubject}\n#${ticketId} · Resolved`);
    for (let i = 0; i < target; i += 1) await page.keyboard.press('ArrowDown');
    expect(await combobox(page).getAttribute('aria-activedescendant')).toBe(await options.nth(target).getAttribute('id'));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/tickets/${ticketId}`);
  });

  it('orders the records found best first, and its last option opens the list searched for the same words', async () => {
    const { page } = agent;
    // Created oldest first as the best match, so that recency alone would give the opposite order.
    const rare = `quokka${Date.now().toString(36)}`;
    const subjects = [rare, `${rare} stickers`, `Where is the ${rare} mug`];
    for (const subject of subjects) {
      const created = await callApi(server.url, customerApi, 'POST', '/tickets', { subject });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    await visit(page, '/');
    await openPalette(page);
    await page.keyboard.type(rare.toUpperCase());
    const all = `All results for “${rare.toUpperCase()}”`;
    await expect
      .poll(async () => (await groupOptions(page, 'Tickets')).map((text) => text.split('\n')[0]), { timeout: 10_000 })
      .toEqual([...subjects, all]);
    // Reached with the arrows like any record (the last option: Up from the first wraps to it).
    const options = palette(page).getByRole('option');
    await page.keyboard.press('ArrowUp');
    const last = options.nth((await options.count()) - 1);
    expect(await last.innerText()).toBe(all);
    expect(await combobox(page).getAttribute('aria-activedescendant')).toBe(await last.getAttribute('id'));
    expect(await last.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/tickets?q=${rare.toUpperCase()}`);
    expect(await page.locator('#list-q').inputValue()).toBe(rare.toUpperCase());
    const rows = page.locator('#main [data-list-row] [data-row-link]');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(subjects.length);
  });

  it('jumps to a place of the navigation, and Escape closes the palette with the focus back where it was', async () => {
    const { page } = agent;
    await visit(page, '/');
    const opener = page.getByRole('link', { name: 'Skip to content' });
    await opener.focus();
    await openPalette(page);
    expect(await groupOptions(page, 'Go to')).toEqual(expect.arrayContaining(['Home', 'Tickets', 'Your account']));
    await page.keyboard.press('Escape');
    await expect.poll(() => palette(page).isVisible(), { timeout: 10_000 }).toBe(false);
    expect((await focused(page)).text).toBe('Skip to content');

    await openPalette(page);
    await page.keyboard.type('organiz');
    expect((await groupOptions(page, 'Go to'))[0]).toBe('Organizations');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/organizations`);
    await expect.poll(async () => (await focused(page)).tag, { timeout: 10_000 }).toBe('H1');
  });

  it("offers the record's actions as ops allows them to each user, and takes a transition with the page's own form", async () => {
    await visit(customer.page, `/tickets/${ticketId}`);
    await openPalette(customer.page);
    expect(await groupOptions(customer.page, `Ticket #${ticketId}`)).toEqual(['Reopen']);
    await customer.page.keyboard.press('Escape');

    const { page } = agent;
    await visit(page, `/tickets/${ticketId}`);
    await openPalette(page);
    const offered = await groupOptions(page, `Ticket #${ticketId}`);
    expect(offered).toEqual(['Edit', 'Reopen', 'Close']);
    // The same transitions the workflow panel lets the agent take.
    expect(await page.locator('form[data-transition]').evaluateAll((forms) => forms.map((f) => f.getAttribute('aria-label')))).toEqual([
      'Reopen',
      'Close',
    ]);
    await page.keyboard.type('close');
    expect(await palette(page).getByRole('option').allInnerTexts()).toEqual(['Close']);
    await page.keyboard.press('Enter');
    // Closing cannot be undone: the page's own form asks first, with the focus on Cancel; the keyboard goes ahead.
    const question = page.getByRole('dialog', { name: `Close ticket #${ticketId}?` });
    await question.waitFor();
    expect((await focused(page)).text).toBe('Cancel');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await page.getByRole('region', { name: 'Workflow' }).innerText()).includes('This is a final state.'), {
        timeout: 10_000,
      })
      .toBe(true);
    const after = await callApi<{ state: string }>(server.url, agentApi, 'GET', `/tickets/${ticketId}`);
    expect(after.body.state).toBe('closed');
    // Closed: nothing left to do with it, so the palette offers no action on it.
    await openPalette(page);
    expect(
      await palette(page)
        .getByRole('group', { name: `Ticket #${ticketId}`, exact: true })
        .count(),
    ).toBe(0);
    await page.keyboard.press('Escape');
  });

  it('j and k move through the rows, Enter opens one, x selects it, and e edits', async () => {
    const { page } = agent;
    // New tickets: the agent may edit each of them.
    await visit(page, '/tickets?state=new');
    const rowLinks = page.locator('#main [data-list-row] [data-row-link]');
    const hrefs = await rowLinks.evaluateAll((links) => links.map((l) => l.getAttribute('href')));
    expect(hrefs.length).toBeGreaterThan(2);
    for (const key of ['j', 'j', 'j', 'k']) await page.keyboard.press(key);
    expect((await focused(page)).href).toBe(hrefs[1]);
    await page.screenshot({ path: path.join(SHOTS, 'keyboard-row-focus-1280.png') });
    await page.keyboard.press('x');
    const box = page.locator('#main [data-list-row]').nth(1).locator('input[type="checkbox"]');
    expect(await box.isChecked()).toBe(true);
    await page.keyboard.press('x');
    expect(await box.isChecked()).toBe(false);
    await page.keyboard.press('x');
    expect(await box.isChecked()).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}${hrefs[1]}`);
    await expect.poll(async () => (await focused(page)).tag, { timeout: 10_000 }).toBe('H1');
    await page.keyboard.press('e');
    await page.waitForURL(`${server.url}${hrefs[1]}/edit`);

    // A closed ticket cannot be edited: no Edit on its page, and `e` does nothing there.
    await visit(page, `/tickets/${ticketId}`);
    expect(await page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
    await page.keyboard.press('e');
    await page.keyboard.press('Shift+?');
    await expect.poll(() => page.getByRole('dialog', { name: 'Keyboard shortcuts' }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(new URL(page.url()).pathname).toBe(`/tickets/${ticketId}`);
    await page.keyboard.press('Escape');
  });

  it('never takes a key typed into a field: "j" in the search box is a j', async () => {
    const { page } = agent;
    await visit(page, '/tickets');
    const search = page.locator('#main input[type="search"]');
    await page.keyboard.press('/');
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('jkx?e');
    expect(await search.inputValue()).toBe('jkx?e');
    expect(await page.locator('dialog[open]').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/tickets');
  });

  it('? lists the shortcuts in a dialog that passes axe, and gives the focus back on closing', async () => {
    const { page } = agent;
    await visit(page, '/tickets');
    await page.keyboard.press('j');
    const before = (await focused(page)).href;
    await page.keyboard.press('Shift+?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect.poll(() => dialog.isVisible(), { timeout: 10_000 }).toBe(true);
    const text = await dialog.innerText();
    for (const line of ['Open the command palette', 'Next row', 'Select the row', 'Edit it', 'Go home']) expect(text).toContain(line);
    expect(await axeViolations(page)).toEqual([]);
    // While it is open, the page's shortcuts wait.
    await page.keyboard.press('j');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible(), { timeout: 10_000 }).toBe(false);
    expect((await focused(page)).href).toBe(before);
  });

  it('shows the palette on a phone, opened by its button', async () => {
    const { page } = agent;
    await page.setViewportSize({ width: 360, height: 780 });
    try {
      await visit(page, '/tickets');
      await page.getByRole('button', { name: 'Search or jump to…' }).click();
      await expect.poll(() => palette(page).isVisible(), { timeout: 10_000 }).toBe(true);
      await page.keyboard.type(word);
      // The ticket, then "All results".
      await expect.poll(() => groupOptions(page, 'Tickets'), { timeout: 10_000 }).toHaveLength(2);
      await page.screenshot({ path: path.join(SHOTS, 'keyboard-palette-360.png') });
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('shows the palette in the dark theme too, passing axe', async () => {
    const { page } = agent;
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      await visit(page, '/tickets');
      await openPalette(page);
      await page.keyboard.type(word);
      // The ticket, then "All results".
      await expect.poll(() => groupOptions(page, 'Tickets'), { timeout: 10_000 }).toHaveLength(2);
      await page.screenshot({ path: path.join(SHOTS, 'keyboard-palette-dark-1280.png') });
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await expect.poll(() => palette(page).isVisible(), { timeout: 10_000 }).toBe(false);
      await page.keyboard.press('Shift+?');
      await expect.poll(() => page.getByRole('dialog', { name: 'Keyboard shortcuts' }).isVisible(), { timeout: 10_000 }).toBe(true);
      await page.screenshot({ path: path.join(SHOTS, 'keyboard-shortcuts-dark-1280.png') });
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });

  it('shows a progress bar while a client-side navigation or a filter change loads', async () => {
    const { page } = agent;
    await visit(page, '/tickets');
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === '/organizations',
      async (route) => {
        await held;
        await route.continue();
      },
    );
    try {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organizations' }).click();
      const bar = page.getByRole('progressbar', { name: 'Loading the page' });
      await expect.poll(() => bar.isVisible(), { timeout: 10_000 }).toBe(true);
      release();
      await page.waitForURL(`${server.url}/organizations`);
      await expect.poll(() => bar.count(), { timeout: 10_000 }).toBe(0);
    } finally {
      release();
      await page.unroute((url) => url.pathname === '/organizations');
    }

    // A filter applying as it changes: the same bar while the filtered list loads.
    await visit(page, '/tickets');
    let releaseFilter: () => void = () => {};
    const heldFilter = new Promise<void>((resolve) => (releaseFilter = resolve));
    const filtered = (url: URL) => url.pathname === '/tickets' && url.searchParams.has('priority');
    await page.route(filtered, async (route) => {
      await heldFilter;
      await route.continue();
    });
    try {
      await openFilters(page);
      await page.locator('form[role="search"]').getByLabel('Priority', { exact: true }).selectOption('urgent');
      const busyBar = page.locator('.nf-progress');
      await expect.poll(() => busyBar.isVisible(), { timeout: 10_000 }).toBe(true);
      releaseFilter();
      await page.waitForURL((url) => url.searchParams.get('priority') === 'urgent');
      await expect.poll(() => busyBar.isVisible(), { timeout: 10_000 }).toBe(false);
    } finally {
      releaseFilter();
      await page.unroute(filtered);
    }
  });

  it('shows a reply at once, marked while it is sent, and marks it when the server refuses it', async () => {
    const created = await callApi<{ id: number; version: number }>(server.url, customerApi, 'POST', '/tickets', {
      subject: `Optimistic ${word}`,
    });
    expect(created.status).toBe(201);
    const { page } = customer;
    // No live updates in this tab: the refusal below must come from the server, not from the page redrawing first.
    await page.route('**/api/live**', (route) => route.abort());
    const isAction = (request: { method(): string; headers(): Record<string, string> }) =>
      request.method() === 'POST' && 'next-action' in request.headers();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/*', async (route) => (isAction(route.request()) ? held.then(() => route.continue()) : route.fallback()));
    try {
      await visit(page, `/tickets/${created.body.id}`);
      const form = page.getByRole('form', { name: 'Reply' });
      const box = form.getByRole('textbox');
      await box.fill('Is anyone there?');
      await form.getByRole('button', { name: 'Reply', exact: true }).click();
      const sending = page.locator('[data-pending-reply="sending"]');
      await expect.poll(() => sending.count(), { timeout: 10_000 }).toBe(1);
      expect(await sending.innerText()).toContain('Is anyone there?');
      expect(await sending.innerText()).toContain('Sending…');
      expect(await page.getByRole('list', { name: 'Comments' }).count()).toBe(0);
      release();
      await expect.poll(() => sending.count(), { timeout: 10_000 }).toBe(0);
      await expect.poll(() => page.getByRole('list', { name: 'Comments' }).innerText(), { timeout: 10_000 }).toContain('Is anyone there?');

      // Closed meanwhile by the agent: the next reply is refused, marked, and kept in the box.
      let version = created.body.version;
      for (const [name, input] of [['start', { assignee: agentApi.user.id }], ['resolve'], ['close']] as const) {
        const taken = await callApi<{ version: number }>(server.url, agentApi, 'POST', `/tickets/${created.body.id}/transitions/${name}`, {
          version,
          ...(input ? { input } : {}),
        });
        expect(taken.status, JSON.stringify(taken.body)).toBe(200);
        version = taken.body.version;
      }
      await box.fill('Hello again?');
      await form.getByRole('button', { name: 'Reply', exact: true }).click();
      const failed = page.locator('[data-pending-reply="failed"]');
      await expect.poll(() => failed.count(), { timeout: 10_000 }).toBe(1);
      expect(await failed.innerText()).toContain('Not sent');
      expect(await failed.innerText()).toContain('Hello again?');
      expect(await box.inputValue()).toBe('Hello again?');
      expect(await page.getByRole('list', { name: 'Comments' }).innerText()).not.toContain('Hello again?');
    } finally {
      release();
      await page.unrouteAll({ behavior: 'ignoreErrors' });
    }
  });
});
