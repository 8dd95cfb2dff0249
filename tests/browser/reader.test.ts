import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, signInOverApi, type ApiSession } from './api-session';
import { axeViolations } from './axe';
import { openBrowser, sidewaysScroll, type Browser } from './browser';
import { ADMIN, startServer, stopServer, type RunningServer } from './servers';

/*
 * Readers of the publication example (its `screens.presentation`): a visitor reads a front page
 * of the latest published articles and each article as an article, at its slug address, with a
 * page title and meta tags from the article, and an Atom feed; a draft is "not found" however it
 * is asked for; staff keep the back office.
 */

const SPEC = 'examples/publication/ninefold.spec.ts';
const EDITOR = { email: 'second-admin@example.com', password: 'admin-password-2' } as const;
const TEAM = 'Night Shift Desk';
const TITLE = 'Tides & <turns> at the harbour';
const SLUG = 'tides-turns-at-the-harbour';
const SUMMARY = 'The harbour master explains the new tide tables.';
const DRAFT = 'Embargoed ferry timetable';
const DRAFT_SLUG = 'embargoed-ferry-timetable';

describe('reader pages', () => {
  let server: RunningServer;
  let admin: ApiSession;
  let articleId: number;
  let draftId: number;
  let tagId: number;
  const browsers: Browser[] = [];

  beforeAll(async () => {
    // Two administrators, as public.test.ts makes them: an article is published by someone other than its author.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'nf-browser-reader-'));
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
    server = await startServer('reader', { NINEFOLD_SPEC: SPEC }, dataDir);
    admin = await signInOverApi(server.url, ADMIN.email, ADMIN.password);
    const editor = await signInOverApi(server.url, EDITOR.email, EDITOR.password);
    const call = async (session: ApiSession, method: string, address: string, body?: unknown) => {
      const answer = await callApi<{ id: number; version: number }>(server.url, session, method, address, body);
      expect(answer.status, `${method} ${address}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      return answer.body;
    };
    const team = await call(admin, 'POST', '/teams', { name: TEAM });
    tagId = (await call(admin, 'POST', '/tags', { name: 'Tides' })).id;
    const story = await call(admin, 'POST', '/articles', {
      title: TITLE,
      summary: SUMMARY,
      body: '## High water\n\nThe tables are **new** this year.',
      section: 'news',
      team: team.id,
      tags: [tagId],
    });
    const submitted = await call(admin, 'POST', `/articles/${story.id}/transitions/submit`, { version: story.version });
    await call(editor, 'POST', `/articles/${story.id}/transitions/publish`, { version: submitted.version });
    articleId = story.id;
    draftId = (await call(admin, 'POST', '/articles', { title: DRAFT, summary: 'Not yet.', section: 'news', team: team.id })).id;
  }, 300_000);
  afterAll(async () => {
    await Promise.all(browsers.map((b) => b.close()));
    if (server) await stopServer(server);
  });

  const browser = async (): Promise<Page> => {
    const opened = await openBrowser();
    browsers.push(opened);
    return opened.page;
  };

  it('shows a visitor a front page of published articles: headline link, summary and date, and the feed in its head', async () => {
    const page = await browser();
    await page.goto(`${server.url}/articles`);
    await page.getByRole('heading', { level: 1, name: 'Articles' }).waitFor();
    const item = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name: TITLE }) });
    expect(await item.getByRole('link', { name: TITLE }).getAttribute('href')).toBe(`/articles/${SLUG}`);
    expect(await item.textContent()).toContain(SUMMARY);
    expect(await item.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const html = await page.content();
    expect(html).not.toContain(DRAFT);
    expect(html).not.toContain(TEAM);
    // The back office's words are not the reader's.
    expect(await page.getByText('In review').count()).toBe(0);
    expect(await page.locator('table').count()).toBe(0);
    const feed = page.locator('head link[rel="alternate"][type="application/atom+xml"]');
    // Absolute, from the server's public address (a feed reader may fetch it from anywhere).
    expect(await feed.getAttribute('href')).toBe(`${server.url}/articles/feed.xml`);
  });

  it('reads an article at its slug: headline, byline, date, rendered body and tags; title and meta from it', async () => {
    const page = await browser();
    await page.goto(`${server.url}/articles/${SLUG}`);
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    expect(await page.title()).toBe(`${TITLE} · Newsroom`);
    const meta = (selector: string) => page.locator(`head ${selector}`).getAttribute('content');
    expect(await meta('meta[name="description"]')).toBe(SUMMARY);
    expect(await meta('meta[property="og:title"]')).toBe(TITLE);
    expect(await meta('meta[property="og:description"]')).toBe(SUMMARY);
    expect(await meta('meta[property="og:type"]')).toBe('article');
    // Absolute, on the address the request came to (no NINEFOLD_PUBLIC_URL here).
    const origin = new URL(server.url).origin;
    expect(await page.locator('head link[rel="canonical"]').getAttribute('href')).toBe(`${origin}/articles/${SLUG}`);
    expect(await meta('meta[property="og:url"]')).toBe(`${origin}/articles/${SLUG}`);
    const article = page.getByRole('article');
    expect(await article.textContent()).toContain('By ');
    expect(await article.locator('time').count()).toBe(1);
    expect(await article.locator('strong').textContent()).toBe('new');
    expect(await article.textContent()).not.toContain('## High water');
    const tag = page.getByRole('list', { name: 'Tags' }).getByRole('link', { name: 'Tides' });
    expect(await tag.getAttribute('href')).toBe(`/articles?tags=${tagId}`);
    await Promise.all([page.waitForURL((url) => url.searchParams.get('tags') === String(tagId)), tag.click()]);
    await page.getByRole('heading', { level: 1, name: 'Articles: Tides' }).waitFor();
    expect(await page.getByRole('link', { name: TITLE }).count()).toBe(1);
  });

  it('sends a reader who came by id to the slug address', async () => {
    const answer = await fetch(`${server.url}/articles/${articleId}`, { redirect: 'manual' });
    expect(answer.status).toBe(308);
    expect(new URL(answer.headers.get('location')!, server.url).pathname).toBe(`/articles/${SLUG}`);
  });

  it('answers "not found" for a draft, by slug and by id', async () => {
    for (const address of [`/articles/${DRAFT_SLUG}`, `/articles/${draftId}`]) {
      const answer = await fetch(`${server.url}${address}`, { redirect: 'manual' });
      expect(answer.status, address).toBe(404);
      expect(await answer.text(), address).not.toContain(DRAFT);
    }
  });

  it('serves an Atom feed of what the public reads, with absolute links and escaped titles', async () => {
    const answer = await fetch(`${server.url}/articles/feed.xml`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const xml = await answer.text();
    expect(xml).toContain('<title>Tides &amp; &lt;turns&gt; at the harbour</title>');
    expect(xml).not.toContain(DRAFT);
    expect(xml).not.toContain(TEAM);
    // The browser's own XML parser reads it as well-formed Atom.
    const page = await browser();
    await page.goto(`${server.url}/articles`);
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      const entry = [...doc.getElementsByTagName('entry')].find((e) => e.getElementsByTagName('title')[0]?.textContent?.includes('Tides'));
      return {
        error: doc.getElementsByTagName('parsererror').length,
        root: doc.documentElement.namespaceURI,
        title: entry?.getElementsByTagName('title')[0]?.textContent ?? null,
        link: entry?.getElementsByTagName('link')[0]?.getAttribute('href') ?? null,
      };
    }, xml);
    expect(parsed).toEqual({
      error: 0,
      root: 'http://www.w3.org/2005/Atom',
      title: TITLE,
      link: `${new URL(server.url).origin}/articles/${SLUG}`,
    });
  });

  it('keeps the back office for staff, who reach an article’s record from its slug address', async () => {
    const answer = await fetch(`${server.url}/articles/${SLUG}`, { headers: { cookie: admin.cookie }, redirect: 'manual' });
    expect(answer.status).toBe(307);
    expect(new URL(answer.headers.get('location')!, server.url).pathname).toBe(`/articles/${articleId}`);
    const list = await fetch(`${server.url}/articles`, { headers: { cookie: admin.cookie } });
    expect(await list.text()).toContain(DRAFT);
  });

  it('has no axe violations on the front page and an article, and nothing wider than a phone, at 1280 and 360 px', async () => {
    const page = await browser();
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
      for (const address of ['/articles', `/articles/${SLUG}`, `/articles?tags=${tagId}`]) {
        await page.goto(`${server.url}${address}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        expect(await axeViolations(page), `${address} at ${width}`).toEqual([]);
        expect(await sidewaysScroll(page), `${address} at ${width}`).toBe(0);
      }
    }
  });
});
