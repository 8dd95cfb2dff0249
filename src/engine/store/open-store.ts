import path from 'node:path';
import { Kysely, type Dialect, type LogEvent } from 'kysely';
import { DatabaseAvailability } from './availability';
import { adoptDataDirLock, lockDataDir, type DataDirLock } from './data-dir-lock';
import { guardConnectionErrors } from './guarded-dialect';
import { PGliteWorkerDialect } from './pglite/dialect';
import { PGliteWorker, takePrestartedWorker } from './pglite/worker-client';
import { listenOnPostgres } from './pg-listener';
import { createPostgresDialect, probePostgres } from './postgres';
import type { DatabaseKind, DynamicDatabase, NotificationHandlers, Store, StoreOptions } from './types';
import { registerWriteClock, WriteClock } from './write-clock';

export function databaseKindFor(options: Pick<StoreOptions, 'databaseUrl'>): DatabaseKind {
  return options.databaseUrl ? 'postgres' : 'pglite';
}

/**
 * Where the PGlite worker script lives. Computed from the project root rather than
 * `import.meta.url`, because this module is also bundled by Next.js, which moves it.
 */
export function pgliteWorkerPath(root: string = process.env.NINEFOLD_ROOT ?? process.cwd()): string {
  return path.join(root, 'src/engine/store/pglite/worker.mjs');
}

/**
 * Opens the database: PostgreSQL through `pg` when `databaseUrl` is set, otherwise PGlite with
 * its files in `dataDir`, running in a worker thread and locked against a second process.
 * The schema is not touched here; see `syncSchema`.
 */
export async function openStore(options: StoreOptions): Promise<Store> {
  let statements = 0;
  const log = (_event: LogEvent) => {
    statements++;
  };
  const statementCount = () => statements;
  // Counts this process's writes, so that hot reads can be served from memory (see write-clock.ts).
  const clock = new WriteClock();
  const open = (dialect: Dialect, availability: DatabaseAvailability): DynamicDatabase => {
    // Connection errors become SERVICE_UNAVAILABLE below the clock, for every statement.
    const guarded = guardConnectionErrors(dialect, availability);
    const db = new Kysely<unknown>({ dialect: clock.dialect(guarded), log, plugins: [clock.plugin()] });
    registerWriteClock(db, clock);
    return db as DynamicDatabase;
  };

  if (options.databaseUrl) {
    const url = options.databaseUrl;
    const availability = new DatabaseAvailability(() => probePostgres(url));
    const db = open(createPostgresDialect(url), availability);
    return makeStore(
      'postgres',
      db,
      availability,
      statementCount,
      (channel, handlers) => listenOnPostgres(url, channel, handlers),
      () => db.destroy(),
    );
  }

  const dataDir = path.resolve(options.dataDir);
  // Started before Next.js loaded (./pglite/prestart.mjs), holding the lock for this process.
  let prestarted = takePrestartedWorker(dataDir);
  let lock: DataDirLock | null = prestarted ? adoptDataDirLock(dataDir) : null;
  if (prestarted && !lock) {
    await prestarted.worker.terminate();
    prestarted = null;
  }
  lock ??= lockDataDir(dataDir);
  let worker: PGliteWorker;
  try {
    worker = prestarted ? await PGliteWorker.adopt(prestarted, dataDir) : await PGliteWorker.start(pgliteWorkerPath(), dataDir);
  } catch (error) {
    lock.release();
    throw error;
  }
  // Nothing to reach over a network: the embedded database is down only when its worker died,
  // and stays so (the server needs a restart; /api/health says so).
  const availability = new DatabaseAvailability(() => worker.check());
  const db = open(new PGliteWorkerDialect(worker), availability);
  const held = lock;
  const listen = async (channel: string, handlers: NotificationHandlers) => {
    // Holding the only connection: no transaction is open while LISTEN runs (see worker.listen).
    await db.connection().execute(() => worker.listen(channel, handlers.onNotify));
    return () => worker.unlisten(channel);
  };
  const store = makeStore('pglite', db, availability, statementCount, listen, async () => {
    try {
      await db.destroy();
      await worker.close();
    } finally {
      held.release();
    }
  });
  Object.defineProperty(store, EMBEDDED_WORKER, { value: worker, enumerable: false });
  return store;
}

/** Where a PGlite store keeps its worker, for tests of a crashed worker (see ./testing-outage.ts). */
export const EMBEDDED_WORKER = Symbol('ninefold.embeddedWorker');

function makeStore(
  kind: DatabaseKind,
  db: DynamicDatabase,
  availability: DatabaseAvailability,
  statementCount: () => number,
  listen: Store['listen'],
  closeOnce: () => Promise<void>,
): Store {
  let closing: Promise<void> | null = null;
  const listening = new Set<() => Promise<void>>();
  return {
    kind,
    db,
    availability,
    statementCount,
    async listen(channel, handlers) {
      const stop = await listen(channel, handlers);
      const once = async () => {
        if (listening.delete(once)) await stop();
      };
      listening.add(once);
      return once;
    },
    close() {
      closing ??= (async () => {
        availability.stop();
        await Promise.allSettled([...listening].map((stop) => stop()));
        await closeOnce();
      })();
      return closing;
    },
  };
}
