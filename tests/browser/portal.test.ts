import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations } from './axe';
import { openBrowser, signIn, sidewaysScroll, type Browser } from './browser';
import { ADMIN, DEMO_AGENT, DEMO_CUSTOMER } from './servers';

const helpdesk = inject('helpdesk');
const crm = inject('crm');
const SCREENSHOTS = '/tmp/shots';

const navLinks = (page: Page) =>
  page.locator('nav[aria-label="Main"] a').evaluateAll((links) => links.map((a) => (a.textContent ?? '').trim()));

async function shoot(page: Page, name: string): Promise<void> {
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `portal-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/*
 * Customers get a portal, not the back office: the navigation shows each user what they use, and
 * the documents that tell every role's permissions and fields (/spec, /api/docs) are for the roles
 * of `screens.documentation` (by default administrators).
 */
describe('the customer portal and who reads the documentation', () => {
  let admin: Browser;
  let agent: Browser;
  let customer: Browser;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    [admin, agent, customer] = await Promise.all([openBrowser(), openBrowser(), openBrowser()]);
    await signIn(admin.page, helpdesk.url, ADMIN.email, ADMIN.password);
    await signIn(agent.page, helpdesk.url, DEMO_AGENT.email, DEMO_AGENT.password);
    await signIn(customer.page, helpdesk.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
  });
  afterAll(() => Promise.all([admin, agent, customer].filter(Boolean).map((b) => b.close())));

  it("shows a customer only their tickets: comments are met on a ticket's page, the documents are not theirs", async () => {
    await customer.page.goto(`${helpdesk.url}/`);
    expect(await navLinks(customer.page)).toEqual(['Tickets']);
    await shoot(customer.page, 'customer-home');
    // The list stays at its address, within the customer's access: it is only not a place in the bar.
    expect((await customer.page.goto(`${helpdesk.url}/comments`))?.status()).toBe(200);
  });

  it('shows an agent the desk, without the documents or the users', async () => {
    await agent.page.goto(`${helpdesk.url}/`);
    expect(await navLinks(agent.page)).toEqual(['My queue', 'Tickets', 'Organizations', 'Comments']);
  });

  it('shows an administrator everything, the spec and the API reference among it', async () => {
    await admin.page.goto(`${helpdesk.url}/`);
    expect(await navLinks(admin.page)).toEqual(['My queue', 'Tickets', 'Organizations', 'Comments', 'Spec', 'API', 'Users']);
  });

  it('answers 403 to customers and agents on /spec and /api/docs, 200 to administrators, and sends visitors to sign in', async () => {
    for (const address of ['/spec', '/api/docs']) {
      expect((await customer.page.goto(`${helpdesk.url}${address}`))?.status(), `customer ${address}`).toBe(403);
      expect(await customer.page.locator('main').textContent()).not.toContain('hiddenFields');
      expect((await agent.page.goto(`${helpdesk.url}${address}`))?.status(), `agent ${address}`).toBe(403);
      expect((await admin.page.goto(`${helpdesk.url}${address}`))?.status(), `admin ${address}`).toBe(200);
      const visitor = await fetch(`${helpdesk.url}${address}`, { redirect: 'manual' });
      expect(visitor.status).toBeGreaterThanOrEqual(300);
      expect(visitor.status).toBeLessThan(400);
      expect(visitor.headers.get('location')).toContain(`/sign-in?next=${encodeURIComponent(address)}`);
    }
    await customer.page.goto(`${helpdesk.url}/spec`);
    await shoot(customer.page, 'customer-spec-403');
    // The spec says who reads it.
    await admin.page.goto(`${helpdesk.url}/spec`);
    expect(await admin.page.locator('main').textContent()).toContain('to admin (screens.documentation)');
  });

  it('keeps the machine-readable OpenAPI document for every API client, and points customers to it', async () => {
    const document = await fetch(`${helpdesk.url}/api/v1/openapi.json`);
    expect(document.status).toBe(200);
    await customer.page.goto(`${helpdesk.url}/account`);
    expect(await customer.page.locator('main a[href="/api/docs"]').count()).toBe(0);
    expect(await customer.page.locator('main a[href="/api/v1/openapi.json"]').count()).toBe(1);
    await admin.page.goto(`${helpdesk.url}/account`);
    expect(await admin.page.locator('main a[href="/api/docs"]').count()).toBe(1);
  });

  it('derives the same for another spec: the CRM gives a salesperson their pipeline and no documents', async () => {
    const sales = await openBrowser();
    try {
      await signIn(sales.page, crm.url, 'sales1@demo.ninefold.test', 'demo-password');
      await sales.page.goto(`${crm.url}/`);
      const links = await navLinks(sales.page);
      expect(links).toContain('Deals');
      expect(links).not.toContain('Spec');
      expect(links).not.toContain('API');
      expect((await sales.page.goto(`${crm.url}/spec`))?.status()).toBe(403);
    } finally {
      await sales.close();
    }
  });

  it('passes axe on the documents for an administrator and on the 403 page for a customer, at 1280 and 360 px', async () => {
    const found: Record<string, unknown[]> = {};
    for (const width of [1280, 360]) {
      for (const address of ['/spec', '/api/docs']) {
        await admin.page.setViewportSize({ width, height: 900 });
        await admin.page.goto(`${helpdesk.url}${address}`);
        found[`admin ${address} ${width}`] = (await axeViolations(admin.page)).filter(
          (v) => v.impact === 'serious' || v.impact === 'critical',
        );
        expect(await sidewaysScroll(admin.page), `${address} at ${width}`).toBe(0);
      }
      await customer.page.setViewportSize({ width, height: 900 });
      await customer.page.goto(`${helpdesk.url}/spec`);
      found[`customer /spec ${width}`] = (await axeViolations(customer.page)).filter(
        (v) => v.impact === 'serious' || v.impact === 'critical',
      );
    }
    expect(Object.entries(found).filter(([, violations]) => violations.length > 0)).toEqual([]);
    await admin.page.setViewportSize({ width: 1280, height: 900 });
  });
});
