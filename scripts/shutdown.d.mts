/** Types of ./shutdown.mjs (plain JavaScript, imported by ./server.mjs). */
import type { Server } from 'node:http';

export declare const SHUTDOWN_HOOKS: unique symbol;

export interface ShutdownOptions {
  /** How long requests in flight may take to finish (default SHUTDOWN_TIMEOUT_MS, else 10 s). */
  readonly drainMs?: number;
  /** The app's hooks (default: those registered on globalThis by src/server/shutdown.ts). */
  readonly hooks?: () => { endStreams?: () => void | Promise<void>; closeEngine?: () => Promise<void> };
  readonly exit?: (code: number) => void;
  readonly log?: (level: string, msg: string, fields?: Record<string, unknown>) => void;
}

export declare function drainTimeoutFromEnv(env?: Readonly<Record<string, string | undefined>>): number;

export declare function gracefulShutdown(
  server: Server,
  options?: ShutdownOptions,
): { shutdown(signal?: string): Promise<void>; inFlight(): number };

export declare function installGracefulShutdown(server: Server, options?: ShutdownOptions): (signal?: string) => Promise<void>;
