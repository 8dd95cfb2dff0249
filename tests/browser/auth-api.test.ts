import { describe, expect, inject, it } from 'vitest';
import { ADMIN } from './servers';

const server = inject('helpdesk');

describe('sign-in over the API', () => {
  it('answers 200 and sets an httpOnly session cookie for the right credentials', async () => {
    const response = await fetch(`${server.url}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
    });
    expect(response.status).toBe(200);
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^nf_session=[^;]+;/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=lax/i);
    const body = await response.json();
    expect(body.user.email).toBe(ADMIN.email);

    const page = await fetch(`${server.url}/tickets`, { headers: { cookie: cookie.split(';')[0] }, redirect: 'manual' });
    expect(page.status).toBe(200);

    // A change made with the session cookie must say it comes from the application (CSRF).
    const crossSite = await fetch(`${server.url}/api/v1/auth/sign-out`, { method: 'POST', headers: { cookie: cookie.split(';')[0] } });
    expect(crossSite.status).toBe(403);
    const out = await fetch(`${server.url}/api/v1/auth/sign-out`, { method: 'POST', headers: { cookie: cookie.split(';')[0], origin: server.url } });
    expect(out.status).toBe(200);
    const after = await fetch(`${server.url}/tickets`, { headers: { cookie: cookie.split(';')[0] }, redirect: 'manual' });
    expect(after.status).toBe(307);
    expect(after.headers.get('location')).toContain('/sign-in');
  });

  it('answers 401 problem+json for wrong credentials', async () => {
    const response = await fetch(`${server.url}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN.email, password: 'wrong password' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.headers.get('set-cookie')).toBeNull();
    const problem = await response.json();
    expect(problem).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });

  it('reports health with the database kind and the spec', async () => {
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', database: 'pglite', spec: 'helpdesk' });
  });

  it('sends anonymous visitors to the sign-in page', async () => {
    const response = await fetch(`${server.url}/tickets`, { redirect: 'manual' });
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toMatch(/\/sign-in\?next=%2Ftickets$/);
  });
});

describe("the REST API's own door (scripts/server.mjs)", () => {
  it('answers /api/v1 without going through Next.js, with bodies, HEAD and a body too large', async () => {
    // Next.js marks every answer it serves with `Vary: rsc, …`; the API door does not.
    const health = await fetch(`${server.url}/api/health`);
    expect(health.headers.get('vary') ?? '').toContain('rsc');
    const doc = await fetch(`${server.url}/api/v1/openapi.json`);
    expect(doc.status).toBe(200);
    expect(doc.headers.get('vary') ?? '').not.toContain('rsc');
    expect((await doc.json()).openapi).toMatch(/^3\./);

    const head = await fetch(`${server.url}/api/v1/openapi.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');

    const tooLarge = await fetch(`${server.url}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN.email, password: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(tooLarge.status).toBe(413);
    expect((await tooLarge.json()).code).toBe('PAYLOAD_TOO_LARGE');
  });
});
