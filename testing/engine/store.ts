/**
 * Integration tests run the same suite on every database this machine offers: PGlite always,
 * PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set. Each suite gets fresh, empty
 * databases (a temporary directory, or a new `nf_test_<random>` database) that are removed after.
 *
 *   forEachDatabase('ops', (target) => {
 *     let store: Store;
 *     beforeAll(async () => { store = await target.openSynced(model); });
 *     it('lists', async () => { ... store.db ... });
 *   });
 *
 * Stores opened through the target are closed by the helper after the suite.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe } from 'vitest';
import type { AppModel } from '@/engine/spec/model';
import { openStore } from '@/engine/store/open-store';
import { syncSchema, type SyncOptions } from '@/engine/store/schema/sync';
import type { DatabaseKind, Store, StoreOptions } from '@/engine/store/types';

export function testDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.TEST_DATABASE_URL || env.DATABASE_URL || undefined;
}

/** The databases to test against: always 'pglite', plus 'postgres' when a URL is configured. */
export function databaseTargets(env: NodeJS.ProcessEnv = process.env): DatabaseKind[] {
  return testDatabaseUrl(env) ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestDatabase {
  readonly kind: DatabaseKind;
  /**
   * The options of this suite's database (created on first use). Opening them again after a
   * close reaches the same data, which is how restarts are tested.
   */
  options(): Promise<StoreOptions>;
  /** Opens a store on this suite's database; closed after the suite if the test did not. */
  open(): Promise<Store>;
  /** Opens a store and brings its schema in line with the model. */
  openSynced(model: AppModel, options?: SyncOptions): Promise<Store>;
  /** Options of another fresh, empty database of the same kind (also removed after the suite). */
  freshOptions(): Promise<StoreOptions>;
  /** Closes every store opened here and removes every database created here. */
  cleanup(): Promise<void>;
}

const randomSuffix = () => randomBytes(6).toString('hex');

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function withAdmin<T>(adminUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export function createTestDatabase(kind: DatabaseKind, env: NodeJS.ProcessEnv = process.env): TestDatabase {
  const adminUrl = testDatabaseUrl(env);
  if (kind === 'postgres' && !adminUrl) throw new Error('Set TEST_DATABASE_URL to test on PostgreSQL.');
  const stores = new Set<Store>();
  const dataDirs: string[] = [];
  const databases: string[] = [];
  let main: Promise<StoreOptions> | null = null;

  async function freshOptions(): Promise<StoreOptions> {
    if (kind === 'pglite') {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'nf-test-'));
      dataDirs.push(dataDir);
      return { dataDir };
    }
    const name = `nf_test_${randomSuffix()}`;
    await withAdmin(adminUrl!, (client) => client.query(`create database ${name}`));
    databases.push(name);
    return { databaseUrl: withDatabase(adminUrl!, name), dataDir: path.join(os.tmpdir(), 'nf-unused') };
  }

  const testDatabase: TestDatabase = {
    kind,
    options: () => (main ??= freshOptions()),
    async open() {
      const store = await openStore(await testDatabase.options());
      const close = store.close.bind(store);
      const tracked: Store = {
        ...store,
        close: async () => {
          stores.delete(tracked);
          await close();
        },
      };
      stores.add(tracked);
      return tracked;
    },
    async openSynced(model, options) {
      const store = await testDatabase.open();
      await syncSchema(store, model, options);
      return store;
    },
    freshOptions,
    async cleanup() {
      await Promise.allSettled([...stores].map((s) => s.close()));
      stores.clear();
      await Promise.all(dataDirs.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
      const names = databases.splice(0);
      if (names.length > 0) {
        await withAdmin(adminUrl!, async (client) => {
          for (const name of names) await client.query(`drop database if exists ${name} with (force)`);
        });
      }
      main = null;
    },
  };
  return testDatabase;
}

/** Declares the suite once per database target, as `describe('<name> [pglite]', ...)` and so on. */
export function forEachDatabase(name: string, suite: (database: TestDatabase) => void): void {
  for (const kind of databaseTargets()) {
    describe(`${name} [${kind}]`, () => {
      const database = createTestDatabase(kind);
      afterAll(() => database.cleanup());
      suite(database);
    });
  }
}
