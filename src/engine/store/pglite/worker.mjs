// The embedded database, off the thread that renders pages. Plain ESM JavaScript on purpose: it
// is started by absolute path from node_modules-resolving Node, never bundled by Next.js.
//
// Protocol (see ./protocol.ts for the types):
//   in:  { id, type: 'query', sql, parameters }  |  { id, type: 'close' }
//   out: { type: 'ready' } | { type: 'failed', error } once at start,
//        then { id, ok: true, rows, command, affectedRows } | { id, ok: false, error }
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';

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

let db = null;

async function run(message) {
  if (message.type === 'query') {
    const result = await db.query(message.sql, message.parameters);
    return {
      rows: result.rows,
      command: result.command ?? null,
      affectedRows: result.affectedRows ?? null,
    };
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
  db = await PGlite.create({ dataDir: workerData.dataDir, parsers, serializers });
  parentPort.postMessage({ type: 'ready' });
} catch (error) {
  parentPort.postMessage({ type: 'failed', error: serializeError(error) });
  parentPort.close();
}
