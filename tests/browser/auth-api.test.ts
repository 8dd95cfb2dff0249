import { describe, expect, inject, it } from 'vitest';
import { sendBodyAfterAnswer } from './late-body';
import { ADMIN } from './servers';

const server = inject('helpdesk');
const seedServer = inject('seed');

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

    const page = await fetch(`${server.url}/tickets`, { headers: { cookie: cookie.split(';')[0]! }, redirect: 'manual' });
    expect(page.status).toBe(200);

    // A change made with the session cookie must say it comes from the application (CSRF).
    const crossSite = await fetch(`${server.url}/api/v1/auth/sign-out`, { method: 'POST', headers: { cookie: cookie.split(';')[0]! } });
    expect(crossSite.status).toBe(403);
    const out = await fetch(`${server.url}/api/v1/auth/sign-out`, {
      method: 'POST',
      headers: { cookie: cookie.split(';')[0]!, origin: server.url },
    });
    expect(out.status).toBe(200);
    const after = await fetch(`${server.url}/tickets`, { headers: { cookie: cookie.split(';')[0]! }, redirect: 'manual' });
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
    expect(await response.json()).toEqual({
      status: 'ok',
      database: 'pglite',
      spec: 'helpdesk',
      // This server's scheduler (automatic transitions): when it last looked, and what it left due.
      scheduler: expect.objectContaining({ running: true, intervalSeconds: 30, lastError: null }),
    });
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

  it('reads and throws away the rest of a body it refused, so a client still sending meets no reset and can ask again', async () => {
    // The door answers 413 on the declared length, before any of the body has arrived. Were the
    // connection closed under a client still sending, its writes would meet a reset (write EPIPE)
    // and, racing, the answer could be lost with them.
    const from = 'X-Forwarded-For: 192.0.2.20';
    const answers = await sendBodyAfterAnswer(
      server.url,
      `POST /api/v1/auth/sign-in HTTP/1.1\r\nContent-Type: application/json\r\n${from}`,
      8 * 1024 * 1024,
      `GET /api/v1/openapi.json HTTP/1.1\r\n${from}`,
    );
    expect(answers).toEqual(['HTTP/1.1 413 Payload Too Large', 'HTTP/1.1 200 OK']);
  });
});

describe('the client address behind the per-address limits', () => {
  /** What is left of the per-address budget after this request ("ip" policy of the RateLimit field). */
  const remaining = async (url: string, headers: Record<string, string>) => {
    const response = await fetch(`${url}/api/v1/openapi.json`, { headers });
    await response.arrayBuffer();
    const field = response.headers.get('ratelimit') ?? '';
    const match = /"ip";r=(\d+)/.exec(field);
    if (!match) throw new Error(`no per-address RateLimit item in "${field}"`);
    return { left: Number(match[1]), limit: Number(/"ip";q=(\d+)/.exec(response.headers.get('ratelimit-policy') ?? '')?.[1]) };
  };
  const unique = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}, 203.0.113.${Math.floor(Math.random() * 250) + 1}`;

  it('behind a trusted proxy (TRUST_PROXY=1) is the address that proxy appended to X-Forwarded-For', async () => {
    const address = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
    const first = await remaining(server.url, { 'x-forwarded-for': `spoofed-${Date.now()}, ${address}` });
    const second = await remaining(server.url, { 'x-forwarded-for': `spoofed-again-${Date.now()}, ${address}` });
    // The same address both times, whatever the client wrote to the left of it.
    expect(second.left).toBe(first.left - 1);
  });

  it('without a trusted proxy is the connection itself: X-Forwarded-For and a forged address header change nothing', async () => {
    const first = await remaining(seedServer.url, { 'x-forwarded-for': unique(), 'x-ninefold-client-ip': '192.0.2.200' });
    const second = await remaining(seedServer.url, { 'x-forwarded-for': unique(), 'x-ninefold-client-ip': '192.0.2.201' });
    expect(first.left).toBeLessThan(first.limit);
    // One budget for both: another address would have started a fresh one.
    expect(second.left).toBeLessThan(first.left);
  });
});
