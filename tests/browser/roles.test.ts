import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { callApi, signInOverApi } from './api-session';
import { openBrowser, signIn, type Browser } from './browser';
import { ADMIN, DEMO_CUSTOMER, DEMO_AGENT } from './servers';

const server = inject('helpdesk');

/*
 * The same data, seen by a customer and by an agent: the UI offers each only what the spec lets
 * them do (navigation, columns, filters, buttons, form fields). The server refuses the rest
 * regardless; that is proven by the permission matrix and the field-leak tests.
 */

/** The text of the elements as written (innerText would follow CSS, e.g. upper-case headers). */
async function texts(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((elements) => elements.map((element) => (element.textContent ?? '').trim()));
}

const columnHeaders = (page: Page) => texts(page, 'table thead th');
const filterLabels = (page: Page) => texts(page, 'form[role="search"] label');
const navLinks = (page: Page) => texts(page, 'nav[aria-label="Main"] a');

async function formLabels(page: Page): Promise<string[]> {
  return page
    .locator('form label')
    .evaluateAll((labels) => labels.map((label) => (label.textContent ?? '').replace(/\*/g, '').trim()).filter((text) => text !== ''));
}

describe('a customer and an agent see different lists, fields and buttons for the same data', () => {
  let customer: Browser;
  let agent: Browser;
  let ticketId: number;

  beforeAll(async () => {
    // A ticket of the customer, in the state where they may still edit it, assigned to the agent.
    const admin = await signInOverApi(server.url, ADMIN.email, ADMIN.password);
    const customerUser = await signInOverApi(server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    const agentUser = await signInOverApi(server.url, DEMO_AGENT.email, DEMO_AGENT.password);
    const ticket = await callApi<{ id: number }>(server.url, admin, 'POST', '/tickets', {
      subject: 'Roles: the printer is on fire',
      requester: customerUser.user.id,
      assignee: agentUser.user.id,
    });
    expect(ticket.status).toBe(201);
    ticketId = ticket.body.id;
    customer = await openBrowser();
    agent = await openBrowser();
    await signIn(customer.page, server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    await signIn(agent.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
  });
  afterAll(async () => {
    await customer?.close();
    await agent?.close();
  });

  it('navigation: organizations for the agent only', async () => {
    await customer.page.goto(`${server.url}/`);
    await agent.page.goto(`${server.url}/`);
    expect(await navLinks(customer.page)).not.toContain('Organizations');
    // A customer's comments are met on their tickets: no entry of their own (tests/browser/portal.test.ts).
    expect(await navLinks(customer.page)).toEqual(expect.arrayContaining(['Tickets']));
    expect(await navLinks(customer.page)).not.toContain('Comments');
    expect(await navLinks(agent.page)).toEqual(expect.arrayContaining(['Tickets', 'Organizations', 'Comments']));
    const refused = await customer.page.goto(`${server.url}/organizations`);
    expect(refused?.status()).toBe(403);
  });

  it('the ticket list: assignee and organization columns and filters for the agent only; the customer their own list', async () => {
    await customer.page.goto(`${server.url}/tickets`);
    await agent.page.goto(`${server.url}/tickets`);
    const customerColumns = await columnHeaders(customer.page);
    const agentColumns = await columnHeaders(agent.page);
    expect(agentColumns).toEqual(expect.arrayContaining(['Subject', 'Assignee', 'Organization']));
    expect(customerColumns).toContain('Subject');
    expect(customerColumns).not.toContain('Assignee');
    expect(customerColumns).not.toContain('Organization');
    expect(await filterLabels(agent.page)).toEqual(expect.arrayContaining(['Assignee', 'Organization', 'State', 'Priority']));
    // The customer's own list (screens.lists.ticket.roles.customer): their tickets by state, no SLA clock.
    const customerFilters = await filterLabels(customer.page);
    expect(customerFilters).toContain('State');
    expect(customerFilters).not.toContain('Priority');
    expect(customerFilters).not.toContain('SLA due');
    expect(customerColumns).not.toContain('SLA due');
    expect(customerFilters).not.toContain('Assignee');
    expect(customerFilters).not.toContain('Organization');
    // Both find the ticket; the customer only among their own.
    expect(await customer.page.getByRole('link', { name: 'Roles: the printer is on fire' }).count()).toBeGreaterThan(0);
    expect(await agent.page.getByRole('link', { name: 'Roles: the printer is on fire' }).count()).toBeGreaterThan(0);
  });

  it('the ticket: Edit for both, Delete for neither (agents cannot delete); the assignee for the agent only', async () => {
    await customer.page.goto(`${server.url}/tickets/${ticketId}`);
    await agent.page.goto(`${server.url}/tickets/${ticketId}`);
    for (const page of [customer.page, agent.page]) {
      expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(1);
      expect(await page.getByRole('link', { name: 'Delete' }).count()).toBe(0);
    }
    expect(await agent.page.getByText('Assignee', { exact: true }).count()).toBeGreaterThan(0);
    expect(await customer.page.getByText('Assignee', { exact: true }).count()).toBe(0);
    const deleting = await agent.page.goto(`${server.url}/tickets/${ticketId}/delete`);
    expect(deleting?.status()).toBe(403);
  });

  it("the customer's forms ask for subject, description and attachments only; the agent's for more", async () => {
    await customer.page.goto(`${server.url}/tickets/${ticketId}/edit`);
    expect(await formLabels(customer.page)).toEqual(['Subject', 'Description', 'Attachments']);
    await agent.page.goto(`${server.url}/tickets/${ticketId}/edit`);
    expect(await formLabels(agent.page)).toEqual(
      expect.arrayContaining(['Subject', 'Description', 'Priority', 'Organization', 'Requester', 'Assignee', 'Due']),
    );
    await customer.page.goto(`${server.url}/tickets/new`);
    expect(await formLabels(customer.page)).toEqual(['Subject', 'Description', 'Attachments']);
  });

  it('the customer edits their ticket through the form', async () => {
    const { page } = customer;
    await page.goto(`${server.url}/tickets/${ticketId}/edit`);
    await page.getByLabel('Subject').fill('Roles: the printer is still on fire');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(`${server.url}/tickets/${ticketId}`);
    await expect.poll(() => page.getByRole('heading', { name: 'Roles: the printer is still on fire' }).count()).toBe(1);
  });

  it('comments: the internal flag for the agent only', async () => {
    await customer.page.goto(`${server.url}/comments`);
    await agent.page.goto(`${server.url}/comments`);
    expect(await columnHeaders(agent.page)).toContain('Internal');
    expect(await columnHeaders(customer.page)).not.toContain('Internal');
    await customer.page.goto(`${server.url}/comments/new`);
    expect(await formLabels(customer.page)).toEqual(['Ticket', 'Body', 'Attachments']);
    await agent.page.goto(`${server.url}/comments/new`);
    expect(await formLabels(agent.page)).toEqual(['Ticket', 'Body', 'Internal', 'Attachments']);
  });
});
