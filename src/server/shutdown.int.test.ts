import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gracefulShutdown, type ShutdownOptions } from '../../scripts/shutdown.mjs';
import { openEngine } from '@/engine/open-engine';
import { createActor, seedEmptyPglite, testModel } from '@testing/engine/ops';
import { forEachDatabase } from '@testing/engine/store';
import { withStore } from '@testing/engine/engine';

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.closeAllConnections();
});

/** A real HTTP server on a free port, with the shutdown sequence installed as server.mjs does. */
async function serve(handler: Handler, options: ShutdownOptions) {
  const server = http.createServer((req, res) => void handler(req, res));
  servers.push(server);
  const control = gracefulShutdown(server, options);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, port, ...control };
}

/** GET over a connection of its own; resolves with status and body, or rejects on a network error. */
function get(port: number, pathname: string, agent?: http.Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: pathname, agent: agent ?? false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** Resolves once the server has received a request for `pathname`. */
function arrival(server: http.Server, pathname: string): Promise<void> {
  return new Promise((resolve) => {
    const seen = (req: IncomingMessage) => {
      if (req.url !== pathname) return;
      server.off('request', seen);
      resolve();
    };
    server.on('request', seen);
  });
}

const silent = () => undefined;

/** The exit code the sequence ends with (Promise.withResolvers is not in Node 20). */
function exitCode(): { promise: Promise<number>; resolve: (code: number) => void } {
  let resolve: (code: number) => void = () => undefined;
  const promise = new Promise<number>((r) => (resolve = r));
  return { promise, resolve };
}

describe('graceful shutdown sequence (scripts/shutdown.mjs)', () => {
  it('stops accepting, ends live streams, lets the request in flight finish, then closes the engine, then exits 0', async () => {
    const steps: string[] = [];
    let endStream: (() => void) | null = null;
    const exited = exitCode();
    const { server, port, shutdown } = await serve(
      async (req, res) => {
        if (req.url === '/stream') {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(': live\n\n');
          endStream = () => res.end();
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 300));
        steps.push('slow request answered');
        res.end('done');
      },
      {
        drainMs: 60_000,
        hooks: () => ({
          endStreams: () => {
            steps.push('streams ended');
            endStream?.();
          },
          closeEngine: async () => {
            steps.push('engine closed');
          },
        }),
        exit: (code) => {
          steps.push(`exit ${code}`);
          exited.resolve(code);
        },
        log: silent,
      },
    );

    const streamArrived = arrival(server, '/stream');
    const stream = get(port, '/stream');
    await streamArrived;
    const slowArrived = arrival(server, '/slow');
    const slow = get(port, '/slow');
    await slowArrived;

    const done = shutdown('SIGTERM');
    // No longer accepting: a new connection is refused at once.
    await expect(get(port, '/late')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(await slow).toEqual({ status: 200, body: 'done' });
    expect((await stream).body).toBe(': live\n\n');
    await done;
    expect(await exited.promise).toBe(0);
    expect(steps).toEqual(['streams ended', 'slow request answered', 'engine closed', 'exit 0']);
  });

  it('does not wait for idle keep-alive connections', async () => {
    const exited = exitCode();
    const { port, shutdown } = await serve((_req, res) => void res.end('ok'), {
      drainMs: 60_000,
      hooks: () => ({}),
      exit: (code) => exited.resolve(code),
      log: silent,
    });
    const agent = new http.Agent({ keepAlive: true });
    expect(await get(port, '/', agent)).toEqual({ status: 200, body: 'ok' });
    // The connection stays open, idle; the shutdown must not wait the 60 s bound for it.
    await shutdown('SIGTERM');
    expect(await exited.promise).toBe(0);
    agent.destroy();
  });

  it('closes what is still in flight after the bound, and still closes the engine; a second signal cuts the wait short', async () => {
    const logged: string[] = [];
    const closed: string[] = [];
    const exits: number[] = [];
    const { server, port, shutdown } = await serve(() => undefined /* never answers */, {
      drainMs: 200,
      hooks: () => ({ closeEngine: async () => void closed.push('engine') }),
      exit: (code) => exits.push(code),
      log: (_level, msg) => logged.push(msg),
    });
    const arrived = arrival(server, '/hang');
    const hanging = get(port, '/hang');
    await arrived;
    await shutdown('SIGTERM');
    await expect(hanging).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(closed).toEqual(['engine']);
    expect(exits).toEqual([0]);
    expect(logged).toContain('shutdown: requests still in flight after the drain, closing them');

    const second = await serve(() => undefined, {
      drainMs: 60_000,
      hooks: () => ({ closeEngine: async () => void closed.push('second engine') }),
      exit: (code) => exits.push(code),
      log: silent,
    });
    const secondArrived = arrival(second.server, '/hang');
    const secondHanging = get(second.port, '/hang').catch((error: unknown) => error);
    await secondArrived;
    const first = second.shutdown('SIGTERM');
    await second.shutdown('SIGINT');
    await first;
    expect(await secondHanging).toMatchObject({ code: 'ECONNRESET' });
    expect(closed).toEqual(['engine', 'second engine']);
    expect(exits).toEqual([0, 0]);
  });

  it('exits 1 when closing the engine fails', async () => {
    const exited = exitCode();
    const { shutdown } = await serve((_req, res) => void res.end(), {
      hooks: () => ({
        closeEngine: () => Promise.reject(new Error('could not close')),
      }),
      exit: (code) => exited.resolve(code),
      log: silent,
    });
    await shutdown('SIGTERM');
    expect(await exited.promise).toBe(1);
  });
});

forEachDatabase('graceful shutdown with the engine', (database) => {
  it('lets a write in flight when the signal comes finish, closes the database after it, and the write is there after reopening', async () => {
    const options = await database.options();
    if (database.kind === 'pglite') await seedEmptyPglite(options.dataDir);
    const settings = {
      root: process.cwd(),
      specPath: 'unused',
      dataDir: options.dataDir ?? path.join(os.tmpdir(), 'nf-unused'),
      ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    };
    const engine = withStore(await openEngine(settings, { model: testModel }));
    const admin = await createActor(engine.store.db, ['admin'], 'Ada Admin');
    const exited = exitCode();
    let engineClosed = false;
    const { server, port, shutdown } = await serve(
      async (req, res) => {
        // The write starts after the signal: the engine must still be open for it.
        await new Promise((resolve) => setTimeout(resolve, 200));
        const names = ['Written While Closing A', 'Written While Closing B'];
        const records = await Promise.all(names.map((name) => engine.ops.create(admin, 'organization', { name })));
        res.end(JSON.stringify(records.map((r) => r.id)));
      },
      {
        drainMs: 30_000,
        hooks: () => ({
          closeEngine: async () => {
            await engine.close();
            engineClosed = true;
          },
        }),
        exit: (code) => exited.resolve(code),
        log: silent,
      },
    );
    const arrived = arrival(server, '/write');
    const write = get(port, '/write');
    await arrived;
    const done = shutdown('SIGTERM');
    const answer = await write;
    expect(answer.status).toBe(200);
    const ids = JSON.parse(answer.body) as number[];
    expect(ids).toHaveLength(2);
    await done;
    expect(await exited.promise).toBe(0);
    expect(engineClosed).toBe(true);

    const reopened = await openEngine(settings, { model: testModel });
    try {
      const found = await Promise.all(ids.map((id) => reopened.ops.get(admin, 'organization', id)));
      expect(found.map((view) => view.record.name)).toEqual(['Written While Closing A', 'Written While Closing B']);
    } finally {
      await reopened.close();
    }
  });
});
