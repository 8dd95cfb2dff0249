import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RequestPlace } from '@/api/build-routes.mjs';
import { replaceOutageErrors } from '@/api/outage-errors.mjs';
import { noticeBoardSpec } from '@testing/engine/public';
import type { TestEngine } from '@testing/engine/engine';
import { BUILT_IN_ERRORS } from '@/engine/errors/catalogue';
import { buildModel } from '@/engine/spec/build';
import { openUnreachableEngine } from '@testing/engine/store-outage';
import { forEachDatabase } from '@testing/engine/store';
import { OUTAGE_DOOR, registerOutageDoor, type OutageDoor } from './outage';

const model = buildModel(noticeBoardSpec);

/**
 * The first page request after the database became unreachable, on either database (PostgreSQL
 * through a cut proxy, PGlite with its worker ended). Nothing knows of the outage yet, so the
 * outage door lets it through; the page's first read (the session, as every page does) meets the
 * connection error and the page fails: a 500, as Next.js answers it. The server holds that 500
 * (src/api/outage-errors.mjs) and sends the outage door's 503 with Retry-After once the probe the
 * failed read started confirms the outage. The next request is answered by the door at once.
 */
forEachDatabase('the first page that meets a database outage', (database) => {
  let engine: TestEngine;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    engine = await openUnreachableEngine(database, model);
    registerOutageDoor(engine);
    const door = (globalThis as Record<symbol, OutageDoor>)[OUTAGE_DOOR]!;
    // The doors in the order scripts/server.mjs runs them, with a page in place of Next.js.
    server = createServer(async (req, res) => {
      const place: RequestPlace = { path: (req.url ?? '/').split('?')[0]!, kind: 'page' };
      const early = await door(req, place);
      if (early) {
        res.writeHead(early.status, early.headers);
        res.end(early.body);
        return;
      }
      replaceOutageErrors(res, () => door(req, place));
      try {
        await engine.identity.actorForSession('a-session-token');
        res.end('<h1>Notices</h1>');
      } catch {
        res.statusCode = 500;
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end('Application error: a server-side exception has occurred. Digest: SERVICE_UNAVAILABLE');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    delete (globalThis as Record<symbol, unknown>)[OUTAGE_DOOR];
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await engine.close();
  });

  it('answers 503 with Retry-After from the first request on, never a 500', async () => {
    expect(engine.store.availability.down).toBe(false);
    for (const attempt of ['first', 'second']) {
      const response = await fetch(`${url}/notices`, { headers: { accept: 'text/html' } });
      expect(response.status, attempt).toBe(503);
      expect(response.headers.get('retry-after'), attempt).toBe('5');
      expect(await response.text(), attempt).toContain(`<h1>${BUILT_IN_ERRORS.SERVICE_UNAVAILABLE.title}</h1>`);
    }
    expect(engine.store.availability.down).toBe(true);
  });
});
