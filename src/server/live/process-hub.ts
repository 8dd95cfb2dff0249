import 'server-only';
import { getEngine } from '../engine';
import { LiveHub } from './hub';

/** Kept on globalThis, like the engine: one hub (and one LISTEN) per server process. */
const holder = globalThis as typeof globalThis & { __ninefoldLiveHub?: Promise<LiveHub> };

/** This process's live hub, listening to the database's changes from its first use. */
export function processLiveHub(): Promise<LiveHub> {
  if (!holder.__ninefoldLiveHub) {
    const starting = getEngine().then(async (engine) => {
      const hub = new LiveHub(engine);
      await hub.start();
      return hub;
    });
    holder.__ninefoldLiveHub = starting;
    // A failed start is not kept: the next stream tries again.
    starting.catch(() => {
      holder.__ninefoldLiveHub = undefined;
    });
  }
  return holder.__ninefoldLiveHub;
}
