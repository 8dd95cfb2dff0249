import 'server-only';
import type { Engine } from '@/engine/engine';
import { openEngine } from '@/engine/open-engine';
import { settingsFromEnv } from '@/engine/settings';

/**
 * The one engine of this server process. Kept on globalThis so that module re-evaluation
 * (development reloads) never opens the embedded database twice.
 */
const holder = globalThis as typeof globalThis & { __ninefoldEngine?: Promise<Engine> };

export function getEngine(): Promise<Engine> {
  if (!holder.__ninefoldEngine) {
    const opening = openEngine(settingsFromEnv(process.env));
    holder.__ninefoldEngine = opening;
    opening.then(closeOnSignals, () => {
      // A failed start must not be cached: the next request tries again and reports again.
      holder.__ninefoldEngine = undefined;
    });
  }
  return holder.__ninefoldEngine;
}

function closeOnSignals(engine: Engine): void {
  const close = (signal: NodeJS.Signals) => {
    engine.close().finally(() => process.kill(process.pid, signal));
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
}
