import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleApiRequest } from '@/api/handler';
import type { NinefoldError } from '../errors/ninefold-error';
import type { Change } from '../live/changes';
import { openEngine } from '../open-engine';
import { createActor, testModel } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';
import { DatabaseAvailability } from './availability';
import { guardConnectionErrors } from './guarded-dialect';
import { pgliteWorkerPath } from './open-store';
import { PGliteWorkerDialect } from './pglite/dialect';
import { PGliteWorker } from './pglite/worker-client';
import { createTestDatabase, testDatabaseUrl } from '@testing/engine/store';
import { TcpProxy } from '@testing/engine/store-proxy';
import { withStore, type TestEngine } from '@testing/engine/engine';

/** Generous: what must not happen is waiting for the operating system's TCP timeout (minutes). */
const FAIL_FAST_BOUND_MS = 15_000;

/** The promise's error, or a failure of the test when it resolves or takes longer than the bound. */
async function failure(promise: Promise<unknown>): Promise<NinefoldError> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${FAIL_FAST_BOUND_MS} ms`)), FAIL_FAST_BOUND_MS);
  });
  try {
    await Promise.race([promise, late]);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('still waiting')) throw error;
    return error as NinefoldError;
  } finally {
    clearTimeout(timer);
  }
  throw new Error('expected a failure');
}

async function until(what: string, condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const unavailable = { code: 'SERVICE_UNAVAILABLE', status: 503, retryAfterSeconds: 5 };

// PostgreSQL only: the outage is played by a proxy between the engine and the server.
if (testDatabaseUrl()) {
  describe('database outage and recovery [postgres]', () => {
    const database = createTestDatabase('postgres');
    let proxy: TcpProxy;
    let engine: TestEngine;
    let admin: Actor;
    const heard: Change[] = [];
    let resyncs = 0;

    beforeAll(async () => {
      const { databaseUrl } = await database.freshOptions();
      proxy = await TcpProxy.forUrl(databaseUrl!);
      engine = withStore(
        await openEngine(
          {
            root: process.cwd(),
            specPath: 'unused',
            dataDir: path.join(os.tmpdir(), 'nf-unused'),
            databaseUrl: proxy.rewrite(databaseUrl!),
          },
          { model: testModel },
        ),
      );
      admin = await createActor(engine.store.db, ['admin'], 'Ada Admin');
      await engine.live.subscribe({ onChange: (change) => heard.push(change), onResync: () => (resyncs += 1) });
    });
    afterAll(async () => {
      await engine?.close();
      await proxy?.close();
      await database.cleanup();
    });

    const heardInsertOf = (id: number) =>
      heard.some((c) => c.kind === 'records' && c.entity === 'organization' && c.op === 'insert' && (c.ids ?? []).includes(id));

    it('serves and hears changes before the outage', async () => {
      const org = await engine.ops.create(admin, 'organization', { name: 'Before Outage' });
      await until('the change before the outage', () => heardInsertOf(Number(org.id)));
      expect(engine.store.availability.down).toBe(false);
    });

    it('fails fast with SERVICE_UNAVAILABLE while the database cannot be reached, and does not crash mid-transaction', async () => {
      // A transaction holding a pooled connection, between two statements, when the network goes:
      // the connection's error must not end the process, and the next statement fails as unavailable.
      const inTransaction = failure(
        engine.store.db.transaction().execute(async (trx) => {
          await sql`select 1`.execute(trx);
          await proxy.cut();
          await new Promise((resolve) => setTimeout(resolve, 200));
          await sql`select 1`.execute(trx);
        }),
      );
      expect(await inTransaction).toMatchObject(unavailable);

      expect(await failure(engine.ops.list(admin, 'organization'))).toMatchObject(unavailable);
      expect(await failure(engine.ops.create(admin, 'organization', { name: 'During Outage' }))).toMatchObject(unavailable);
      expect(await failure(engine.identity.actorForSession('no-such-session-token'))).toMatchObject(unavailable);
      expect(await failure(sql`select 1`.execute(engine.store.db))).toMatchObject(unavailable);

      // The REST door: 503 problem+json with the catalogue's words and Retry-After (sign-in reads the database).
      const answer = await handleApiRequest(
        engine,
        new Request('http://desk.test/api/v1/auth/sign-in', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'someone@example.com', password: 'a password' }),
        }),
        { clientIp: '192.0.2.7', origin: 'http://desk.test' },
      );
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
      expect(await answer.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', title: 'Service unavailable', status: 503 });

      await engine.store.availability.probe();
      expect(engine.store.availability.down).toBe(true);
    });

    it('recovers when the database is back, with no restart: queries, writes and live changes', async () => {
      await proxy.restore();
      // The background probe notices by itself (every 2 s).
      await until('the database is seen as reachable again', () => !engine.store.availability.down);
      const page = await engine.ops.list(admin, 'organization');
      expect(page.rows.map((r) => r.name)).toContain('Before Outage');
      expect(page.rows.map((r) => r.name)).not.toContain('During Outage');

      // The LISTEN connection reconnects with backoff and says that changes may have been missed.
      await until('the live listener is back', () => resyncs > 0);
      const org = await engine.ops.create(admin, 'organization', { name: 'After Outage' });
      await until('the change after the outage', () => heardInsertOf(Number(org.id)));
    });
  });
}

// PostgreSQL only: a network that drops packets (a partition) raises no error; only waiting tells.
if (testDatabaseUrl()) {
  describe('a silent network to the database [postgres]', () => {
    const database = createTestDatabase('postgres');
    let proxy: TcpProxy;
    let engine: TestEngine;
    let admin: Actor;

    beforeAll(async () => {
      const { databaseUrl } = await database.freshOptions();
      proxy = await TcpProxy.forUrl(databaseUrl!);
      engine = withStore(
        await openEngine(
          {
            root: process.cwd(),
            specPath: 'unused',
            dataDir: path.join(os.tmpdir(), 'nf-unused'),
            databaseUrl: proxy.rewrite(databaseUrl!),
          },
          { model: testModel },
        ),
      );
      admin = await createActor(engine.store.db, ['admin'], 'Ada Admin');
    });
    afterAll(async () => {
      await proxy?.restore();
      await engine?.close();
      await proxy?.close();
      await database.cleanup();
    });

    it('answers SERVICE_UNAVAILABLE instead of waiting for the network, and carries on once it is back', async () => {
      await engine.ops.create(admin, 'organization', { name: 'Before Silence' });
      const inTransaction = failure(
        engine.store.db.transaction().execute(async (trx) => {
          await sql`select 1`.execute(trx);
          await proxy.cut('drop');
          await sql`select 1`.execute(trx);
        }),
      );
      expect(await inTransaction).toMatchObject(unavailable);
      expect(engine.store.availability.down).toBe(true);
      expect(await failure(engine.ops.list(admin, 'organization'))).toMatchObject(unavailable);
      expect(await failure(engine.ops.create(admin, 'organization', { name: 'During Silence' }))).toMatchObject(unavailable);

      await proxy.restore();
      await until('the database is seen as reachable again', () => !engine.store.availability.down);
      await engine.ops.create(admin, 'organization', { name: 'After Silence' });
      const names = (await engine.ops.list(admin, 'organization')).rows.map((r) => r.name);
      expect(names).toEqual(expect.arrayContaining(['Before Silence', 'After Silence']));
      expect(names).not.toContain('During Silence');
    });
  });
}

describe('a dead embedded database worker [pglite]', () => {
  let dataDir: string;
  let worker: PGliteWorker;
  let db: Kysely<unknown>;
  let availability: DatabaseAvailability;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'nf-test-'));
    worker = await PGliteWorker.start(pgliteWorkerPath(), dataDir);
    availability = new DatabaseAvailability(() => worker.check(), { log: () => undefined });
    db = new Kysely<unknown>({ dialect: guardConnectionErrors(new PGliteWorkerDialect(worker), availability) });
  });
  afterAll(async () => {
    availability.stop();
    await db.destroy().catch(() => undefined);
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('answers SERVICE_UNAVAILABLE once its worker thread is gone, for a query in flight and every one after', async () => {
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db);
    expect(rows).toEqual([{ one: 1 }]);
    // A transaction open when the thread dies: its statement is answered, not left hanging.
    const inTransaction = failure(
      db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await worker.terminate();
        await sql`select 1`.execute(trx);
      }),
    );
    expect(await inTransaction).toMatchObject(unavailable);
    expect(await failure(sql`select 1`.execute(db))).toMatchObject(unavailable);
    await availability.probe();
    expect(availability.down).toBe(true);
  });
});
