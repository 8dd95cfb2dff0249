/**
 * Test helper: a store whose database cannot be reached any more, on either database. PostgreSQL
 * is reached through a TCP proxy that is then cut; PGlite's worker thread is ended, as a crash
 * would. Every statement on it then fails with SERVICE_UNAVAILABLE. Closing it closes the proxy.
 */
import { assembleEngine } from '@/engine/assemble-engine';
import { withStore, type TestEngine } from '@testing/engine/engine';
import { EMBEDDED_WORKER, openStore } from '@/engine/store/open-store';
import type { PGliteWorker } from '@/engine/store/pglite/worker-client';
import { syncSchema } from '@/engine/store/schema/sync';
import type { TestDatabase } from '@testing/engine/store';
import { TcpProxy } from '@testing/engine/store-proxy';
import type { Store } from '@/engine/store/types';
import type { AppModel } from '@/engine/spec/model';

export async function openUnreachableStore(database: TestDatabase, model: AppModel): Promise<Store> {
  const options = await database.freshOptions();
  if (!options.databaseUrl) {
    const store = await openStore(options);
    await syncSchema(store, model);
    await (store as unknown as { [EMBEDDED_WORKER]: PGliteWorker })[EMBEDDED_WORKER].terminate();
    return store;
  }
  const proxy = await TcpProxy.forUrl(options.databaseUrl);
  const store = await openStore({ ...options, databaseUrl: proxy.rewrite(options.databaseUrl) });
  await syncSchema(store, model);
  await proxy.cut();
  return {
    ...store,
    availability: store.availability,
    close: async () => {
      await store.close();
      await proxy.close();
    },
  };
}

/** An engine for `model` on such a store (the doors in front of it answer 503). */
export async function openUnreachableEngine(database: TestDatabase, model: AppModel): Promise<TestEngine> {
  return engineOnStore(await openUnreachableStore(database, model), model);
}

/** An engine as openEngine assembles it, on a store the test opened itself. */
export function engineOnStore(store: Store, model: AppModel): TestEngine {
  return withStore(assembleEngine(model, store));
}
