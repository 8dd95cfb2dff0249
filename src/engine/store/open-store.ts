import path from 'node:path';
import { Kysely, type Dialect, type LogEvent } from 'kysely';
import { adoptDataDirLock, lockDataDir, type DataDirLock } from './data-dir-lock';
import { PGliteWorkerDialect } from './pglite/dialect';
import { PGliteWorker, takePrestartedWorker } from './pglite/worker-client';
import { createPostgresDialect } from './postgres';
import type { DatabaseKind, DynamicDatabase, Store, StoreOptions } from './types';
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
  const open = (dialect: Dialect): DynamicDatabase => {
    const db = new Kysely<unknown>({ dialect: clock.dialect(dialect), log, plugins: [clock.plugin()] });
    registerWriteClock(db, clock);
    return db as DynamicDatabase;
  };

  if (options.databaseUrl) {
    const db = open(createPostgresDialect(options.databaseUrl));
    return makeStore('postgres', db, statementCount, () => db.destroy());
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
  const db = open(new PGliteWorkerDialect(worker));
  const held = lock;
  return makeStore('pglite', db, statementCount, async () => {
    try {
      await db.destroy();
      await worker.close();
    } finally {
      held.release();
    }
  });
}

function makeStore(
  kind: DatabaseKind,
  db: DynamicDatabase,
  statementCount: () => number,
  closeOnce: () => Promise<void>,
): Store {
  let closing: Promise<void> | null = null;
  return {
    kind,
    db,
    statementCount,
    close() {
      closing ??= closeOnce();
      return closing;
    },
  };
}
