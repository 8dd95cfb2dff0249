import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readBodyUpTo, replayedRequest } from './replayed-request.mjs';

/*
 * How scripts/server.mjs reads a server action's body before Next.js does, and hands Next.js a
 * request carrying what it read: the limit holds by Content-Length and while the body streams.
 */

let server: Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server that reads each request's body up to `limit`, and the body of each request sent to it. */
async function reading(
  limit: number,
  onRequest: (req: IncomingMessage, body: Buffer | null) => void,
): Promise<(body: Buffer, chunked?: boolean) => Promise<void>> {
  server = createServer(async (req, res) => {
    const body = await readBodyUpTo(req, limit);
    onRequest(req, body);
    res.end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return (body, chunked = false) =>
    new Promise((resolve) => {
      const sent = request(
        { host: '127.0.0.1', port, method: 'POST', headers: chunked ? {} : { 'content-length': String(body.length) } },
        (response) => {
          response.resume();
          response.on('end', () => resolve());
        },
      );
      sent.on('error', () => resolve());
      if (chunked) {
        for (let at = 0; at < body.length; at += 1024) sent.write(body.subarray(at, at + 1024));
        sent.end();
      } else sent.end(body);
    });
}

describe('a body read before Next.js', () => {
  it('is read whole within the limit, and refused past it: by its Content-Length unread, or while it streams', async () => {
    const seen: { complete: boolean; body: Buffer | null }[] = [];
    const send = await reading(4096, (req, body) => seen.push({ complete: req.complete, body }));
    await send(Buffer.alloc(4096, 'a'));
    await send(Buffer.alloc(4097, 'a'));
    await send(Buffer.alloc(10_000, 'a'), true);
    expect(seen[0]).toEqual({ complete: true, body: Buffer.alloc(4096, 'a') });
    // Refused by its Content-Length: nothing of it was read.
    expect(seen[1]).toEqual({ complete: false, body: null });
    expect(seen[2]!.body).toBeNull();
  });

  it('is handed on in a request that reads as the original did, with what was read as its body', async () => {
    let copy: IncomingMessage | null = null;
    const send = await reading(4096, (req, body) => {
      copy = replayedRequest(req, body, { headers: { 'x-added': 'yes', 'user-agent': null } });
    });
    await send(Buffer.from('[{"message":null},"$K1"]'));
    const replayed = copy! as IncomingMessage;
    expect(replayed.method).toBe('POST');
    expect(replayed.url).toBe('/');
    expect(replayed.headers['x-added']).toBe('yes');
    expect(replayed.headers['user-agent']).toBeUndefined();
    expect(replayed.headers['content-length']).toBe('24');
    expect(replayed.rawHeaders).toContain('x-added');
    const chunks: Buffer[] = [];
    for await (const chunk of replayed) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('[{"message":null},"$K1"]');
  });
});
