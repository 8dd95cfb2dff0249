import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, fetchPage, signInOverApi, type ApiSession } from './api-session';
import { openBrowser, signIn, type Browser, sidewaysScroll } from './browser';
import { ADMIN, DEMO_CUSTOMER, startServer, stopServer, type RunningServer, DEMO_AGENT } from './servers';

const server = inject('helpdesk');
/** Screenshots to look at, outside the repository. */
const SCREENSHOTS = '/tmp/nf-routes-screenshots';

interface Ticket {
  readonly id: number;
  readonly state: string;
  readonly assignee: number | null;
  readonly slaDueAt: string | null;
  readonly organization: number | null;
}

/** Every ticket the session may list, through the REST API. */
async function allTickets(session: ApiSession): Promise<Ticket[]> {
  const found: Ticket[] = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const answer: { status: number; body: { items: Ticket[]; nextCursor: string | null } } = await callApi(
      server.url,
      session,
      'GET',
      `/tickets?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(answer.status).toBe(200);
    found.push(...answer.body.items);
    cursor = answer.body.nextCursor;
  }
  return found;
}

/** Oldest SLA due first, empty ones last, then by id: the keyset order of the queue. */
function byDue(a: Ticket, b: Ticket): number {
  if (a.slaDueAt !== b.slaDueAt) {
    if (a.slaDueAt === null) return 1;
    if (b.slaDueAt === null) return -1;
    return Date.parse(a.slaDueAt) - Date.parse(b.slaDueAt);
  }
  return a.id - b.id;
}

/** The ids of the tickets the page's table links to, in the order shown. */
async function listedIds(page: Page): Promise<number[]> {
  const hrefs = await page
    .locator('main table a[href^="/tickets/"]')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  return [...new Set(hrefs.map((h) => Number(/^\/tickets\/(\d+)$/.exec(h)?.[1])).filter((id) => Number.isInteger(id) && id > 0))];
}

const navigation = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/*
 * The helpdesk's custom routes: an agent starts from "My queue" in the navigation and finds their
 * own open and pending tickets, the SLA's oldest due first; a customer is refused the page and
 * never offered it; a parameter of the wrong type is "not found".
 */
describe('custom routes: My queue and the open tickets of an organization', () => {
  let agent: Browser;
  let customer: Browser;
  let sessions: { agent: ApiSession; customer: ApiSession };

  beforeAll(async () => {
    [agent, customer] = await Promise.all([openBrowser(), openBrowser()]);
    await signIn(agent.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
    await signIn(customer.page, server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    sessions = {
      agent: await signInOverApi(server.url, DEMO_AGENT.email, DEMO_AGENT.password),
      customer: await signInOverApi(server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password),
    };
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(() => Promise.all([agent, customer].filter(Boolean).map((b) => b.close())));

  it('an agent opens My queue from the navigation and sees only their open and pending tickets, oldest due first', async () => {
    const page = agent.page;
    await page.goto(`${server.url}/`);
    await Promise.all([page.waitForURL(`${server.url}/queue`), navigation(page).getByRole('link', { name: 'My queue' }).click()]);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('My queue');
    expect(await navigation(page).getByRole('link', { name: 'My queue' }).getAttribute('aria-current')).toBe('page');

    const expected = (await allTickets(sessions.agent))
      .filter((t) => t.assignee === sessions.agent.user.id && (t.state === 'open' || t.state === 'pending'))
      .sort(byDue)
      .map((t) => t.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(await listedIds(page)).toEqual(expected);
    expect(await page.title()).toContain('My queue');

    await page.screenshot({ path: `${SCREENSHOTS}/queue-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.reload();
    expect(await sidewaysScroll(page)).toBe(0);
    await page.screenshot({ path: `${SCREENSHOTS}/queue-360.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("keeps the list's sorting and filters on top of the route's own, at the route's address", async () => {
    const page = agent.page;
    await page.goto(`${server.url}/queue`);
    await Promise.all([
      page.waitForURL(/\/queue\?sort=-/),
      page
        .locator('main table thead')
        .getByRole('link', { name: /SLA due/ })
        .click(),
    ]);
    const descending = await listedIds(page);
    const expected = (await allTickets(sessions.agent))
      .filter((t) => t.assignee === sessions.agent.user.id && (t.state === 'open' || t.state === 'pending'))
      .sort(byDue)
      .map((t) => t.id);
    expect([...descending].sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));

    await page.goto(`${server.url}/queue?state=pending`);
    const pending = (await allTickets(sessions.agent))
      .filter((t) => t.assignee === sessions.agent.user.id && t.state === 'pending')
      .sort(byDue)
      .map((t) => t.id);
    expect(await listedIds(page)).toEqual(pending);
  });

  it('a customer is not offered My queue and gets the 403 page there', async () => {
    const page = customer.page;
    await page.goto(`${server.url}/`);
    await expect.poll(() => navigation(page).getByRole('link').allTextContents()).toContain('Tickets');
    expect(await navigation(page).getByRole('link').allTextContents()).not.toContain('My queue');
    const response = await page.goto(`${server.url}/queue`);
    expect(response?.status()).toBe(403);
    expect(await page.locator('main').textContent()).toContain('403');
    expect(await page.locator('main table').count()).toBe(0);
    expect((await fetchPage(server.url, sessions.customer, '/organizations/1/open')).status).toBe(403);
  });

  it('a signed-out visitor is sent to sign in and comes back to the route', async () => {
    const response = await fetch(`${server.url}/queue?state=open`, { redirect: 'manual' });
    expect([303, 307]).toContain(response.status);
    const location = new URL(response.headers.get('location') ?? '', server.url);
    expect(location.pathname).toBe('/sign-in');
    expect([...location.searchParams.values()].join(' ')).toContain('/queue?state=open');
  });

  it("filters an organization's open tickets by the address, and a parameter of the wrong type is not found", async () => {
    const tickets = await allTickets(sessions.agent);
    const organization = tickets.find((t) => t.organization !== null && t.state !== 'resolved' && t.state !== 'closed')!.organization!;
    const page = agent.page;
    const response = await page.goto(`${server.url}/organizations/${organization}/open`);
    expect(response?.status()).toBe(200);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Open tickets of an organization');
    const expected = tickets
      .filter((t) => t.organization === organization && t.state !== 'resolved' && t.state !== 'closed')
      .sort(byDue)
      .map((t) => t.id);
    expect(await listedIds(page)).toEqual(expected);

    for (const wrong of [
      '/organizations/acme/open',
      '/organizations/1.5/open',
      '/organizations/99999999999999999999/open',
      '/queue/x',
      '/organizations/1/opened',
    ]) {
      expect((await fetchPage(server.url, sessions.agent, wrong)).status, wrong).toBe(404);
    }
    // The record pages under the same first segment are still the entity's own.
    expect((await fetchPage(server.url, sessions.agent, `/organizations/${organization}`)).status).toBe(200);
    expect((await fetchPage(server.url, sessions.agent, `/organizations/${organization}/edit`)).status).not.toBe(404);
  });
});

/*
 * The other kinds of route, from a small spec of its own (tests/browser/specs/routes.spec.ts):
 * one record's page, a dashboard, a component supplied by the spec, text and boolean parameters.
 */
describe('custom routes of every kind', () => {
  let routes: RunningServer;
  let admin: Browser;
  let session: ApiSession;
  const notes: Record<string, number> = {};

  beforeAll(async () => {
    const env = {
      NINEFOLD_SPEC: 'tests/browser/specs/routes.spec.ts',
      NINEFOLD_ADMIN_EMAIL: ADMIN.email,
      NINEFOLD_ADMIN_PASSWORD: ADMIN.password,
    };
    routes = await startServer('routes', env);
    session = await signInOverApi(routes.url, ADMIN.email, ADMIN.password);
    for (const note of [
      { title: 'Alpha', tag: 'red', pinned: true },
      { title: 'Beta', tag: 'red', pinned: false },
      { title: 'Gamma', tag: 'red', pinned: true },
      { title: 'Delta', tag: 'blue green', pinned: true },
    ]) {
      const created = await callApi<{ id: number }>(routes.url, session, 'POST', '/notes', note);
      expect(created.status).toBe(201);
      notes[note.title] = created.body.id;
    }
    admin = await openBrowser();
    await signIn(admin.page, routes.url, ADMIN.email, ADMIN.password);
  }, 300_000);
  afterAll(async () => {
    await admin?.close();
    if (routes) await stopServer(routes);
  });

  const titles = (page: Page) => page.locator('main table tbody a[href^="/notes/"]').allTextContents();

  it('shows one record at an address of its own, and a missing one is not found', async () => {
    const page = admin.page;
    expect((await page.goto(`${routes.url}/notes/${notes.Beta}/page`))?.status()).toBe(200);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Beta');
    expect((await fetchPage(routes.url, session, '/notes/999999/page')).status).toBe(404);
    expect((await fetchPage(routes.url, session, '/notes/beta/page')).status).toBe(404);
  });

  it('types text and boolean parameters', async () => {
    const page = admin.page;
    await page.goto(`${routes.url}/tagged/red/true/notes`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Tagged notes');
    expect(await titles(page)).toEqual(['Alpha', 'Gamma']);
    await page.goto(`${routes.url}/tagged/red/false/notes`);
    expect(await titles(page)).toEqual(['Beta']);
    await page.goto(`${routes.url}/tagged/blue%20green/true/notes`);
    expect(await titles(page)).toEqual(['Delta']);
    expect((await fetchPage(routes.url, session, '/tagged/red/yes/notes')).status).toBe(404);
  });

  it('shows a dashboard and a component of the spec, both linked from the navigation', async () => {
    const page = admin.page;
    await page.goto(`${routes.url}/`);
    await Promise.all([page.waitForURL(`${routes.url}/board`), navigation(page).getByRole('link', { name: 'Board' }).click()]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Board');
    await expect.poll(() => page.getByRole('region', { name: 'Notes by pin' }).textContent()).toMatch(/3/);
    await page.screenshot({ path: `${SCREENSHOTS}/board-1280.png`, fullPage: true });

    await Promise.all([page.waitForURL(`${routes.url}/hello`), navigation(page).getByRole('link', { name: 'Hello' }).click()]);
    await expect.poll(() => page.getByTestId('hello').textContent()).toMatch(/^Hello .+, 4 notes are yours to read\.$/);
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await sidewaysScroll(page)).toBe(0);
    await page.screenshot({ path: `${SCREENSHOTS}/hello-360.png`, fullPage: true });
  });
});
