import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signInOverApi, type ApiSession } from './api-session';
import { openBrowser, signIn, type Browser } from './browser';
import { ADMIN, DEMO_AGENT, DEMO_CUSTOMER } from './servers';

/*
 * The web door (scripts/server.mjs) as an outsider meets it: security headers on every response,
 * a Content-Security-Policy whose nonce is new per response and on every script Next.js renders,
 * no page that another site may frame, changes from other sites refused with the catalogue's 403
 * (never Next.js's 500), unknown server actions a 404 (tests/browser/hostile-requests.test.ts has
 * the rest of what no page sends), and HTTPS believed from a proxy only when
 * TRUST_PROXY says there is one (the helpdesk server runs with TRUST_PROXY=1, the CRM's without).
 */
const helpdesk = inject('helpdesk');
const crm = inject('crm');
const ROOT = path.resolve(__dirname, '../..');

/** The id of one of the build's server actions, by its exported name. */
function actionId(exportedName: string): string {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, '.next/server/server-reference-manifest.json'), 'utf8')) as {
    node: Record<string, { exportedName: string }>;
  };
  const found = Object.entries(manifest.node).find(([, entry]) => entry.exportedName === exportedName);
  if (!found) throw new Error(`no server action ${exportedName} in the build`);
  return found[0];
}

const nonceOf = (policy: string | null) => /script-src [^;]*'nonce-([^']+)'/.exec(policy ?? '')?.[1];

function expectSecurityHeaders(response: Response, where: string): void {
  const headers = response.headers;
  const policy = headers.get('content-security-policy') ?? '';
  expect(policy, where).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/]+=*' 'strict-dynamic'/);
  expect(policy, where).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  for (const directive of [
    "default-src 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "connect-src 'self'",
  ]) {
    expect(policy, where).toContain(directive);
  }
  expect(headers.get('x-frame-options'), where).toBe('DENY');
  expect(headers.get('x-content-type-options'), where).toBe('nosniff');
  expect(headers.get('referrer-policy'), where).toBe('same-origin');
  // Plain http, no trusted proxy saying otherwise.
  expect(headers.get('strict-transport-security'), where).toBeNull();
}

/** A server action called as Next.js's client router calls it (a fetch with `next-action`). */
function callAction(url: string, id: string, args: unknown[], headers: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'next-action': id, accept: 'text/x-component', 'content-type': 'text/plain;charset=UTF-8', ...headers },
    body: JSON.stringify(args),
    redirect: 'manual',
  });
}

async function expectProblem(response: Response, status: number, code: string, message: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ status, code });
  expect(body.detail).toBeTruthy();
  // The catalogue's words: the title of the code, as the API sends it.
  expect(body.title).toBe(message);
}

describe('security headers', () => {
  it('come with every kind of response: pages, route handlers, /api/v1, static files, refusals', async () => {
    const page = await fetch(`${helpdesk.url}/sign-in`);
    expectSecurityHeaders(page, '/sign-in');
    const html = await page.text();
    const script = /<script[^>]+src="(\/_next\/static\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    for (const address of ['/api/health', '/api/v1/openapi.json', '/api/v1/tickets', '/no-such-page', script!, '/icon.svg']) {
      const response = await fetch(`${helpdesk.url}${address}`);
      await response.arrayBuffer();
      expectSecurityHeaders(response, address);
    }
  });

  it('give each response a nonce of its own, which every script of the page carries', async () => {
    const first = await fetch(`${helpdesk.url}/sign-in`);
    const second = await fetch(`${helpdesk.url}/sign-in`);
    const [a, b] = [nonceOf(first.headers.get('content-security-policy')), nonceOf(second.headers.get('content-security-policy'))];
    expect(a).toBeTruthy();
    expect(b).toBeTruthy();
    expect(a).not.toBe(b);
    const scripts = (await first.text()).match(/<script\b[^>]*>/g) ?? [];
    // The framework's files and its inline payload scripts alike.
    expect(scripts.length).toBeGreaterThan(3);
    expect(scripts.some((tag) => !tag.includes(' src='))).toBe(true);
    for (const tag of scripts) expect(tag).toContain(`nonce="${a}"`);
  });

  it("replace a policy the client sends: the nonce is always the server's", async () => {
    const response = await fetch(`${helpdesk.url}/sign-in`, {
      headers: {
        'content-security-policy': "script-src 'nonce-Zm9yZ2Vk'",
        'content-security-policy-report-only': "script-src 'nonce-Zm9yZ2Vk'",
      },
    });
    const nonce = nonceOf(response.headers.get('content-security-policy'));
    const html = await response.text();
    expect(nonce).not.toBe('Zm9yZ2Vk');
    expect(html).not.toContain('Zm9yZ2Vk');
    expect(html).toContain(`nonce="${nonce}"`);
  });

  it("keep every page out of other sites' frames", async () => {
    const browser = await openBrowser();
    try {
      const { page } = browser;
      // Another origin (localhost is not 127.0.0.1) with a page that frames the sign-in form.
      const other = helpdesk.url.replace('127.0.0.1', 'localhost');
      await page.route(`${other}/framer`, (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<!DOCTYPE html><iframe src="${helpdesk.url}/sign-in" width="600" height="400"></iframe>`,
        }),
      );
      const framedForm = async () => {
        await page.goto(`${other}/framer`, { waitUntil: 'load' });
        return page.frameLocator('iframe').getByLabel('Email').count();
      };
      expect(await framedForm()).toBe(0);
      // The same page with the two headers taken off is framed: they are what keeps it out.
      await page.route(`${helpdesk.url}/sign-in`, async (route) => {
        const response = await route.fetch();
        const headers = { ...response.headers() };
        delete headers['content-security-policy'];
        delete headers['x-frame-options'];
        await route.fulfill({ response, headers });
      });
      await expect.poll(framedForm, { timeout: 10_000 }).toBe(1);
    } finally {
      await browser.close();
    }
  });
});

describe('changes from another site', () => {
  let admin: ApiSession;
  beforeAll(async () => {
    admin = await signInOverApi(helpdesk.url, ADMIN.email, ADMIN.password);
  });

  it("are a 403 in the catalogue's words for a server action, never a 500; the same call from the app works", async () => {
    const search = actionId('searchPaletteRecords');
    const ours = await callAction(`${helpdesk.url}/tickets`, search, ['a'], { cookie: admin.cookie, origin: helpdesk.url });
    expect(ours.status).toBe(200);
    expect(ours.headers.get('content-type')).toMatch(/text\/x-component/);
    await ours.arrayBuffer();
    const hostile: Record<string, string>[] = [
      { origin: 'http://evil.example' },
      { origin: helpdesk.url.replace('127.0.0.1', 'localhost') },
      { origin: 'null' },
      { origin: '::::' },
      { origin: helpdesk.url, 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of hostile) {
      const refused = await callAction(`${helpdesk.url}/tickets`, search, ['a'], { cookie: admin.cookie, ...headers });
      await expectProblem(refused, 403, 'FORBIDDEN', 'Forbidden');
    }
    // A caller that is no browser (neither header) goes on to the action, which checks the session as for anyone.
    const scripted = await callAction(`${helpdesk.url}/tickets`, search, ['a'], {});
    expect(scripted.status).toBe(200);
    await scripted.arrayBuffer();
  });

  it('change nothing: a cross-site sign-out leaves the session signed in', async () => {
    const refused = await callAction(`${helpdesk.url}/`, actionId('signOutAction'), [], {
      cookie: admin.cookie,
      origin: 'http://evil.example',
    });
    await expectProblem(refused, 403, 'FORBIDDEN', 'Forbidden');
    const me = await fetch(`${helpdesk.url}/api/v1/auth/me`, { headers: { cookie: admin.cookie } });
    expect(me.status).toBe(200);
  });

  it('are a 403 page when a browser posts a form from another site', async () => {
    const browser = await openBrowser();
    try {
      const { page } = browser;
      const other = helpdesk.url.replace('127.0.0.1', 'localhost');
      const form = `<!DOCTYPE html><form method="post" enctype="multipart/form-data" action="${helpdesk.url}/sign-in"><input type="hidden" name="$ACTION_ID_${actionId('signOutAction')}" value=""><button>Go</button></form>`;
      await page.route(`${other}/attack`, (route) => route.fulfill({ contentType: 'text/html', body: form }));
      await page.goto(`${other}/attack`);
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url() === `${helpdesk.url}/sign-in` && r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Go' }).click(),
      ]);
      expect(response.status()).toBe(403);
      expect(response.headers()['content-type']).toMatch(/^text\/html/);
      await page.getByRole('heading', { level: 1, name: 'Forbidden' }).waitFor();
      expect(await page.getByText('You are not allowed to do this.').count()).toBe(1);
    } finally {
      await browser.close();
    }
  });

  it('are refused by the API when made with the session cookie; reads and same-origin changes are not', async () => {
    const refused = await fetch(`${helpdesk.url}/api/v1/organizations`, {
      method: 'POST',
      headers: { cookie: admin.cookie, origin: 'http://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Cross-site ${Date.now()}`, tier: 'standard' }),
    });
    await expectProblem(refused, 403, 'FORBIDDEN', 'Forbidden');
    const read = await fetch(`${helpdesk.url}/api/v1/organizations?limit=1`, {
      headers: { cookie: admin.cookie, origin: 'http://evil.example' },
    });
    expect(read.status).toBe(200);
    const made = await fetch(`${helpdesk.url}/api/v1/organizations`, {
      method: 'POST',
      headers: { cookie: admin.cookie, origin: helpdesk.url, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Same-site ${Date.now()}`, tier: 'standard' }),
    });
    expect(made.status).toBe(201);
  });
});

describe('unknown server actions', () => {
  it("are a 404 in the catalogue's words that Next.js's client router still recognises", async () => {
    for (const id of [`7f${'0'.repeat(40)}`, 'hello', '']) {
      const response = await callAction(`${helpdesk.url}/sign-in`, id, [], { origin: helpdesk.url });
      await expectProblem(response, 404, 'NOT_FOUND', 'Not found');
      expect(response.headers.get('x-nextjs-action-not-found')).toBe('1');
    }
  });

  it('are the catalogue’s 404 page when a form posted without JavaScript names one', async () => {
    const form = new FormData();
    form.append(`$ACTION_ID_7f${'0'.repeat(40)}`, '');
    const response = await fetch(`${helpdesk.url}/sign-in`, {
      method: 'POST',
      body: form,
      headers: { origin: helpdesk.url, accept: 'text/html' },
      redirect: 'manual',
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('x-nextjs-action-not-found')).toBe('1');
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('<h1>Not found</h1>');
  });
});

describe('HTTPS', () => {
  async function signInCookie(url: string, headers: Record<string, string>): Promise<string> {
    const response = await fetch(`${url}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
    });
    expect(response.status).toBe(200);
    return response.headers.get('set-cookie') ?? '';
  }

  it('behind a trusted proxy (TRUST_PROXY=1) gives HSTS and Secure cookies', async () => {
    const page = await fetch(`${helpdesk.url}/sign-in`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(page.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(await signInCookie(helpdesk.url, { 'x-forwarded-proto': 'https' })).toMatch(/; Secure$/);
    expect(await signInCookie(helpdesk.url, {})).not.toMatch(/Secure/);
    // What the client wrote before the proxy's own entry is not believed.
    const spoofed = await fetch(`${helpdesk.url}/sign-in`, { headers: { 'x-forwarded-proto': 'https, http' } });
    expect(spoofed.headers.get('strict-transport-security')).toBeNull();
  });

  it('behind a trusted proxy, signing in on the page sets Secure cookies too', async () => {
    const browser = await openBrowser();
    try {
      const { page, context } = browser;
      await context.setExtraHTTPHeaders({ 'x-forwarded-proto': 'https' });
      const cookies: string[] = [];
      page.on('response', async (response) => {
        for (const header of await response.headersArray()) if (header.name.toLowerCase() === 'set-cookie') cookies.push(header.value);
      });
      // Filled by hand: where the browser goes next depends on whether it keeps a Secure cookie from http.
      await page.goto(`${helpdesk.url}/sign-in`);
      await page.getByLabel('Email').fill(ADMIN.email);
      await page.getByLabel('Password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => cookies.filter((c) => c.startsWith('nf_session=')).length, { timeout: 15_000 }).toBeGreaterThan(0);
      for (const cookie of cookies.filter((c) => /^nf_(session|theme)=/.test(c))) expect(cookie).toMatch(/;\s*secure/i);
    } finally {
      await browser.close();
    }
  });

  it('is not believed from X-Forwarded-* without a trusted proxy: no HSTS, no Secure cookie, not the forwarded host', async () => {
    const page = await fetch(`${crm.url}/sign-in`, { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' } });
    expect(page.headers.get('strict-transport-security')).toBeNull();
    expect(await page.text()).not.toContain('evil.example');
    expect(await signInCookie(crm.url, { 'x-forwarded-proto': 'https' })).not.toMatch(/Secure/);
    // With the proxy trusted, its forwarded host is the one the pages name.
    expect(await (await fetch(`${helpdesk.url}/sign-in`, { headers: { 'x-forwarded-host': 'desk.example' } })).text()).toContain(
      'desk.example',
    );
  });
});

/** Collects every CSP violation a page reports (event or console), across navigations. */
async function watchViolations(context: BrowserContext, page: Page): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding('nfReportViolation', (_source, text: string) => violations.push(text));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { nfReportViolation(text: string): void }).nfReportViolation(
        `${event.violatedDirective} ${event.blockedURI} at ${location.pathname}`,
      );
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply|connect|evaluate|frame)/i.test(message.text()))
      violations.push(`console: ${message.text()}`);
  });
  return violations;
}

/** Waits until React has hydrated the shell: the scripts ran under the policy. */
async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const button = document.querySelector('header button[aria-keyshortcuts]');
    return button !== null && Object.keys(button).some((key) => key.startsWith('__reactProps'));
  });
}

describe('the pages under the policy', () => {
  const roles = [
    {
      name: 'admin',
      user: ADMIN,
      visits: ['/', '/tickets', '/tickets/new', '/organizations', '/comments', '/spec', '/api/docs', '/admin/users', '/account', '/views'],
    },
    { name: 'agent', user: DEMO_AGENT, visits: ['/', '/tickets', '/account'] },
    { name: 'customer', user: DEMO_CUSTOMER, visits: ['/', '/tickets', '/tickets/new'] },
  ];
  const browsers: Browser[] = [];
  afterAll(() => Promise.all(browsers.map((b) => b.close())));

  for (const role of roles) {
    it(`work as ${role.name} with no violation: pages, client navigation, the palette, the live stream, a server action`, async () => {
      const browser = await openBrowser();
      browsers.push(browser);
      const { page, context } = browser;
      const violations = await watchViolations(context, page);
      await signIn(page, helpdesk.url, role.user.email, role.user.password);
      for (const address of role.visits) {
        const response = await page.goto(`${helpdesk.url}${address}`);
        expect(response?.status(), address).toBe(200);
        await hydrated(page);
      }
      // Client navigation: from the list to a record, without a new document.
      await page.goto(`${helpdesk.url}/tickets`);
      await hydrated(page);
      await page.evaluate(() => Object.assign(window, { nfSameDocument: true }));
      const live = page.waitForResponse((r) => r.url().includes('/api/live'), { timeout: 20_000 });
      await page.locator('tbody tr a[href^="/tickets/"]').first().click();
      await page.waitForURL(/\/tickets\/\d+$/);
      expect(await page.evaluate(() => (window as unknown as { nfSameDocument?: boolean }).nfSameDocument)).toBe(true);
      // The live stream of the record's page connects.
      expect((await live).status()).toBe(200);
      // The palette: a server action searches as one types.
      await page.keyboard.press('Control+k');
      const palette = page.getByRole('dialog', { name: 'Command palette' });
      await expect.poll(() => palette.isVisible(), { timeout: 10_000 }).toBe(true);
      const searched = page.waitForResponse((r) => r.request().method() === 'POST' && r.request().headers()['next-action'] !== undefined);
      await palette.getByRole('combobox').fill('the');
      expect((await searched).status()).toBe(200);
      await page.keyboard.press('Escape');
      expect(violations).toEqual([]);
    });
  }
});
