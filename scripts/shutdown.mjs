// Graceful shutdown of `npm start`'s server (scripts/server.mjs), in one place and in this order:
//
//   1. stop accepting connections, and close the keep-alive connections that are idle;
//   2. end the live event streams (the app's `endStreams` hook), which would otherwise hold the
//      drain open: browsers reconnect by themselves, to this server once restarted or to another;
//   3. wait for the requests in flight to finish, up to a bound (SHUTDOWN_TIMEOUT_MS, default 10 s);
//      a connection that carried one is closed as soon as it is idle again;
//   4. close what is still open (requests past the bound);
//   5. close the engine (the app's `closeEngine` hook): the PGlite data directory is released, the
//      PostgreSQL pool ended, after the last write it served;
//   6. exit 0 (1 when closing the engine failed).
//
// The app's hooks are registered on globalThis by src/server/shutdown.ts once the engine is open
// (the app is bundled by Next.js; this script is not). A second signal cuts step 3 short.
// Plain JavaScript: the server script imports it before anything is bundled.

/** Where the app registers its hooks: { endStreams?(): void | Promise<void>, closeEngine?(): Promise<void> }. */
export const SHUTDOWN_HOOKS = Symbol.for('ninefold.shutdownHooks');

const DEFAULT_DRAIN_MS = 10_000;

export function drainTimeoutFromEnv(env = process.env) {
  const ms = Number(env.SHUTDOWN_TIMEOUT_MS);
  return Number.isFinite(ms) && ms >= 0 ? ms : DEFAULT_DRAIN_MS;
}

function logLine(level, msg, fields = {}) {
  process.stdout.write(`${JSON.stringify({ level, msg, ...fields })}\n`);
}

/**
 * Counts the requests in flight on `server` and returns the function that shuts it down as above.
 * Call it before the server listens. `exit` is called with the exit code at the end.
 */
export function gracefulShutdown(
  server,
  {
    drainMs = drainTimeoutFromEnv(),
    hooks = () => globalThis[SHUTDOWN_HOOKS] ?? {},
    exit = (code) => process.exit(code),
    log = logLine,
  } = {},
) {
  let inFlight = 0;
  let draining = false;
  let drained = null;
  /** A second signal: stop waiting for the requests in flight. */
  let hurry = false;

  server.on('request', (req, res) => {
    inFlight++;
    // A request that arrives on a kept-alive connection during the drain is served, and its
    // connection closed after it.
    if (draining) res.shouldKeepAlive = false;
    res.once('close', () => {
      inFlight--;
      if (!draining) return;
      server.closeIdleConnections();
      if (inFlight === 0) drained?.();
    });
  });

  let shutting = null;
  const shutdown = (signal = 'SIGTERM') => {
    if (shutting) {
      hurry = true;
      drained?.();
      return shutting;
    }
    shutting = (async () => {
      const started = Date.now();
      log('info', 'shutting down', { signal, inFlight, drainMs });
      draining = true;
      const closed = new Promise((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      try {
        await hooks().endStreams?.();
      } catch (error) {
        log('error', 'shutdown: ending live streams failed', { error: String(error) });
      }
      if (inFlight > 0 && !hurry) {
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, drainMs);
          drained = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      const unfinished = inFlight;
      if (unfinished > 0) log('warn', 'shutdown: requests still in flight after the drain, closing them', { inFlight: unfinished });
      server.closeAllConnections();
      await closed;
      let code = 0;
      try {
        await hooks().closeEngine?.();
      } catch (error) {
        code = 1;
        log('error', 'shutdown: closing the database failed', { error: String(error) });
      }
      log('info', 'shut down', { ms: Date.now() - started, unfinished });
      exit(code);
    })();
    return shutting;
  };
  return { shutdown, inFlight: () => inFlight };
}

/** SIGTERM and SIGINT shut `server` down gracefully; Next.js leaves them to us (NEXT_MANUAL_SIG_HANDLE). */
export function installGracefulShutdown(server, options) {
  const { shutdown } = gracefulShutdown(server, options);
  globalThis[SHUTDOWN_HOOKS] ??= {};
  // src/server/engine.ts closes the engine on signals itself unless this owner is present.
  globalThis[SHUTDOWN_HOOKS].owner = true;
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  return shutdown;
}
