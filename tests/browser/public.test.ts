import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, signInOverApi, type ApiSession } from './api-session';
import { axeViolations } from './axe';
import { openBrowser, sidewaysScroll, type Browser } from './browser';
import { ADMIN, startServer, stopServer, type RunningServer } from './servers';

/*
 * Visitors who are not signed in, on the publication example (examples/publication): they read
 * published articles in a shell of their own (no account tools), never a draft nor a field the
 * public may not read (in the HTML or the RSC payload), send the contact form with and without
 * JavaScript, and are sent to sign in everywhere else.
 */

const SPEC = 'examples/publication/ninefold.spec.ts';
const EDITOR = { email: 'second-admin@example.com', password: 'admin-password-2' } as const;
const SCREENSHOTS = '/tmp/shots';
/** The team's name: hidden from the public, so it must appear in no public page. */
const TEAM = 'Backroom Desk Team';
const PUBLISHED = 'Harbour reopens after the storm';
const DRAFT = 'Budget leak under embargo';
/** Readers reach an article by its slug (the publication's `screens.presentation`): see reader.test.ts. */
const PUBLISHED_PATH = '/articles/harbour-reopens-after-the-storm';

/** A page fetched as a visitor with no cookie: the HTML, or with `rsc` the payload of a client-side navigation. */
async function visit(baseUrl: string, address: string, rsc = false): Promise<{ status: number; location: string | null; text: string }> {
  const headers: Record<string, string> = rsc ? { RSC: '1' } : {};
  let response = await fetch(`${baseUrl}${address}`, { headers, redirect: 'manual' });
  const location = response.headers.get('location');
  if (rsc && response.status === 307 && location && new URL(location, baseUrl).searchParams.has('_rsc')) {
    response = await fetch(new URL(location, baseUrl), { headers, redirect: 'manual' });
  }
  return { status: response.status, location: response.headers.get('location'), text: await response.text() };
}

describe('public visitors', () => {
  let server: RunningServer;
  let admin: ApiSession;
  let published: number;
  let draft: number;
  const browsers: Browser[] = [];

  beforeAll(async () => {
    // Two administrators made with the CLI, as a team would: an article is published by someone other than its author.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'nf-browser-publication-'));
    const root = path.resolve(__dirname, '../..');
    const env = { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, NINEFOLD_SPEC: SPEC };
    for (const user of [ADMIN, EDITOR]) {
      execFileSync(
        process.execPath,
        [
          path.join(root, 'node_modules/tsx/dist/cli.mjs'),
          'src/cli/main.ts',
          'user',
          'add',
          '--email',
          user.email,
          '--password',
          user.password,
          '--role',
          'admin',
        ],
        { cwd: root, env, stdio: 'ignore' },
      );
    }
    server = await startServer('publication', { NINEFOLD_SPEC: SPEC }, dataDir);
    admin = await signInOverApi(server.url, ADMIN.email, ADMIN.password);
    const editor = await signInOverApi(server.url, EDITOR.email, EDITOR.password);
    const call = async (session: ApiSession, method: string, address: string, body?: unknown) => {
      const answer = await callApi<{ id: number; version: number }>(server.url, session, method, address, body);
      expect(answer.status, `${method} ${address}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      return answer.body;
    };
    const team = await call(admin, 'POST', '/teams', { name: TEAM });
    const tag = await call(admin, 'POST', '/tags', { name: 'Weather' });
    const story = await call(admin, 'POST', '/articles', {
      title: PUBLISHED,
      body: 'The harbour is **open** again.',
      section: 'news',
      team: team.id,
      tags: [tag.id],
    });
    const submitted = await call(admin, 'POST', `/articles/${story.id}/transitions/submit`, { version: story.version });
    await call(editor, 'POST', `/articles/${story.id}/transitions/publish`, { version: submitted.version });
    published = story.id;
    draft = (await call(admin, 'POST', '/articles', { title: DRAFT, body: 'Not yet.', section: 'news', team: team.id })).id;
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 300_000);
  afterAll(async () => {
    await Promise.all(browsers.map((b) => b.close()));
    if (server) await stopServer(server);
  });

  const browser = async (options: { javaScriptEnabled?: boolean } = {}): Promise<Page> => {
    const opened = await openBrowser(options);
    browsers.push(opened);
    return opened.page;
  };

  it('lists only published articles, in the public shell, without sign-in', async () => {
    const list = await visit(server.url, '/articles');
    expect(list.status).toBe(200);
    expect(list.text).toContain(PUBLISHED);
    expect(list.text).not.toContain(DRAFT);
    expect(list.text).not.toContain(TEAM);
    expect(list.text).toContain('href="/sign-in?next=%2Farticles"');
    expect(list.text).not.toContain('Sign out');
    expect(list.text).not.toContain('href="/account"');
    expect(list.text).not.toContain('href="/articles/new"');
    expect(list.text).not.toContain('export.csv');
    // The contact form is in the public shell: the public may send enquiries, not list them.
    expect(list.text).toContain('href="/enquiries/new"');
    expect(list.text).not.toContain('href="/enquiries"');
    // The home page leads a visitor to what the public may open.
    const home = await visit(server.url, '/');
    expect(home.status).toBe(307);
    expect(home.location).toBe('/articles');
  });

  it("shows a published article's page with no hidden field, in the HTML or the RSC payload", async () => {
    for (const rsc of [false, true]) {
      const detail = await visit(server.url, PUBLISHED_PATH, rsc);
      expect(detail.status, `rsc: ${rsc}`).toBe(200);
      expect(detail.text).toContain(PUBLISHED);
      expect(detail.text, `rsc: ${rsc}`).not.toContain(TEAM);
      expect(detail.text, `rsc: ${rsc}`).not.toContain('Featured');
      expect(detail.text, `rsc: ${rsc}`).not.toContain('Sign out');
      expect(detail.text, `rsc: ${rsc}`).not.toContain('History');
      expect(detail.text, `rsc: ${rsc}`).not.toContain('Nothing for you to do here now.');
    }
  });

  it('answers "not found" for a draft or a missing article, which readers read as a publication', async () => {
    for (const address of [`/articles/${draft}`, '/articles/999999', '/articles/budget-leak-under-embargo']) {
      expect((await visit(server.url, address)).status, address).toBe(404);
    }
  });

  it('sends a visitor to sign in for the staff pages and whatever the public may not open', async () => {
    const cases: [string, string][] = [
      ['/admin/users', `/sign-in?next=${encodeURIComponent('/admin/users')}`],
      ['/teams', `/sign-in?next=${encodeURIComponent('/teams')}`],
      ['/enquiries', `/sign-in?next=${encodeURIComponent('/enquiries')}`],
      ['/articles/new', `/sign-in?next=${encodeURIComponent('/articles/new')}`],
      [`/articles/${published}/edit`, `/sign-in?next=${encodeURIComponent(`/articles/${published}/edit`)}`],
      ['/spec', `/sign-in?next=${encodeURIComponent('/spec')}`],
    ];
    for (const [address, signIn] of cases) {
      const answer = await visit(server.url, address);
      expect(answer.status, address).toBe(307);
      expect(answer.location, address).toBe(signIn);
    }
  });

  const sendEnquiry = async (page: Page, subject: string) => {
    await page.goto(`${server.url}/enquiries/new`);
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    await page.getByLabel('Subject').fill(subject);
    await page.getByLabel('Email').fill('reader@example.com');
    await page.getByLabel('Message', { exact: true }).fill('When does the harbour open on Sundays?');
    await Promise.all([
      page.waitForURL((url) => url.searchParams.get('sent') === '1'),
      page.getByRole('button', { name: 'Create enquiry' }).click(),
    ]);
    await page.getByText('Thank you, sent.').waitFor();
    const enquiries = await callApi<{ items: { subject: string; createdBy: number | null }[] }>(server.url, admin, 'GET', '/enquiries');
    expect(enquiries.body.items.find((e) => e.subject === subject)).toMatchObject({ createdBy: null });
  };

  it('sends the contact form without JavaScript', async () => {
    await sendEnquiry(await browser({ javaScriptEnabled: false }), 'Sunday opening (no script)');
  });

  it('sends the contact form with JavaScript', async () => {
    await sendEnquiry(await browser(), 'Sunday opening (script)');
  });

  it('has no axe violations on the public pages, and nothing wider than a phone, at 1280 and 360 px', async () => {
    const page = await browser();
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
      for (const [name, address] of [
        ['list', '/articles'],
        ['detail', PUBLISHED_PATH],
        ['contact', '/enquiries/new'],
        ['sign-in', '/sign-in'],
      ] as const) {
        await page.goto(`${server.url}${address}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        expect(await axeViolations(page), `${address} at ${width}`).toEqual([]);
        expect(await sidewaysScroll(page), `${address} at ${width}`).toBe(0);
        await page.screenshot({ path: `${SCREENSHOTS}/public-${name}-${width}.png`, fullPage: true });
      }
    }
  });

  it('keeps the signed-in shell for users who signed in', async () => {
    const page = await browser();
    await page
      .context()
      .addCookies([{ name: admin.cookie.split('=')[0]!, value: admin.cookie.split('=').slice(1).join('='), url: server.url }]);
    await page.goto(`${server.url}/articles`);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await page.getByText(DRAFT).count()).toBeGreaterThan(0);
  });
});
