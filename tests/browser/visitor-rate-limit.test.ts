import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOverApi } from './api-session';
import { ADMIN, startServer, stopServer, type RunningServer } from './servers';

/*
 * Visitors' page requests are limited per address by `npm start`'s server before Next.js
 * (src/server/visitor-door.ts), on a spec whose limit is 5 a minute
 * (tests/browser/specs/visitors-limited.spec.ts): the sixth anonymous page request is refused,
 * with a page for a browser and problem+json for a script; signed-in users, the API's own
 * counters and health are untouched.
 */
describe('visitors’ page requests limited per address', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer('visitors-limited', {
      NINEFOLD_SPEC: 'tests/browser/specs/visitors-limited.spec.ts',
      NINEFOLD_ADMIN_EMAIL: ADMIN.email,
      NINEFOLD_ADMIN_PASSWORD: ADMIN.password,
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
});
