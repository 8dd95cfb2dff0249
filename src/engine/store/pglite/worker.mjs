// The embedded database, off the thread that renders pages. Plain ESM JavaScript on purpose: it
// is started by absolute path from node_modules-resolving Node, never bundled by Next.js.
//
// Protocol (see ./protocol.ts for the types):
//   in:  { id, type: 'query', sql, parameters }  |  { id, type: 'close' }  |  { id, type: 'listen' | 'unlisten', channel }
//   out: { type: 'ready' } | { type: 'failed', error } once at start,
//        then { id, ok: true, rows, command, affectedRows } | { id, ok: false, error },
//        and { type: 'notify', channel, payload } for each NOTIFY on a channel listened to
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';
// Equal keys in a GiST index, which the exclusion constraints of `exclusive` need
// (../schema/exclusive-constraints.ts creates the extension; loading it here only makes it available).
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';

// The same JS values as the `pg` driver is configured to return (see ../postgres.ts).
const identity = (value) => value;
const parsers = {
  [types.INT8]: (value) => Number(value),
  [types.NUMERIC]: identity,
  [types.DATE]: identity,
};

// Strings given for json/jsonb are taken as JSON text, as `pg` does; other values are encoded.
const encodeJson = (value) => (typeof value === 'string' ? value : JSON.stringify(value));
const serializers = {
  [types.JSON]: encodeJson,
  [types.JSONB]: encodeJson,
};

const ERROR_FIELDS = [
  'code',
  'severity',
  'detail',
  'hint',
  'position',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'routine',
];

function serializeError(error) {
  const out = { message: error instanceof Error ? error.message : String(error) };
  if (error && typeof error === 'object') {
    for (const field of ERROR_FIELDS) {
      const value = error[field];
      if (typeof value === 'string') out[field] = value;
    }
  }
  return out;
}

// PostgreSQL's own memory inside the WebAssembly heap. PGlite starts with shared_buffers=128MB
// (16,384 pages of 8 kB) and fills it as it reads, so an idle server at 10,000 tickets already held
// ~125 MB more resident memory than it does with 16MB. Pages that fall out of these buffers are read
// again from the data files, which the operating system keeps in its page cache: one read() of
// 8 kB from memory, not a disk seek. With 16MB the list, filter, search and deep-cursor queries
// at 100,000 tickets kept their latency (see the commit that set this). wal_buffers follows
// shared_buffers (1/32 of it, -1 = automatic). Durability settings are left as PGlite sets them.
const SHARED_BUFFERS = '16MB';
const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`];

let db = null;
/** Channel → PGlite's function that stops listening to it. */
const listening = new Map();

async function run(message) {
  if (message.type === 'query') {
    const result = await db.query(message.sql, message.parameters);
    return {
      rows: result.rows,
      command: result.command ?? null,
      affectedRows: result.affectedRows ?? null,
    };
  }
  if (message.type === 'listen') {
    if (!listening.has(message.channel)) {
      const channel = message.channel;
      listening.set(channel, await db.listen(channel, (payload) => parentPort.postMessage({ type: 'notify', channel, payload })));
    }
    return {};
  }
  if (message.type === 'unlisten') {
    const stop = listening.get(message.channel);
    listening.delete(message.channel);
    if (stop) await stop();
    return {};
  }
  if (message.type === 'close') {
    if (db && !db.closed) await db.close();
    return {};
  }
  throw new Error(`Unknown message type ${String(message.type)}`);
}

parentPort.on('message', (message) => {
  run(message).then(
    (result) => {
      parentPort.postMessage({ id: message.id, ok: true, ...result });
      if (message.type === 'close') parentPort.close();
    },
    (error) => parentPort.postMessage({ id: message.id, ok: false, error: serializeError(error) }),
  );
});

try {
  db = await PGlite.create({ dataDir: workerData.dataDir, parsers, serializers, startParams, extensions: { btree_gist } });
  parentPort.postMessage({ type: 'ready' });
} catch (error) {
  parentPort.postMessage({ type: 'failed', error: serializeError(error) });
  parentPort.close();
}
