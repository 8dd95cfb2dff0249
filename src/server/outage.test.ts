import { describe, expect, it } from 'vitest';
import { BUILT_IN_ERRORS } from '@/engine/errors/catalogue';
import type { RequestPlace } from '@/api/build-routes.mjs';
import { OUTAGE_DOOR, outageAnswer, registerOutageDoor, type OutageDoor, type OutageRequest } from './outage';

const request = (url: string, headers: OutageRequest['headers'] = {}): OutageRequest => ({ url, method: 'GET', headers });
/** Where scripts/server.mjs finds a request goes: a page unless said otherwise. */
const at = (url: string, kind: RequestPlace['kind'] = url.startsWith('/api/v1') ? 'api' : 'page'): RequestPlace => ({
  path: url.split('?')[0]!,
  kind,
});
const { title, message } = BUILT_IN_ERRORS.SERVICE_UNAVAILABLE;

describe('the outage door', () => {
  it('answers a page with a 503 page in the catalogue’s words, Retry-After, no script, reloading itself', () => {
    const answer = outageAnswer(request('/tickets?state=open', { accept: 'text/html,application/xhtml+xml' }), at('/tickets'))!;
    expect(answer.status).toBe(503);
    expect(answer.headers).toMatchObject({ 'retry-after': '5', 'cache-control': 'no-store', 'content-type': 'text/html; charset=utf-8' });
    expect(answer.body).toContain(`<title>${title}</title>`);
    expect(answer.body).toContain(`<h1>${title}</h1><p>${message}</p>`);
    expect(answer.body).toContain('<meta http-equiv="refresh" content="5">');
    expect(answer.body).not.toMatch(/<script/i);
    // A page asked for by a client that accepts anything is a page too.
    expect(outageAnswer(request('/tickets', { accept: '*/*' }), at('/tickets'))!.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('answers the API, the live stream, client-side navigations and server actions with problem+json', () => {
    for (const asked of [
      request('/api/v1/tickets', { accept: 'application/json' }),
      request('/api/live', { accept: 'text/event-stream' }),
      request('/tickets', { rsc: '1', accept: '*/*' }),
      request('/tickets/new', { 'next-action': 'abc', accept: 'text/x-component' }),
      request('/tickets', { accept: 'application/json' }),
    ]) {
      const answer = outageAnswer(asked, at(asked.url!))!;
      expect(answer.status).toBe(503);
      expect(answer.headers).toMatchObject({ 'retry-after': '5', 'content-type': 'application/problem+json; charset=utf-8' });
      expect(JSON.parse(answer.body)).toEqual({
        type: 'https://ninefold.dev/problems/service-unavailable',
        title,
        status: 503,
        detail: message,
        code: 'SERVICE_UNAVAILABLE',
      });
    }
  });

  it('leaves health and the build’s files to their handlers', () => {
    expect(outageAnswer(request('/api/health'), at('/api/health', 'route'))).toBeNull();
    for (const url of ['/_next/static/chunks/app.js', '/icon.svg']) expect(outageAnswer(request(url), at(url, 'file'))).toBeNull();
  });

  it('answers an address that only looks like a file: it is a page (the 404 page) that needs the database', () => {
    for (const url of ['/_next/anything', '/tickets/1/style.css', '/favicon.ico'])
      expect(outageAnswer(request(url), at(url))).toMatchObject({ status: 503 });
  });

  it('answers only while the store says the database is down', async () => {
    const availability: { down: boolean; checking: Promise<void> | null; probe(): Promise<void> } = {
      down: false,
      checking: null,
      probe: async () => undefined,
    };
    registerOutageDoor({ availability });
    const door = (globalThis as Record<symbol, OutageDoor | undefined>)[OUTAGE_DOOR]!;
    expect(door(request('/tickets'), at('/tickets'))).toBeNull();
    availability.down = true;
    expect(await door(request('/tickets'), at('/tickets'))).toMatchObject({ status: 503 });
    delete (globalThis as Record<symbol, unknown>)[OUTAGE_DOOR];
  });

  it('lets a request wait for the verdict of a probe under way, and answers by it', async () => {
    const availability: { down: boolean; checking: Promise<void> | null; probe(): Promise<void> } = {
      down: false,
      checking: null,
      probe: async () => undefined,
    };
    registerOutageDoor({ availability });
    const door = (globalThis as Record<symbol, OutageDoor | undefined>)[OUTAGE_DOOR]!;
    availability.checking = Promise.resolve().then(() => {
      availability.down = true;
    });
    expect(await door(request('/tickets'), at('/tickets'))).toMatchObject({ status: 503 });
    availability.down = false;
    availability.checking = Promise.resolve();
    expect(await door(request('/tickets'), at('/tickets'))).toBeNull();
    // Health and files never wait: they need no database, or report it themselves.
    availability.checking = new Promise(() => undefined);
    expect(door(request('/api/health'), at('/api/health', 'route'))).toBeNull();
    delete (globalThis as Record<symbol, unknown>)[OUTAGE_DOOR];
  });
});
