import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, fetchPage, signInOverApi, type ApiSession } from './api-session';
import { openBrowser, signIn, type Browser } from './browser';
import { startServer, stopServer, type RunningServer } from './servers';

/*
 * The publication example with its demo data (npm run ninefold -- seed), used as its staff would:
 * the seeder gave writers and editors a team, and the pages keep the spec's rules with its
 * messages: a writer offered only their team, an editor who may not publish their own article,
 * a second featured article in a section refused next to the field.
 */

const SPEC = 'examples/publication/ninefold.spec.ts';
const DEMO_PASSWORD = 'demo-password';
type Article = { id: number; author: number; team: number; section: string; state: string; featured: boolean };

describe('the publication, seeded, as its staff use it', () => {
  let server: RunningServer;
  let browser: Browser;
  let editor: ApiSession;

  const list = async (session: ApiSession, query: string): Promise<Article[]> => {
    const answer = await callApi<{ items: Article[] }>(server.url, session, 'GET', `/articles?${query}&limit=100`);
    expect(answer.status).toBe(200);
    return answer.body.items;
  };

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'nf-browser-publication-seeded-'));
    const root = path.resolve(__dirname, '../..');
    const env = { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, NINEFOLD_SPEC: SPEC };
    execFileSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'src/cli/main.ts', 'seed', '--count', '120'], {
      cwd: root,
      env,
      stdio: 'ignore',
    });
    server = await startServer('publication-seeded', { NINEFOLD_SPEC: SPEC }, dataDir);
    editor = await signInOverApi(server.url, 'editor1@demo.ninefold.test', DEMO_PASSWORD);
    browser = await openBrowser();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    if (server) await stopServer(server);
  });

  it("offers a writer only their own team's articles and team", async () => {
    const writer = await signInOverApi(server.url, 'writer1@demo.ninefold.test', DEMO_PASSWORD);
    const teams = (await callApi<{ items: { id: number; name: string }[] }>(server.url, writer, 'GET', '/teams')).body.items;
    expect(teams).toHaveLength(1);
    const unpublished = await list(writer, 'state=draft');
    expect(unpublished.length).toBeGreaterThan(0);
    for (const article of unpublished) expect(article.team).toBe(teams[0]!.id);
    const { page } = browser;
    await signIn(page, server.url, 'writer1@demo.ninefold.test', DEMO_PASSWORD);
    await page.goto(`${server.url}/articles/new`);
    // The team picker asks the server, which offers only the writer's own team.
    const team = page.getByRole('combobox', { name: 'Team', exact: true });
    await team.waitFor();
    await team.press('ArrowDown');
    const offered = page.getByRole('listbox', { name: 'Team: choices', exact: true }).getByRole('option');
    await offered.first().waitFor();
    expect(await offered.allTextContents()).toEqual([teams[0]!.name]);
    await page.context().clearCookies();
  });

  it('shows a writer the team of their own team’s articles, not of another team’s they see only as the public does', async () => {
    const writer = await signInOverApi(server.url, 'writer1@demo.ninefold.test', DEMO_PASSWORD);
    const published = await list(writer, 'state=published');
    const ours = published.find((a) => Object.hasOwn(a, 'team'));
    const theirs = published.find((a) => !Object.hasOwn(a, 'team'));
    expect(ours && theirs, 'the seeder publishes articles of several teams').toBeTruthy();
    // Seen through the public grant only: neither the team, `featured`, nor who created or changed it.
    const record = (await callApi<Record<string, unknown>>(server.url, writer, 'GET', `/articles/${theirs!.id}`)).body;
    expect(['team', 'featured', 'createdBy', 'updatedBy'].filter((name) => Object.hasOwn(record, name))).toEqual([]);
    const labels = async (id: number) => {
      const html = (await fetchPage(server.url, writer, `/articles/${id}`)).text;
      return [...html.matchAll(/<dt[^>]*>([^<]+)<\/dt>/g)].map((m) => m[1]!);
    };
    expect(await labels(ours!.id)).toEqual(expect.arrayContaining(['Team', 'Featured', 'Created by', 'Updated by']));
    expect((await labels(theirs!.id)).filter((label) => ['Team', 'Featured', 'Created by', 'Updated by'].includes(label))).toEqual([]);
    // Nor does the page's RSC payload carry the other team's id under the field's name.
    const rsc = (await fetchPage(server.url, writer, `/articles/${theirs!.id}`, true)).text;
    expect(rsc).not.toMatch(/"team":\d/);
    // A filter by a team hides the articles whose team the writer does not read: only their own team's come back.
    const byTeam = await list(writer, `state=published&team=${ours!.team}`);
    expect(byTeam.map((a) => a.id)).toContain(ours!.id);
    expect(byTeam.every((a) => a.team === ours!.team)).toBe(true);
  });

  it('shows an editor why they may not publish their own article, and publishes a writer’s', async () => {
    const team = (await callApi<{ items: { id: number }[] }>(server.url, editor, 'GET', '/teams')).body.items[0]!;
    const made = await callApi<{ id: number; version: number }>(server.url, editor, 'POST', '/articles', {
      title: 'The editor’s own column',
      section: 'culture',
      team: team.id,
    });
    expect(made.status).toBe(201);
    const own = (
      await callApi<{ id: number }>(server.url, editor, 'POST', `/articles/${made.body.id}/transitions/submit`, {
        version: made.body.version,
      })
    ).body;
    // Not a featured one: publishing it would make a second featured article in its section (refused).
    const others = (await list(editor, 'state=review')).find((a) => a.author !== editor.user.id && !a.featured);
    expect(others, 'the seeder leaves writers’ articles of the editor’s team in review').toBeDefined();
    const { page } = browser;
    await signIn(page, server.url, 'editor1@demo.ninefold.test', DEMO_PASSWORD);
    await page.goto(`${server.url}/articles/${own!.id}`);
    await expect.poll(() => page.getByRole('button', { name: 'Publish' }).isDisabled()).toBe(true);
    expect(await page.locator('#transition-publish-blocked').innerText()).toBe('Someone other than the author must publish it.');
    await page.goto(`${server.url}/articles/${others!.id}`);
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect
      .poll(async () => (await callApi<Article>(server.url, editor, 'GET', `/articles/${others!.id}`)).body.state, { timeout: 10_000 })
      .toBe('published');
  });

  it('refuses a second featured article in a section with the spec’s message next to the section', async () => {
    // Two sport articles of the editor's team, published by their colleague (the seeder pairs editors in teams).
    const colleague = await signInOverApi(server.url, 'editor2@demo.ninefold.test', DEMO_PASSWORD);
    const team = (await callApi<{ items: { id: number }[] }>(server.url, editor, 'GET', '/teams')).body.items[0]!;
    const publishedOnes: { id: number; version: number }[] = [];
    for (const title of ['Derby day in the rain', 'The marathon’s new route']) {
      const made = (
        await callApi<{ id: number; version: number }>(server.url, editor, 'POST', '/articles', { title, section: 'sport', team: team.id })
      ).body;
      const submitted = (
        await callApi<{ version: number }>(server.url, editor, 'POST', `/articles/${made.id}/transitions/submit`, { version: made.version })
      ).body;
      const answer = await callApi<{ id: number; version: number }>(
        server.url,
        colleague,
        'POST',
        `/articles/${made.id}/transitions/publish`,
        { version: submitted.version },
      );
      expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
      publishedOnes.push(answer.body);
    }
    // The section's featured article: this one, or the one there already (then this is refused).
    const [first, target] = publishedOnes;
    await callApi(server.url, editor, 'PATCH', `/articles/${first!.id}`, { featured: true, version: first!.version });
    const { page } = browser;
    await page.goto(`${server.url}/articles/${target!.id}/edit`);
    await page.waitForLoadState('networkidle');
    await page.getByRole('checkbox', { name: 'Featured' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    const message = 'Another published article is already featured in this section.';
    await expect.poll(() => page.locator('select[name=section]').getAttribute('aria-invalid'), { timeout: 10_000 }).toBe('true');
    const describedBy = (await page.locator('select[name=section]').getAttribute('aria-describedby')) ?? '';
    const near = await Promise.all(
      describedBy
        .split(/\s+/)
        .filter(Boolean)
        .map((id) => page.locator(`[id="${id}"]`).innerText()),
    );
    expect(near).toContain(message);
    expect((await callApi<Article>(server.url, editor, 'GET', `/articles/${target!.id}`)).body.featured).toBe(false);
  });
});
