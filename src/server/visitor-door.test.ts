import { describe, expect, it } from 'vitest';
import { ledgerSpec } from '@testing/engine/call-door';
import { noticeBoardSpec } from '@testing/engine/public';
import { BUILT_IN_ERRORS } from '@/engine/errors/catalogue';
import { buildModel } from '@/engine/spec/build';
import type { RequestPlace } from '@/api/build-routes.mjs';
import type { OutageAnswer, OutageRequest } from './outage';
import { registerVisitorDoor, VISITOR_DOOR, visitorDoor, type SessionCheck, type VisitorDoor } from './visitor-door';

const LIMIT = 3;
const model = buildModel({ ...noticeBoardSpec, constants: { ...noticeBoardSpec.constants, apiRateLimitPerIpPerMinute: { value: LIMIT } } });
const { title, message } = BUILT_IN_ERRORS.RATE_LIMITED;

const request = (url: string, headers: OutageRequest['headers'] = {}, ip = '203.0.113.7'): OutageRequest => ({
  url,
  method: 'GET',
  headers: { 'x-ninefold-client-ip': ip, ...headers },
});

/** A door on a clock the test moves; sessions named in `live` are signed in. */
function door(live: readonly string[] = []) {
  const clock = { now: 1_000_000 };
  const checked: string[] = [];
  const isLive: SessionCheck = async (token) => {
    checked.push(token);
    return live.includes(token);
  };
  return { door: visitorDoor(model, isLive, () => clock.now)!, clock, checked };
}

/** Where scripts/server.mjs finds a request goes (its normalised path): a page unless said otherwise. */
const at = (r: OutageRequest, kind?: RequestPlace['kind']): RequestPlace => {
  const path = (r.url ?? '/').split('?')[0]!;
  return { path, kind: kind ?? (path === '/api/v1' || path.startsWith('/api/v1/') ? 'api' : 'page') };
};

/** The door's answer, awaited when it checks a session. */
const ask = async (d: VisitorDoor, r: OutageRequest, kind?: RequestPlace['kind']): Promise<OutageAnswer | null> => d(r, at(r, kind));

describe('the visitor door', () => {
  it('lets the limit through per address, then answers 429 with Retry-After and the RateLimit headers', async () => {
    const { door: d, clock } = door();
    for (let i = 0; i < LIMIT; i += 1) expect(await ask(d, request('/notices'))).toBeNull();
    // Another address has a window of its own.
    expect(await ask(d, request('/notices', {}, '198.51.100.1'))).toBeNull();
    clock.now += 18_000;
    const refused = (await ask(d, request('/notices', { accept: 'application/json' })))!;
    expect(refused.status).toBe(429);
    expect(refused.headers).toMatchObject({
      'retry-after': '42',
      'cache-control': 'no-store',
      'ratelimit-policy': `"visitor";q=${LIMIT};w=60`,
      ratelimit: '"visitor";r=0;t=42',
      'content-type': 'application/problem+json; charset=utf-8',
    });
    expect(JSON.parse(refused.body)).toEqual({
      type: 'https://ninefold.dev/problems/rate-limited',
      title,
      status: 429,
      detail: `Too many requests: at most ${LIMIT} a minute. Try again in 42 s.`,
      code: 'RATE_LIMITED',
    });
    // The window ends: the address starts afresh.
    clock.now += 42_000;
    expect(await ask(d, request('/notices'))).toBeNull();
  });

  it('gives a browser a small page in the catalogue’s words, with no script', async () => {
    const { door: d } = door();
    for (let i = 0; i < LIMIT; i += 1) await ask(d, request('/'));
    const page = (await ask(d, request('/notices/1', { accept: 'text/html,application/xhtml+xml' })))!;
    expect(page.status).toBe(429);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain(`<title>${title}</title>`);
    expect(page.body).toContain(`<h1>${title}</h1><p>${message}</p>`);
    expect(page.body).toContain('<meta http-equiv="refresh" content="60">');
    expect(page.body).not.toMatch(/<script/i);
    // A server action or a client-side navigation is a script's request, whatever it accepts.
    for (const headers of [
      { 'next-action': 'abc', accept: 'text/x-component' },
      { rsc: '1', accept: 'text/html' },
    ]) {
      expect((await ask(d, request('/messages/new', headers)))!.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    }
  });

  it('counts neither the API (it has its own limits), health nor the build’s files', async () => {
    const { door: d } = door();
    for (let i = 0; i < LIMIT * 3; i += 1) {
      for (const url of ['/api/v1/notices', '/api/v1']) expect(d(request(url), at(request(url)))).toBeNull();
      expect(d(request('/api/health'), at(request('/api/health'), 'route'))).toBeNull();
      for (const url of ['/_next/static/chunks/app.js', '/icon.svg?v=2']) expect(d(request(url), at(request(url), 'file'))).toBeNull();
    }
    expect(await ask(d, request('/notices'))).toBeNull();
  });

  it('counts an address that only looks like a build file: it renders a page', async () => {
    const { door: d } = door();
    for (const url of ['/_next/anything', '/notices/1/style.css', '/favicon.ico']) expect(await ask(d, request(url))).toBeNull();
    expect(await ask(d, request('/notices'))).toMatchObject({ status: 429 });
  });

  it('never counts a signed-in user, but counts a cookie that names no live session', async () => {
    const { door: d, checked } = door(['live-token']);
    for (let i = 0; i < LIMIT * 3; i += 1)
      expect(await ask(d, request('/notices', { cookie: 'theme=dark; nf_session=live-token' }))).toBeNull();
    expect(checked).toContain('live-token');
    for (let i = 0; i < LIMIT; i += 1) expect(await ask(d, request('/notices', { cookie: 'nf_session=made-up' }))).toBeNull();
    expect(await ask(d, request('/notices', { cookie: 'nf_session=made-up' }))).toMatchObject({ status: 429 });
    // Without a cookie the answer comes at once (no promise on the hot path).
    const answer = d(request('/notices'), at(request('/notices')));
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer).toMatchObject({ status: 429 });
  });

  it('lets a request through when the session cannot be checked', async () => {
    const d = visitorDoor(model, () => Promise.reject(new Error('database down')))!;
    for (let i = 0; i < LIMIT * 2; i += 1) expect(await ask(d, request('/notices', { cookie: 'nf_session=t' }))).toBeNull();
  });

  it('is not there when the spec lets no visitor in: nothing changes', () => {
    expect(visitorDoor(buildModel(ledgerSpec), async () => false)).toBeNull();
    const doors = globalThis as Record<symbol, unknown>;
    registerVisitorDoor({ model, identity: { actorForSession: async () => null } as never });
    expect(typeof doors[VISITOR_DOOR]).toBe('function');
    registerVisitorDoor({ model: buildModel(ledgerSpec), identity: { actorForSession: async () => null } as never });
    expect(doors[VISITOR_DOOR]).toBeUndefined();
  });
});
