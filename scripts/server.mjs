// The HTTP server of `npm start`: Next.js in this process, with the REST API's own door in front.
// /api/v1 goes straight to the framework-free API handler that the app registers once its engine
// is open (src/server/api-door.ts); every other request, and /api/v1 before the door is
// registered, goes to Next.js.
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import next from 'next';
import { CLIENT_IP_HEADER, clientAddress, trustedProxyHops } from '../src/api/client-address.mjs';

const API_DOOR = Symbol.for('ninefold.apiDoor');
const API_PREFIX = '/api/v1/';

/** The Node request as a web Request (the API handler's input); the body is streamed, not buffered. */
function toWebRequest(req) {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const url = `http://${req.headers.host ?? 'localhost'}${req.url}`;
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(url, { method: req.method, headers, ...(hasBody ? { body: Readable.toWeb(req), duplex: 'half' } : {}) });
}

async function writeWebResponse(response, req, res) {
  const headers = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  const body = req.method === 'HEAD' || response.body === null ? null : Buffer.from(await response.arrayBuffer());
  if (body !== null && headers['content-length'] === undefined) headers['content-length'] = String(body.length);
  // Answered before the request's body was read to its end (413, or a refusal before reading it):
  // the rest of that body is still on the wire, so the connection cannot carry another request.
  // Saying so keeps a client from reusing it and meeting a reset.
  if (!req.complete) headers.connection = 'close';
  res.writeHead(response.status, headers);
  res.end(body ?? undefined);
}

async function serveApi(door, req, res) {
  try {
    await writeWebResponse(await door(toWebRequest(req)), req, res);
  } catch (error) {
    // The handler answers every refusal and failure itself; this is a broken connection or a bug here.
    process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'api door failed', error: String(error) })}\n`);
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/problem+json' });
    res.end(res.headersSent ? undefined : JSON.stringify({ type: 'about:blank', title: 'Internal error', status: 500, code: 'INTERNAL' }));
  }
}

/**
 * In production Next.js runs instrumentation's register() (which opens the engine) only when the
 * first request arrives. Started here instead, the schema check runs in the database while
 * Next.js prepares, and a wrong spec stops the start before anything listens. Next.js keeps the
 * one registration (it is memoized) for its own later call. Should these internals move in a
 * future Next.js, registration simply happens at the first request, as before.
 */
async function openEngineDuringPrepare(root) {
  try {
    await import('next/dist/server/node-environment.js');
    const { ensureInstrumentationRegistered } = await import('next/dist/server/lib/router-utils/instrumentation-globals.external.js');
    // A failure is Next.js's to report when it awaits the same registration at the first request.
    if (typeof ensureInstrumentationRegistered === 'function') ensureInstrumentationRegistered(root, '.next').catch(() => undefined);
  } catch {
    // Left to Next.js's own call at the first request.
  }
}

/** Puts the client's address on the request for both doors, replacing any copy the client sent. */
function markClientAddress(req, hops) {
  const address = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], hops);
  const raw = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i].toLowerCase() !== CLIENT_IP_HEADER) raw.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
  }
  raw.push(CLIENT_IP_HEADER, address);
  req.rawHeaders.splice(0, req.rawHeaders.length, ...raw);
  req.headers[CLIENT_IP_HEADER] = address;
}

export async function serve({ root, port, hostname }) {
  // Read before anything is served: a wrong TRUST_PROXY stops the start with its message.
  const hops = trustedProxyHops();
  const app = next({ dev: false, dir: root, port, ...(hostname ? { hostname } : {}) });
  const preparing = app.prepare();
  await openEngineDuringPrepare(root);
  await preparing;
  const handle = app.getRequestHandler();
  const server = createServer((req, res) => {
    markClientAddress(req, hops);
    const door = globalThis[API_DOOR];
    if (door && req.url?.startsWith(API_PREFIX)) void serveApi(door, req, res);
    else void handle(req, res);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, resolve);
  });
  console.log(`Ninefold: serving on http://${hostname ?? 'localhost'}:${port}`);
  return server;
}
