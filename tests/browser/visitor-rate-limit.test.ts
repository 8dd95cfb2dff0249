import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, signInOverApi } from './api-session';
import { sendBodyAfterAnswer } from './late-body';
import { sendRaw } from './raw-request';
import { ADMIN, startServer, stopServer, type RunningServer } from './servers';

/*
 * Visitors' page requests are limited per address by `npm start`'s server before Next.js
 * (src/server/visitor-door.ts), on a spec whose limit is 5 a minute
 * (tests/browser/specs/visitors-limited.spec.ts): the sixth anonymous page request is refused,
 * with a page for a browser and problem+json for a script; signed-in users, the API's own
 * counters and health are untouched. The door decides on the address as Next.js serves it
 * (normalised), so no way of writing one slips past, and only the build's own files are exempt.
 * The server trusts one proxy (TRUST_PROXY=1), so that each test has an address of its own.
 */
describe('visitors’ page requests limited per address', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer('visitors-limited', {
      NINEFOLD_SPEC: 'tests/browser/specs/visitors-limited.spec.ts',
      NINEFOLD_ADMIN_EMAIL: ADMIN.email,
      NINEFOLD_ADMIN_PASSWORD: ADMIN.password,
      TRUST_PROXY: '1',
    });
  }, 300_000);
  afterAll(async () => {
    if (server) await stopServer(server);
  });

  it('gives 429 to the sixth anonymous page request, a page to a browser and problem+json to a script', async () => {
    const html = { accept: 'text/html,application/xhtml+xml' };
    // Signed in first (the API is not counted here), so that the signed-in request below has its cookie.
    const admin = await signInOverApi(server.url, ADMIN.email, ADMIN.password);
    for (let i = 0; i < 5; i += 1) {
      const response = await fetch(`${server.url}/notices`, { headers: html, redirect: 'manual' });
      expect(response.status, `request ${i + 1}`).toBe(200);
      await response.text();
    }
    const refused = await fetch(`${server.url}/notices`, { headers: html, redirect: 'manual' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-policy')).toBe('"visitor";q=5;w=60');
    expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await refused.text()).toContain('<h1>Too many requests</h1>');

    const script = await fetch(`${server.url}/notices`, { headers: { accept: 'application/json' } });
    expect(script.status).toBe(429);
    expect(await script.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED' });

    // A signed-in user from the same address is never counted here; health is never counted.
    const signedIn = await fetch(`${server.url}/notices`, { headers: { ...html, cookie: admin.cookie }, redirect: 'manual' });
    expect(signedIn.status).toBe(200);
    await signedIn.text();
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it('lets a visitor past the limit who still sends a form’s body read the 429 and ask again on the same connection', async () => {
    const from = 'X-Forwarded-For: 198.51.100.61\r\nAccept: text/html';
    for (let i = 0; i < 5; i += 1) await (await fetch(`${server.url}/notices`, { headers: { 'x-forwarded-for': '198.51.100.61' } })).text();
    // Refused before the body is read; the rest is read and thrown away rather than reset under the client.
    const answers = await sendBodyAfterAnswer(
      server.url,
      `POST /messages/new HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\nOrigin: ${server.url}\r\n${from}`,
      4 * 1024 * 1024,
      `GET /notices HTTP/1.1\r\n${from}`,
    );
    expect(answers).toEqual(['HTTP/1.1 429 Too Many Requests', 'HTTP/1.1 429 Too Many Requests']);
  });

  it('counts every address Next.js serves as a page, however written; only the build’s own files are exempt', async () => {
    const from = (address: string) => ({ 'x-forwarded-for': address, accept: 'text/html' });
    const visitor = from('198.51.100.41');
    const admin = await signInOverApi(server.url, ADMIN.email, ADMIN.password);
    const messages = async () => (await callApi<{ items: unknown[] }>(server.url, admin, 'GET', '/messages?limit=100')).body.items.length;
    // The no-JavaScript form of a visitor's message, as another address reads it.
    const formPage = await sendRaw(server.url, '/messages/new', { headers: from('198.51.100.42') });
    expect(formPage.status).toBe(200);
    const script = /<script[^>]+src="(\/_next\/static\/[^"]+\.js)"/.exec(formPage.body)?.[1];
    expect(script).toBeTruthy();
    const form = new FormData();
    for (const [, name, value] of formPage.body.matchAll(/<input type="hidden" name="([^"]+)"(?: value="([^"]*)")?\/>/g))
      form.append(name!, (value ?? '').replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
    form.append('subject', 'Sent past the limit');
    const encoded = new Request(server.url, { method: 'POST', body: form });
    const post = {
      method: 'POST',
      headers: { ...visitor, origin: server.url, 'content-type': encoded.headers.get('content-type')! },
      body: Buffer.from(await encoded.arrayBuffer()),
    };
    const before = await messages();

    // Five addresses that only look like files, or reach a page through the framework's prefix: each is a page request.
    for (const target of [
      '/notices/1/style.css',
      '/_next/anything',
      '/_next/static/chunks/nothing.js',
      '/favicon.ico',
      '/_next/%2e%2e/notices',
    ]) {
      const answer = await sendRaw(server.url, target, { headers: visitor });
      expect(answer.status, target).not.toBe(429);
    }
    for (const target of ['/_next/%2e%2e/notices', '/_next/%2E%2e/notices/1', '/%5Fnext/../notices', '/notices']) {
      expect((await sendRaw(server.url, target, { headers: visitor })).status, target).toBe(429);
    }
    const sent = await sendRaw(server.url, '/_next/%2e%2e/messages/new', post);
    expect(sent.status).toBe(429);
    expect(await messages()).toBe(before);
    // The build's own files and health are never counted.
    expect((await sendRaw(server.url, script!, { headers: visitor })).status).toBe(200);
    expect((await sendRaw(server.url, '/api/health', { headers: visitor })).status).toBe(200);
    // The same form from an address with allowance left is taken: the refusal was the limit's.
    const taken = await sendRaw(server.url, '/_next/%2e%2e/messages/new', {
      ...post,
      headers: { ...post.headers, 'x-forwarded-for': '198.51.100.43' },
    });
    expect(taken.status).toBe(303);
    expect(await messages()).toBe(before + 1);
  });
});
