import type { Engine } from '@/engine/engine';
import type { LiveHub } from './live/hub';

/**
 * The app's part of a graceful shutdown. scripts/shutdown.mjs runs the sequence (stop accepting,
 * end live streams, drain the requests in flight, close the engine, exit) and calls these hooks,
 * found on globalThis because the app is bundled by Next.js and the server script is not.
 */
export const SHUTDOWN_HOOKS = Symbol.for('ninefold.shutdownHooks');

export interface ShutdownHooks {
  /** Set by scripts/shutdown.mjs: it owns SIGTERM/SIGINT, and closes the engine after the drain. */
  owner?: boolean;
  endStreams?: () => Promise<void>;
  closeEngine?: () => Promise<void>;
}

function hooks(): ShutdownHooks {
  const global = globalThis as Record<symbol, ShutdownHooks | undefined>;
  return (global[SHUTDOWN_HOOKS] ??= {});
}

/** Whether the server script drains and closes on signals (`npm start`); not under `next start` or `next dev`. */
export function shutdownOwned(): boolean {
  return hooks().owner === true;
}

/** The live hub, if this process started one (see ./live/process-hub.ts); never starts it. */
async function startedLiveHub(): Promise<LiveHub | null> {
  const holder = globalThis as typeof globalThis & { __ninefoldLiveHub?: Promise<LiveHub> };
  return holder.__ninefoldLiveHub ? holder.__ninefoldLiveHub.catch(() => null) : null;
}

export function registerShutdownHooks(engine: Pick<Engine, 'close'>): void {
  const registered = hooks();
  registered.endStreams = async () => {
    (await startedLiveHub())?.stop();
  };
  registered.closeEngine = () => engine.close();
}
