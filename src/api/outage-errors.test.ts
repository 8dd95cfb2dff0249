import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { replaceOutageErrors } from './outage-errors.mjs';

/*
 * The request that finds a database outage out is already in Next.js, which answers its page with
 * a 500. scripts/server.mjs holds such a 500 while the outage door has something to say, and sends
 * the door's 503 instead once the store knows the database is down. Here the "Next.js" is a handler
 * that answers 500 the way Next.js does (headers set, then the body streamed, compressed or not).
 */

const OUTAGE = {
  status: 503,
  headers: { 'retry-after': '5', 'content-type': 'text/html; charset=utf-8' },
  body: '<h1>Service unavailable</h1>',
};

let server: Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(handler: RequestListener): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A Next.js-like answer: its own headers, a status, then the body in pieces. */
function answer(res: Parameters<RequestListener>[1], status: number): void {
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('vary', 'rsc');
  res.statusCode = status;
  res.write('<html>Application error: a server-side exception');
  setTimeout(() => res.end(' (digest SERVICE_UNAVAILABLE)</html>'), 5);
}

describe('a 500 met by a database outage', () => {
  it('goes out as the outage door’s 503 once the probe under way says the database is down', async () => {
    let verdict: (value: typeof OUTAGE | null) => void = () => undefined;
    const url = await serve((req, res) => {
      res.setHeader('x-frame-options', 'DENY');
      replaceOutageErrors(res, () => new Promise((resolve) => (verdict = resolve)));
      answer(res, 500);
      setTimeout(() => verdict(OUTAGE), 30);
    });
    const response = await fetch(url);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    // The server's own headers stay; the failed page's go.
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('vary')).toBeNull();
    expect(await response.text()).toBe(OUTAGE.body);
  });

  it('goes out at once as the 503 when the database is already known to be down', async () => {
    const url = await serve((req, res) => {
      replaceOutageErrors(res, () => OUTAGE);
      answer(res, 500);
    });
    const response = await fetch(url);
    expect(response.status).toBe(503);
    expect(await response.text()).toBe(OUTAGE.body);
  });

  it('goes out as it was when the probe finds the database up, or the door has nothing to say', async () => {
    for (const outage of [() => Promise.resolve(null), () => null]) {
      const url = await serve((req, res) => {
        replaceOutageErrors(res, outage);
        answer(res, 500);
      });
      const response = await fetch(url);
      expect(response.status).toBe(500);
      expect(response.headers.get('vary')).toBe('rsc');
      expect(await response.text()).toBe('<html>Application error: a server-side exception (digest SERVICE_UNAVAILABLE)</html>');
      await new Promise<void>((resolve) => server!.close(() => resolve()));
      server = null;
    }
  });

  it('never touches any other answer', async () => {
    const asked: number[] = [];
    const url = await serve((req, res) => {
      replaceOutageErrors(res, () => {
        asked.push(1);
        return OUTAGE;
      });
      answer(res, 200);
    });
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Application error');
    expect(asked).toEqual([]);
  });
});
