import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, requesterId, signInOverApi, type ApiSession } from './api-session';
import { axeViolations } from './axe';
import { openBrowser, sidewaysScroll, signIn, type Browser } from './browser';
import { ADMIN, DEMO_AGENT, DEMO_CUSTOMER } from './servers';

const helpdesk = inject('helpdesk');
const crm = inject('crm');
const SHOTS = '/tmp/shots';
const CRM_SALES = { email: 'sales1@demo.ninefold.test', password: 'demo-password' } as const;

/*
 * A transition into a final state (a ticket closed, a deal won or lost) freezes the record, so
 * the pages ask before taking one: in a dialog with JavaScript, by the server without it, on the
 * detail page and in a list's bulk toolbar. Until the user says yes nothing changes (read back
 * over the API). And the header: the user's tools on one row, the navigation on its own below.
 */
describe('confirmation of final transitions', () => {
  const browsers: Browser[] = [];
  const fresh = async (options?: { javaScriptEnabled?: boolean }) => {
    const browser = await openBrowser(options);
    browsers.push(browser);
    return browser;
  };
  let agent: Browser;
  let agentApi: ApiSession;
  const word = `quokka${Date.now().toString(36)}`;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    agent = await fresh();
    await signIn(agent.page, helpdesk.url, DEMO_AGENT.email, DEMO_AGENT.password);
    agentApi = await signInOverApi(helpdesk.url, DEMO_AGENT.email, DEMO_AGENT.password);
  });
  afterAll(() => Promise.all(browsers.map((b) => b.close())));

  /** A ticket of this test's own, resolved by the agent over the API: "Close" is the next step. */
  async function resolvedTicket(subject: string): Promise<{ id: number; version: number }> {
    const created = await callApi<{ id: number; version: number }>(helpdesk.url, agentApi, 'POST', '/tickets', {
      requester: await requesterId(helpdesk.url),
      subject: `${subject} ${word}`,
    });
    expect(created.status).toBe(201);
    let version = created.body.version;
    for (const [name, input] of [
      ['start', { assignee: agentApi.user.id }],
      ['resolve', undefined],
    ] as const) {
      const taken = await callApi<{ version: number }>(helpdesk.url, agentApi, 'POST', `/tickets/${created.body.id}/transitions/${name}`, {
        version,
        ...(input ? { input } : {}),
      });
      expect(taken.status, JSON.stringify(taken.body)).toBe(200);
      version = taken.body.version;
    }
    return { id: created.body.id, version };
  }

  const stateOf = async (id: number) =>
    (await callApi<{ state: string; version: number }>(helpdesk.url, agentApi, 'GET', `/tickets/${id}`)).body;
  const panel = (page: Page) => page.getByRole('region', { name: 'Workflow' });

  it('asks in a dialog before closing a ticket: Escape and Cancel change nothing, the answer closes it', async () => {
    const { page } = agent;
    const ticket = await resolvedTicket('Close me with a dialog');
    await page.goto(`${helpdesk.url}/tickets/${ticket.id}`);
    const close = panel(page).getByRole('button', { name: 'Close', exact: true });
    const dialog = page.getByRole('dialog', { name: `Close ticket #${ticket.id}?` });

    await close.click();
    await dialog.waitFor();
    expect(await dialog.getByText('A closed ticket can no longer be changed.').count()).toBe(1);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: path.join(SHOTS, `final-dialog-${width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    expect((await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await close.evaluate((button) => button === document.activeElement)).toBe(true);

    await close.click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await stateOf(ticket.id)).toMatchObject({ state: 'resolved', version: ticket.version });

    // A transition that can be undone is taken at once.
    expect(await panel(page).getByRole('button', { name: 'Reopen', exact: true }).count()).toBe(1);

    await close.click();
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect.poll(async () => (await panel(page).innerText()).includes('This is a final state.'), { timeout: 10_000 }).toBe(true);
    expect((await stateOf(ticket.id)).state).toBe('closed');
  });

  it('asks on the server without JavaScript: the first post changes nothing, Cancel keeps the ticket, the answer closes it', async () => {
    const { page } = await fresh({ javaScriptEnabled: false });
    await signIn(page, helpdesk.url, DEMO_AGENT.email, DEMO_AGENT.password);
    const ticket = await resolvedTicket('Close me without a script');
    const address = `${helpdesk.url}/tickets/${ticket.id}`;
    await page.goto(address);
    const question = panel(page)
      .getByRole('alert')
      .filter({ hasText: `Close ticket #${ticket.id}?` });

    await Promise.all([page.waitForLoadState('load'), panel(page).getByRole('button', { name: 'Close', exact: true }).click()]);
    expect(await question.count()).toBe(1);
    expect(await question.innerText()).toContain('A closed ticket can no longer be changed.');
    expect(await stateOf(ticket.id)).toMatchObject({ state: 'resolved', version: ticket.version });
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      await question.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, `final-noscript-${width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    await Promise.all([page.waitForURL(address), question.getByRole('link', { name: 'Cancel' }).click()]);
    expect(await question.count()).toBe(0);
    expect((await stateOf(ticket.id)).state).toBe('resolved');

    await Promise.all([page.waitForLoadState('load'), panel(page).getByRole('button', { name: 'Close', exact: true }).click()]);
    await Promise.all([page.waitForLoadState('load'), question.getByRole('button', { name: 'Close', exact: true }).click()]);
    expect((await stateOf(ticket.id)).state).toBe('closed');
    expect(await panel(page).innerText()).toContain('This is a final state.');
  });

  /** The agent's list of this test's tickets, the given ones selected and the transition chosen. */
  async function chooseOnList(page: Page, ids: readonly number[], transition: string): Promise<void> {
    await page.goto(`${helpdesk.url}/tickets?q=${word}&state=resolved`);
    for (const id of ids) await page.locator(`input[type="checkbox"][name="row"][value^="${id}:"]`).check();
    await page
      .getByRole('form', { name: 'Selected tickets' })
      .getByRole('combobox', { name: 'With the selected tickets' })
      .selectOption({ label: transition });
  }

  it("asks before closing the selected rows of a list, with and without JavaScript; other transitions don't ask", async () => {
    const { page } = agent;
    const [first, second] = [await resolvedTicket('Bulk close one'), await resolvedTicket('Bulk close two')];
    const apply = page.getByRole('form', { name: 'Selected tickets' }).getByRole('button', { name: 'Apply to selected' });
    const dialog = page.getByRole('dialog', { name: 'Close the selected tickets?' });

    await chooseOnList(page, [first.id, second.id], 'Close');
    await apply.click();
    await dialog.waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'final-bulk-dialog-1280.png') });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect([(await stateOf(first.id)).state, (await stateOf(second.id)).state]).toEqual(['resolved', 'resolved']);
    await apply.click();
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByText('“Close” taken on 2 tickets; they are now Closed.').waitFor();
    expect([(await stateOf(first.id)).state, (await stateOf(second.id)).state]).toEqual(['closed', 'closed']);

    // Reopen can be undone: no question.
    const third = await resolvedTicket('Bulk reopen');
    await chooseOnList(page, [third.id], 'Reopen');
    await apply.click();
    await page.getByText('“Reopen” taken on 1 ticket; it is now Open.').waitFor();
    expect(await dialog.count()).toBe(0);

    // Without JavaScript the server asks, in a form of its own that posts the same rows again.
    const noScript = await fresh({ javaScriptEnabled: false });
    await signIn(noScript.page, helpdesk.url, DEMO_AGENT.email, DEMO_AGENT.password);
    const fourth = await resolvedTicket('Bulk close without a script');
    await chooseOnList(noScript.page, [fourth.id], 'Close');
    await Promise.all([noScript.page.waitForLoadState('load'), noScript.page.getByRole('button', { name: 'Apply to selected' }).click()]);
    const question = noScript.page.getByRole('form', { name: 'Confirm: selected tickets' });
    expect(await question.getByRole('alert').innerText()).toContain('Close the selected tickets?');
    expect((await stateOf(fourth.id)).state).toBe('resolved');
    for (const width of [1280, 360]) {
      await noScript.page.setViewportSize({ width, height: 800 });
      await question.scrollIntoViewIfNeeded();
      await noScript.page.screenshot({ path: path.join(SHOTS, `final-bulk-noscript-${width}.png`) });
    }
    await Promise.all([noScript.page.waitForLoadState('load'), question.getByRole('button', { name: 'Close', exact: true }).click()]);
    expect((await stateOf(fourth.id)).state).toBe('closed');
    expect(await noScript.page.getByText('“Close” taken on 1 ticket; it is now Closed.').count()).toBe(1);
  });

  it('asks in the CRM too, from its own labels, after the comment "Mark lost" requires is written', async () => {
    const { page } = await fresh();
    await signIn(page, crm.url, CRM_SALES.email, CRM_SALES.password);
    const salesApi = await signInOverApi(crm.url, CRM_SALES.email, CRM_SALES.password);
    const listed = await callApi<{ items: { id: number; state: string }[] }>(crm.url, salesApi, 'GET', '/deals?limit=100');
    const deal = listed.body.items.find((d) => d.state === 'lead' || d.state === 'qualified');
    expect(deal).toBeDefined();
    await page.goto(`${crm.url}/deals/${deal!.id}`);
    const form = page.locator('form[data-transition="lose"]');
    const dialog = page.getByRole('dialog', { name: `Mark lost deal #${deal!.id}?` });
    await form.getByRole('button', { name: 'Mark lost' }).click();
    // The browser points at the missing comment before anything is asked.
    expect(await form.getByRole('textbox', { name: 'Comment' }).evaluate((box) => (box as HTMLTextAreaElement).validity.valueMissing)).toBe(
      true,
    );
    expect(await dialog.count()).toBe(0);
    await form.getByRole('textbox', { name: 'Comment' }).fill('They chose a competitor.');
    await form.getByRole('button', { name: 'Mark lost' }).click();
    expect(await dialog.getByText('A lost deal can no longer be changed.').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Mark lost' }).click();
    await expect
      .poll(async () => (await callApi<{ state: string }>(crm.url, salesApi, 'GET', `/deals/${deal!.id}`)).body.state, { timeout: 10_000 })
      .toBe('lost');
  });
});

describe('the header', () => {
  const browsers: Browser[] = [];
  afterAll(() => Promise.all(browsers.map((b) => b.close())));

  /** Where each main navigation entry and each of the user's tools sit on the page. */
  async function headerBoxes(page: Page) {
    return page.evaluate(() => {
      const box = (el: Element) => {
        const r = el.getBoundingClientRect();
        return { top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left), right: Math.round(r.right) };
      };
      const header = document.querySelector('header')!;
      return {
        entries: [...header.querySelectorAll('nav[aria-label="Main"] a')].map(box),
        tools: [
          header.querySelector('button[aria-keyshortcuts]'),
          header.querySelector('[role="group"][aria-label="Theme"]'),
          header.querySelector('a[href="/account"]'),
        ].map((el) => (el ? box(el) : null)),
        width: document.documentElement.clientWidth,
      };
    });
  }

  const who = [
    { name: 'admin', url: helpdesk.url, user: ADMIN },
    { name: 'agent', url: helpdesk.url, user: DEMO_AGENT },
    { name: 'customer', url: helpdesk.url, user: DEMO_CUSTOMER },
    { name: 'crm-admin', url: crm.url, user: ADMIN },
  ] as const;

  it.each(who)(
    'is tidy for the $name: the navigation on one row below the tools at 1280 px, every entry on screen at 360 px, in both themes',
    async ({ name, url, user }) => {
      const browser = await openBrowser();
      browsers.push(browser);
      const { page } = browser;
      await signIn(page, url, user.email, user.password);
      await page.goto(`${url}/`);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width: 1280, height: 800 });
        const wide = await headerBoxes(page);
        expect(wide.entries.length).toBeGreaterThan(0);
        // One row of entries, wholly below the tools (which all stay in the header).
        expect(new Set(wide.entries.map((e) => e.top)).size).toBe(1);
        const toolsBottom = Math.max(...wide.tools.map((t) => t!.bottom));
        expect(wide.entries[0]!.top).toBeGreaterThanOrEqual(toolsBottom);
        // The tools side by side on one row.
        const middles = wide.tools.map((t) => (t!.top + t!.bottom) / 2);
        expect(Math.max(...middles) - Math.min(...middles)).toBeLessThan(8);
        await page.screenshot({
          path: path.join(SHOTS, `header-${name}-${scheme}-1280.png`),
          clip: { x: 0, y: 0, width: 1280, height: 200 },
        });

        await page.setViewportSize({ width: 360, height: 800 });
        const narrow = await headerBoxes(page);
        for (const entry of narrow.entries) {
          expect(entry.left).toBeGreaterThanOrEqual(0);
          expect(entry.right).toBeLessThanOrEqual(narrow.width);
        }
        expect(await sidewaysScroll(page)).toBe(0);
        await page.screenshot({
          path: path.join(SHOTS, `header-${name}-${scheme}-360.png`),
          clip: { x: 0, y: 0, width: 360, height: 260 },
        });
      }
      // The skip link is still the first stop, and leads past the navigation.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${url}/`);
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe('#main');
    },
  );
});
