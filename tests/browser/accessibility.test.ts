import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, type AxeViolation } from './axe';
import { callApi, signInOverApi } from './api-session';
import { openBrowser, signIn, type Browser } from './browser';
import { DEMO_CUSTOMER, DEMO_AGENT } from './servers';

const server = inject('helpdesk');
const SCREENSHOTS = path.resolve(__dirname, '../../tmp/screenshots');
/** The desk and the phone: every page is checked at both, as layouts differ. */
const WIDTHS = [1280, 360] as const;

/**
 * Visits `pathname` at each width (after `prepare`, when the state to check needs steps) and
 * returns axe's WCAG 2.1 AA violations by width: `{ 1280: [], 360: [] }` when the page passes.
 */
async function violationsAtEachWidth(
  page: Page,
  pathname: string,
  prepare?: (page: Page) => Promise<void>,
): Promise<Record<number, AxeViolation[]>> {
  const found: Record<number, AxeViolation[]> = {};
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${server.url}${pathname}`);
    if (prepare) await prepare(page);
    found[width] = await axeViolations(page);
    const name = `${pathname.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home'}${prepare ? '-prepared' : ''}`;
    await page.screenshot({ path: path.join(SCREENSHOTS, `a11y-${name}-${width}.png`) });
  }
  return found;
}

/** Several pages in turn, every one checked before the test says which fail. */
async function violationsByPage(page: Page, pathnames: readonly string[]): Promise<Record<string, Record<number, AxeViolation[]>>> {
  const found: Record<string, Record<number, AxeViolation[]>> = {};
  for (const pathname of pathnames) found[pathname] = await violationsAtEachWidth(page, pathname);
  return found;
}

const PASSES = Object.fromEntries(WIDTHS.map((width) => [width, []]));
const passing = (pathnames: readonly string[]) => Object.fromEntries(pathnames.map((pathname) => [pathname, PASSES]));

/*
 * axe-core over the pages people use every day, as an agent and as a customer, at desk and phone
 * widths: WCAG 2.1 A and AA (contrast, names of fields, links and buttons, landmarks, headings,
 * unique ids). One server, two browsers, pages in sequence.
 */
describe('the pages pass axe-core (WCAG 2.1 AA) at 1280 px and 360 px', () => {
  let agent: Browser;
  let customer: Browser;
  let ticketPath = '';
  let organizationPath = '';

  beforeAll(async () => {
    [agent, customer] = await Promise.all([openBrowser(), openBrowser()]);
    const [customerApi, agentApi] = await Promise.all([
      signInOverApi(server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password),
      signInOverApi(server.url, DEMO_AGENT.email, DEMO_AGENT.password),
    ]);
    // A ticket of the customer's with a conversation: a message each way and an internal note.
    const created = await callApi<{ id: number }>(server.url, customerApi, 'POST', '/tickets', {
      subject: 'Screen reader check',
      description: 'The printer says **no**.',
    });
    expect(created.status).toBe(201);
    for (const [session, body] of [
      [agentApi, { ticket: created.body.id, body: 'Have you tried turning it off and on again?' }],
      [agentApi, { ticket: created.body.id, body: 'Probably the toner.', internal: true }],
      [customerApi, { ticket: created.body.id, body: 'Yes, twice.' }],
    ] as const) {
      expect((await callApi(server.url, session, 'POST', '/comments', body)).status).toBe(201);
    }
    ticketPath = `/tickets/${created.body.id}`;
    const organizations = await callApi<{ items: { id: number }[] }>(server.url, agentApi, 'GET', '/organizations?limit=1');
    organizationPath = `/organizations/${organizations.body.items[0]!.id}`;
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(() => Promise.all([agent, customer].filter(Boolean).map((b) => b.close())));

  it('the sign-in page', async () => {
    expect(await violationsAtEachWidth(customer.page, '/sign-in')).toEqual(PASSES);
    await signIn(customer.page, server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    await signIn(agent.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
  });

  it("the agent's home, ticket list and queue", async () => {
    expect(await violationsByPage(agent.page, ['/', '/tickets', '/queue'])).toEqual(passing(['/', '/tickets', '/queue']));
  });

  it("a ticket's page with its conversation and reply box, as the agent and as the customer", async () => {
    const hasThread = async (page: Page) => {
      await page.getByRole('list', { name: 'Comments' }).waitFor();
      await page.getByRole('form', { name: 'Reply' }).waitFor();
    };
    const found = {
      agent: await violationsAtEachWidth(agent.page, ticketPath, hasThread),
      customer: await violationsAtEachWidth(customer.page, ticketPath, hasThread),
    };
    expect(found).toEqual({ agent: PASSES, customer: PASSES });
  });

  it('the new-ticket form, empty and after a submit with errors', async () => {
    const empty = await violationsAtEachWidth(agent.page, '/tickets/new');
    const submitWithErrors = async (page: Page) => {
      await page.getByLabel('Subject').fill('ab');
      await page.getByRole('button', { name: 'Create ticket' }).click();
      await page.getByText('Subject must be at least 3 characters.').first().waitFor();
    };
    const withErrors = await violationsAtEachWidth(agent.page, '/tickets/new', submitWithErrors);
    // As without JavaScript: the page's scripts are taken out (axe needs the browser's own to run),
    // so the form is posted and the server answers with the page and its errors.
    const noScript = await openBrowser();
    try {
      await signIn(noScript.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
      await noScript.page.route(`${server.url}/tickets/new`, async (route) => {
        const response = await route.fetch();
        await route.fulfill({ response, body: (await response.text()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '') });
      });
      const postWithErrors = async (page: Page) => {
        // The browser's own checks would stop the post: the server's answer is what is checked here.
        await page
          .locator('form')
          .filter({ has: page.getByLabel('Subject') })
          .evaluate((form) => ((form as HTMLFormElement).noValidate = true));
        await submitWithErrors(page);
      };
      const withServerErrors = await violationsAtEachWidth(noScript.page, '/tickets/new', postWithErrors);
      expect({ empty, withErrors, withServerErrors }).toEqual({ empty: PASSES, withErrors: PASSES, withServerErrors: PASSES });
    } finally {
      await noScript.close();
    }
  });

  it("an organization's page with its related records, and a filtered list", async () => {
    expect(await violationsByPage(agent.page, [organizationPath, '/tickets?state=open&sort=-priority'])).toEqual(
      passing([organizationPath, '/tickets?state=open&sort=-priority']),
    );
  });

  it("the customer's home and ticket list", async () => {
    expect(await violationsByPage(customer.page, ['/', '/tickets'])).toEqual(passing(['/', '/tickets']));
  });

  // /spec and /api/docs are for administrators (screens.documentation): checked as one in tests/browser/portal.test.ts.
  it('the account page', async () => {
    expect(await violationsByPage(agent.page, ['/account'])).toEqual(passing(['/account']));
  });
});
