import { describe, expect, it } from 'vitest';
import { BUILT_IN_ERRORS } from '@/engine/errors/catalogue';
import { OUTAGE_DOOR, outageAnswer, registerOutageDoor, type OutageDoor, type OutageRequest } from './outage';

const request = (url: string, headers: OutageRequest['headers'] = {}, complete = true): OutageRequest => ({ url, method: 'GET', headers, complete });
const { title, message } = BUILT_IN_ERRORS.SERVICE_UNAVAILABLE;

describe('the outage door', () => {
  it('answers a page with a 503 page in the catalogue’s words, Retry-After, no script, reloading itself', () => {
    const answer = outageAnswer(request('/tickets?state=open', { accept: 'text/html,application/xhtml+xml' }))!;
    expect(answer.status).toBe(503);
    expect(answer.headers).toMatchObject({ 'retry-after': '5', 'cache-control': 'no-store', 'content-type': 'text/html; charset=utf-8' });
    expect(answer.body).toContain(`<title>${title}</title>`);
    expect(answer.body).toContain(`<h1>${title}</h1><p>${message}</p>`);
    expect(answer.body).toContain('<meta http-equiv="refresh" content="5">');
    expect(answer.body).not.toMatch(/<script/i);
    // A page asked for by a client that accepts anything is a page too.
    expect(outageAnswer(request('/tickets', { accept: '*/*' }))!.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('answers the API, the live stream, client-side navigations and server actions with problem+json', () => {
    for (const asked of [
      request('/api/v1/tickets', { accept: 'application/json' }),
      request('/api/live', { accept: 'text/event-stream' }),
      request('/tickets', { rsc: '1', accept: '*/*' }),
      request('/tickets/new', { 'next-action': 'abc', accept: 'text/x-component' }),
      request('/tickets', { accept: 'application/json' }),
    ]) {
      const answer = outageAnswer(asked)!;
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

  it('closes the connection when the request’s body was not read', () => {
    expect(outageAnswer(request('/api/v1/tickets', {}, false))!.headers.connection).toBe('close');
    expect(outageAnswer(request('/api/v1/tickets', {}, true))!.headers.connection).toBeUndefined();
  });

  it('leaves health, static files and the build’s assets to their handlers', () => {
    for (const url of ['/api/health', '/_next/static/chunks/app.js', '/icon.svg', '/favicon.ico']) expect(outageAnswer(request(url))).toBeNull();
  });

  it('answers only while the store says the database is down', async () => {
    const availability: { down: boolean; checking: Promise<void> | null; probe(): Promise<void> } = { down: false, checking: null, probe: async () => undefined };
    registerOutageDoor({ store: { availability } as never });
    const door = (globalThis as Record<symbol, OutageDoor | undefined>)[OUTAGE_DOOR]!;
    expect(door(request('/tickets'))).toBeNull();
    availability.down = true;
    expect(await door(request('/tickets'))).toMatchObject({ status: 503 });
    delete (globalThis as Record<symbol, unknown>)[OUTAGE_DOOR];
  });

  it('lets a request wait for the verdict of a probe under way, and answers by it', async () => {
    const availability: { down: boolean; checking: Promise<void> | null; probe(): Promise<void> } = { down: false, checking: null, probe: async () => undefined };
    registerOutageDoor({ store: { availability } as never });
    const door = (globalThis as Record<symbol, OutageDoor | undefined>)[OUTAGE_DOOR]!;
    availability.checking = Promise.resolve().then(() => {
      availability.down = true;
    });
    expect(await door(request('/tickets'))).toMatchObject({ status: 503 });
    availability.down = false;
    availability.checking = Promise.resolve();
    expect(await door(request('/tickets'))).toBeNull();
    // Health and files never wait: they need no database, or report it themselves.
    availability.checking = new Promise(() => undefined);
    expect(door(request('/api/health'))).toBeNull();
    delete (globalThis as Record<symbol, unknown>)[OUTAGE_DOOR];
  });
});
