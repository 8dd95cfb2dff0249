import { createNotifications } from './notify/notifications';
import { importBackup } from './backup/import';
import { createCalls } from './calls/calls';
import type { Engine } from './engine';
import { probeHealth } from './health';
import { createIdentity } from './identity/identity';
import { resolveLimits } from './limits';
import { createLiveFeed } from './live/feed';
import { createOps } from './ops/create-ops';
import type { AppModel } from './spec/model';
import type { Store } from './store/types';
import { createSavedViews } from './views/saved-views';
import { createScheduler } from './scheduler/scheduler';
import { createWebhookAdmin } from './notify/webhooks/admin';
import type { NotifyOptions } from './notify/dispatch';
import { webhookSubscribers } from './notify/webhooks/subscriber';
import { createFiles } from './files/files';
import { diskFileStore } from './files/disk-file-store';
import { postgresFileStore } from './files/postgres-file-store';

/** Where an engine keeps its store: off its type, so that doors cannot reach it (see testing/engine/engine.ts). */
export const ENGINE_STORE = Symbol('ninefold.engineStore');

/** The engine's parts over an open store whose schema matches the model (openEngine syncs it first). */
export function assembleEngine(
  model: AppModel,
  store: Store,
  options: { readonly schedulerSeconds?: number; readonly notify?: NotifyOptions; readonly filesDir?: string } = {},
): Engine {
  const ops = createOps({ model, db: store.db });
  const fileStore = options.filesDir ? diskFileStore(options.filesDir) : postgresFileStore(store.db);
  const files = createFiles(model, store.db, fileStore, ops);
  const scheduler = createScheduler(
    { model, db: store.db },
    {
      intervalSeconds: options.schedulerSeconds,
      // The spec's webhooks follow the outbox beside whatever the caller subscribes.
      notify: { ...options.notify, subscribers: [...(options.notify?.subscribers ?? []), ...webhookSubscribers({ model, db: store.db })] },
      files,
    },
  );
  let closing: Promise<void> | undefined;
  const engine: Engine = {
    model,
    databaseKind: store.kind,
    ops,
    files,
    identity: createIdentity(store.db, Object.keys(model.roles), resolveLimits(model), model),
    views: createSavedViews({ model, db: store.db, ops }),
    calls: createCalls(model, store.db),
    live: createLiveFeed(store),
    availability: store.availability,
    scheduler,
    webhooks: createWebhookAdmin(model, store.db, process.env),
    notifications: createNotifications(model, store.db, store),
    health: () => probeHealth(store, model.name),
    importBackup: (lines, options = {}) => importBackup(store.db, lines, { ...options, model }),
    // Loaded when asked (the CLI's `seed`): the demo values' generators and their word lists are
    // a megabyte that every server would otherwise load and compile before its first answer.
    seedDemo: async (count, progress) => (await import('./seed/seed-demo-data')).seedDemoData(model, store.db, count, progress, options),
    // The scheduler first: a run under way finishes its transaction before the database closes.
    close: () => (closing ??= scheduler.stop().then(() => store.close())),
  };
  Object.defineProperty(engine, ENGINE_STORE, { value: store });
  return engine;
}
