import 'server-only';
import type { Engine } from '@/engine/engine';
import { openEngine } from '@/engine/open-engine';
import { settingsFromEnv } from '@/engine/settings';
import { registerActionArguments } from './actions/arguments';
import { registerImportDoor } from './csv/import-door';
import { registerFormPostLimit } from './form-post-limit';
import { registerOutageDoor } from './outage';
import { registerShutdownHooks, shutdownOwned } from './shutdown';
import { registerVisitorDoor } from './visitor-door';

/**
 * The one engine of this server process. Kept on globalThis so that module re-evaluation
 * (development reloads) never opens the embedded database twice.
 */
const holder = globalThis as typeof globalThis & { __ninefoldEngine?: Promise<Engine> };

export function getEngine(): Promise<Engine> {
  if (!holder.__ninefoldEngine) {
    const opening = openEngine(settingsFromEnv(process.env), { announceSetupCode: true });
    holder.__ninefoldEngine = opening;
    opening.then(closeOnSignals, () => {
      // A failed start must not be cached: the next request tries again and reports again.
      holder.__ninefoldEngine = undefined;
    });
  }
  return holder.__ninefoldEngine;
}

function closeOnSignals(engine: Engine): void {
  registerShutdownHooks(engine);
  registerOutageDoor(engine);
  registerVisitorDoor(engine);
  registerFormPostLimit(engine);
  registerActionArguments();
  registerImportDoor(engine);
  const close = (signal: NodeJS.Signals) => {
    // Under `npm start`, scripts/shutdown.mjs finishes the requests in flight first, then closes
    // the engine through the hook registered above.
    if (shutdownOwned()) return;
    engine.close().finally(() => process.kill(process.pid, signal));
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
}
