#!/usr/bin/env node
// `npm start`: builds the app when its sources changed since the last build, then serves it.
// The spec is loaded when the server starts (NINEFOLD_SPEC), so changing it needs a restart,
// not a rebuild. Each step says what it does (start-progress.mjs): the first start takes minutes.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWhenNeeded } from './build-stamp.mjs';
import { missingInstall } from './start-progress.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Output that nobody reads any more (the terminal or the supervisor that started this process
// went away) is not the server's failure: it keeps serving and drops its log lines. Unhandled,
// the first log line's EPIPE became an uncaught error whose own report failed the same way, in
// a loop that held a core and outlived SIGTERM.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
  });
console.log('Ninefold: checking the install...');
const missing = missingInstall(root);
if (missing) {
  console.error(missing);
  process.exit(1);
}
await buildWhenNeeded(root);

// Served in this process (scripts/server.mjs). On SIGTERM/SIGINT it finishes the requests in flight,
// then closes the database, then exits (scripts/shutdown.mjs); Next.js must leave those signals to it.
process.env.NODE_ENV = 'production';
process.env.NEXT_MANUAL_SIG_HANDLE = '1';
process.env.NEXT_TELEMETRY_DISABLED = '1';
process.env.NINEFOLD_ROOT = root;
// PGlite opens (~300 ms) while Next.js prepares, rather than after it; the engine adopts it.
const { prestartEmbeddedDatabase } = await import('../src/engine/store/pglite/prestart.mjs');
prestartEmbeddedDatabase({ root });
const { serve } = await import('./server.mjs');
console.log(
  `Ninefold: opening the ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded'} database and bringing its tables up to the spec...`,
);
try {
  await serve({ root, port: Number(process.env.PORT || 3000), hostname: process.env.HOSTNAME_BIND || undefined });
} catch (error) {
  // A setting or the port: said in one line, as the engine says a wrong spec.
  console.error(`Ninefold could not start:\n${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
