import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, requesterId, signInOverApi, type ApiSession } from './api-session';
import { axeViolations } from './axe';
import { openBrowser, openFilters, signIn, type Browser } from './browser';
import { choosePlain, offeredFor, pick } from './pick';
import { ADMIN, DEMO_AGENT, DEMO_CUSTOMER, DEMO_REQUESTER } from './servers';

const helpdesk = inject('helpdesk');
const crm = inject('crm');
const SALES = { email: 'sales1@demo.ninefold.test', password: 'demo-password' } as const;

/** Waits until React has hydrated the picker (the combobox replaces the plain input). */
async function hydratedPicker(page: Page, label: string): Promise<void> {
  await page.getByRole('combobox', { name: label, exact: true }).waitFor();
}

/*
 * Reference and user pickers: a combobox whose options the server finds as the user types
 * (through ops, with the viewer's access and the field's roles and `within`), never a list of
 * every record in the page; a plain select of a few, or an id input, without JavaScript.
 */
describe('pickers', () => {
  let agent: Browser;
  let agentApi: ApiSession;
  let adminApi: ApiSession;
  beforeAll(async () => {
    agent = await openBrowser();
    await signIn(agent.page, helpdesk.url, DEMO_AGENT.email, DEMO_AGENT.password);
    agentApi = await signInOverApi(helpdesk.url, DEMO_AGENT.email, DEMO_AGENT.password);
    adminApi = await signInOverApi(helpdesk.url, ADMIN.email, ADMIN.password);
  });
  afterAll(() => agent.close());

  it("offers a ticket's assignee among staff only, chosen with the keyboard, and saves it", async () => {
    const page = agent.page;
    await page.goto(`${helpdesk.url}/tickets/new`);
    await hydratedPicker(page, 'Assignee');
    const subject = `Picker ${randomUUID().slice(0, 8)}`;
    await page.getByLabel('Subject').fill(subject);
    // A handful at a time, found by the server: never the whole staff list.
    const staff = await offeredFor(page, 'Assignee', 'a');
    expect(staff.length).toBeGreaterThan(0);
    expect(staff.length).toBeLessThanOrEqual(20);
    const box = page.getByRole('combobox', { name: 'Assignee', exact: true });
    await box.fill(agentApi.user.name);
    const list = page.getByRole('listbox', { name: 'Assignee: choices', exact: true });
    await list.getByRole('option').first().waitFor();
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    // The arrows walk the options the server found until the agent's own is the active one.
    const activeText = async () => {
      const active = await box.getAttribute('aria-activedescendant');
      return active ? await page.locator(`[id="${active}"]`).textContent() : null;
    };
    const count = await list.getByRole('option').count();
    for (let i = 0; i < count && (await activeText()) !== agentApi.user.name; i++) await box.press('ArrowDown');
    expect(await activeText()).toBe(agentApi.user.name);
    expect(await axeViolations(page)).toEqual([]);
    await box.press('Enter');
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    expect(await box.inputValue()).toBe(agentApi.user.name);
    // The requester is a customer: the agent filling the form is neither offered nor the default.
    const requester = page.getByRole('combobox', { name: 'Requester', exact: true });
    expect(await requester.inputValue()).toBe('');
    await requester.fill(agentApi.user.name);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'No match' }).count()).toBe(1);
    const customer = await signInOverApi(helpdesk.url, DEMO_REQUESTER.email, DEMO_REQUESTER.password);
    await pick(page, 'Requester', customer.user.name);
    await Promise.all([page.waitForURL(/\/tickets\/\d+$/), page.getByRole('button', { name: /Create/ }).click()]);
    const id = Number(/\/tickets\/(\d+)$/.exec(page.url())?.[1]);
    const saved = await callApi<{ assignee: number | null; subject: string; requester: number }>(
      helpdesk.url,
      agentApi,
      'GET',
      `/tickets/${id}`,
    );
    expect(saved.body).toMatchObject({ subject, assignee: agentApi.user.id, requester: customer.user.id });
  });

  it('offers no customer as assignee (the field holds agents and administrators), and Escape closes the list', async () => {
    const page = agent.page;
    const customer = await signInOverApi(helpdesk.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    await page.goto(`${helpdesk.url}/tickets/new`);
    await hydratedPicker(page, 'Assignee');
    const box = page.getByRole('combobox', { name: 'Assignee', exact: true });
    await box.fill(customer.user.name);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'No match' }).count()).toBe(1);
    await box.press('Escape');
    expect(await box.getAttribute('aria-expanded')).toBe('false');
  });

  it("the ticket list's organization filter does not carry every organization, and applies what is chosen", async () => {
    const page = agent.page;
    // More organizations than a plain select would list (the demo has a few).
    const tag = randomUUID().slice(0, 6);
    for (let i = 0; i < 51; i++) {
      const made = await callApi(helpdesk.url, adminApi, 'POST', '/organizations', { name: `Picker org ${tag} ${i}` });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    }
    const html = await (await page.request.get(`${helpdesk.url}/tickets`)).text();
    const organizations = await callApi<{ items: { id: number; name: string }[] }>(
      helpdesk.url,
      agentApi,
      'GET',
      '/organizations?limit=100',
    );
    expect(organizations.body.items.length).toBeGreaterThan(50);
    // Neither the markup nor the data for hydration names them all.
    const named = organizations.body.items.filter((o) => html.includes(`>${o.name}<`) || html.includes(`"${o.name}"`));
    expect(named.length).toBeLessThan(10);
    await page.goto(`${helpdesk.url}/tickets`);
    await openFilters(page);
    await hydratedPicker(page, 'Organization');
    const first = organizations.body.items[0]!;
    const box = page.getByRole('combobox', { name: 'Organization', exact: true });
    await box.fill(first.name);
    const option = page
      .getByRole('listbox', { name: 'Organization: choices', exact: true })
      .getByRole('option', { name: first.name, exact: true });
    await Promise.all([page.waitForURL(new RegExp(`organization=${first.id}(&|$)`)), option.click()]);
    expect(await box.inputValue()).toBe(first.name);
  });

  it('works without JavaScript: a plain input posting the id', async () => {
    const plain = await openBrowser({ javaScriptEnabled: false });
    try {
      const page = plain.page;
      await signIn(page, helpdesk.url, DEMO_AGENT.email, DEMO_AGENT.password);
      await page.goto(`${helpdesk.url}/tickets/new`);
      // A select of the few staff, or an id input were there many: one control posting the id, no script.
      expect(await page.locator('[name="assignee"]').count()).toBe(1);
      const subject = `Plain picker ${randomUUID().slice(0, 8)}`;
      await page.getByLabel('Subject').fill(subject);
      await choosePlain(page, 'assignee', agentApi.user.id);
      await choosePlain(page, 'requester', await requesterId(helpdesk.url));
      await Promise.all([page.waitForURL(/\/tickets\/\d+$/), page.getByRole('button', { name: /Create/ }).click()]);
      const id = Number(/\/tickets\/(\d+)$/.exec(page.url())?.[1]);
      const saved = await callApi<{ assignee: number | null }>(helpdesk.url, agentApi, 'GET', `/tickets/${id}`);
      expect(saved.body.assignee).toBe(agentApi.user.id);
      // The list's organization filter is an id input: too many organizations to list.
      await page.goto(`${helpdesk.url}/tickets`);
      expect(await page.locator('#filter-organization option').count()).toBe(0);
      expect(await page.locator('#filter-organization').getAttribute('type')).toBe('number');
    } finally {
      await plain.close();
    }
  });

  it("a company's add-deal form offers only that company's contacts", async () => {
    const sales = await openBrowser();
    try {
      const page = sales.page;
      await signIn(page, crm.url, SALES.email, SALES.password);
      const salesApi = await signInOverApi(crm.url, SALES.email, SALES.password);
      const word = `pk${randomUUID().replace(/-/g, '').slice(0, 8)}`;
      const company = await callApi<{ id: number }>(crm.url, salesApi, 'POST', '/companies', { name: `Company ${word}` });
      const other = await callApi<{ id: number }>(crm.url, salesApi, 'POST', '/companies', { name: `Other ${word}` });
      await callApi(crm.url, salesApi, 'POST', '/contacts', { name: `Ours ${word}`, company: company.body.id });
      await callApi(crm.url, salesApi, 'POST', '/contacts', { name: `Theirs ${word}`, company: other.body.id });
      await page.goto(`${crm.url}/companies/${company.body.id}`);
      const form = page.getByRole('form', { name: /deal/i });
      await form.getByRole('combobox', { name: 'Contact', exact: true }).waitFor();
      expect(await offeredFor(form, 'Contact', word)).toEqual([`Ours ${word}`]);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await sales.close();
    }
  });
});
