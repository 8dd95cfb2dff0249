import path from 'node:path';
import { Kysely, type Dialect, type LogEvent } from 'kysely';
import { lockDataDir, type DataDirLock } from './data-dir-lock';
import { PGliteWorkerDialect } from './pglite/dialect';
import { PGliteWorker } from './pglite/worker-client';
import { createPostgresDialect } from './postgres';
import type { DatabaseKind, DynamicDatabase, Store, StoreOptions } from './types';

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

  if (options.databaseUrl) {
    const db = new Kysely<unknown>({ dialect: createPostgresDialect(options.databaseUrl), log }) as DynamicDatabase;
    return makeStore('postgres', db, statementCount, () => db.destroy());
  }

  const lock: DataDirLock = lockDataDir(options.dataDir);
  let worker: PGliteWorker;
  try {
    worker = await PGliteWorker.start(pgliteWorkerPath(), path.resolve(options.dataDir));
  } catch (error) {
    lock.release();
    throw error;
  }
  const dialect: Dialect = new PGliteWorkerDialect(worker);
  const db = new Kysely<unknown>({ dialect, log }) as DynamicDatabase;
  return makeStore('pglite', db, statementCount, async () => {
    try {
      await db.destroy();
      await worker.close();
    } finally {
      lock.release();
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
