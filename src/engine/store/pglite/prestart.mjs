// Starts the embedded database's worker before Next.js has loaded, so that PGlite opens (~300 ms
// of WebAssembly start-up and PostgreSQL's own start) while Next.js prepares, instead of after the
// first request has reached the engine. Plain ESM JavaScript: scripts/server.mjs imports it by
// path, before anything is bundled. The engine's openStore() adopts the worker (see
// ./worker-client.ts), so there is still one PGlite per data directory and process.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/** Where prestarted workers wait for openStore(), shared with the bundled engine through globalThis. */
export const PRESTARTED = Symbol.for('ninefold.pglite.prestarted');

/** The same file and content as ../data-dir-lock.ts writes. */
const LOCK_FILE = 'ninefold.lock';

/** This process's pid, and its start time from /proc where there is one (see processStat in ../data-dir-lock.ts). */
function holderText() {
  try {
    const text = fs.readFileSync(`/proc/${process.pid}/stat`, 'utf8');
    const startTime = text.slice(text.lastIndexOf(')') + 2).split(' ')[19];
    if (startTime) return `${process.pid}\n${startTime}\n`;
  } catch {
    // Not Linux: the pid alone.
  }
  return `${process.pid}\n`;
}

/**
 * Starts PGlite on `dataDir` in a worker when that directory already holds a database and no
 * other live process has it locked; takes the lock for this process (openStore() keeps it).
 * Returns whether it started anything. Anything unusual (no database yet, DATABASE_URL set, a
 * lock held or stale) is left to openStore(), which reports or repairs it as it always did.
 */
export function prestartEmbeddedDatabase({ root, dataDir, env = process.env }) {
  if (env.DATABASE_URL) return false;
  const dir = path.resolve(root, dataDir ?? (env.DATA_DIR || '.data'));
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) return false;
  const registry = (globalThis[PRESTARTED] ??= new Map());
  if (registry.has(dir)) return false;
  try {
    const fd = fs.openSync(path.join(dir, LOCK_FILE), 'wx');
    try {
      fs.writeSync(fd, holderText());
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
  const worker = new Worker(path.join(root, 'src/engine/store/pglite/worker.mjs'), {
    workerData: { dataDir: dir },
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
  });
  // The first message says whether PGlite opened; kept until openStore() asks for it.
  const started = new Promise((resolve) => {
    const settle = (outcome) => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      resolve(outcome);
    };
    const onMessage = (message) => {
      if (!('id' in message)) settle({ message });
    };
    const onError = (error) => settle({ error });
    const onExit = (code) => settle({ exitCode: code });
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
  registry.set(dir, { worker, started });
  return true;
}
