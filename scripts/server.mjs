// The HTTP server of `npm start`: Next.js in this process, with the REST API's own door in front.
// /api/v1 goes straight to the framework-free API handler that the app registers once its engine
// is open (src/server/api-door.ts); every other request, and /api/v1 before the door is
// registered, goes to Next.js.
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import next from 'next';
import { CLIENT_IP_HEADER, clientAddress, trustedProxyHops } from '../src/api/client-address.mjs';
import { crossOriginReason } from '../src/api/cross-origin.mjs';
import { doorRefusal, wantsPage } from '../src/api/door-refusal.mjs';
import { rewriteRequestHeaders } from '../src/api/incoming-headers.mjs';
import { PROTO_HEADER, requestProtocol } from '../src/api/request-scheme.mjs';
import { contentSecurityPolicy, newNonce, securityHeaders } from '../src/api/response-headers.mjs';
import { ACTION_NOT_FOUND_HEADER, isUnknownAction, serverActionIds } from '../src/api/server-action-ids.mjs';
import { installGracefulShutdown } from './shutdown.mjs';

const API_DOOR = Symbol.for('ninefold.apiDoor');
// While the database is known to be down: a 503 answered here (src/server/outage.ts).
const OUTAGE_DOOR = Symbol.for('ninefold.outageDoor');
// Visitors' page requests, counted per client address when the spec lets visitors in (src/server/visitor-door.ts).
const VISITOR_DOOR = Symbol.for('ninefold.visitorDoor');
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

/**
 * Rewrites the request's headers before either door sees them (src/api/incoming-headers.mjs):
 * drops the framework's internal headers, a client's copies of the server's own, and X-Forwarded-*
 * unless proxies are trusted; then adds the client's address, the scheme the browser used and the
 * response's Content-Security-Policy (Next.js takes the nonce for its scripts from the request's).
 * Returns the scheme.
 */
function prepareRequest(req, hops, policy) {
  const address = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], hops);
  const protocol = requestProtocol(Boolean(req.socket.encrypted), req.headers['x-forwarded-proto'], hops);
  rewriteRequestHeaders(req, hops > 0, { [CLIENT_IP_HEADER]: address, [PROTO_HEADER]: protocol, 'content-security-policy': policy });
  return protocol;
}

function logRefusal(req, code, reason) {
  const path = (req.url ?? '').split('?')[0].slice(0, 200);
  process.stdout.write(`${JSON.stringify({ level: 'warn', msg: 'request refused', code, reason, method: req.method, path })}\n`);
}

/**
 * What the server answers itself, before Next.js: a change sent from another site (Next.js would
 * answer a cross-site server action with a 500; /api/v1 checks its own), and a script's call to a
 * server action the build does not hold (src/api/server-action-ids.mjs). Returns whether it answered.
 */
function refuseAtTheDoor(req, res, hops, actionIds) {
  if (req.url?.startsWith(API_PREFIX)) return false;
  const reason = crossOriginReason(req.method ?? 'GET', req.headers, hops > 0);
  let refusal = null;
  if (reason !== null) {
    logRefusal(req, 'FORBIDDEN', reason);
    refusal = doorRefusal('FORBIDDEN', 'Cross-site request refused: a change must be sent from this application.', wantsPage(req.headers));
  } else if (req.method === 'POST' && isUnknownAction(actionIds, req.headers['next-action'])) {
    logRefusal(req, 'NOT_FOUND', 'unknown server action');
    // Next.js's client router reads this header to tell an unknown action from a failed one.
    res.setHeader(ACTION_NOT_FOUND_HEADER, '1');
    refusal = doorRefusal('NOT_FOUND', 'This action does not exist (the page may be from an earlier version: reload it).', false);
  }
  if (refusal === null) return false;
  // The body is not read: the connection cannot carry another request after it.
  res.writeHead(refusal.status, { ...refusal.headers, 'content-length': String(Buffer.byteLength(refusal.body)), ...(req.complete ? {} : { connection: 'close' }) });
  res.end(refusal.body);
  return true;
}

/** The outage door's answer when it has one; then the visitor door's; otherwise the API door or Next.js. */
function serveOrRefuse(outage, req, res, handle) {
  if (outage) {
    res.writeHead(outage.status, outage.headers);
    res.end(req.method === 'HEAD' ? undefined : outage.body);
    return;
  }
  const visitor = globalThis[VISITOR_DOOR]?.(req) ?? null;
  // A promise while a session cookie is checked; a failed check lets the request through.
  if (visitor !== null && typeof visitor.then === 'function') void visitor.then((answer) => serveOrPass(answer, req, res, handle), () => serveOrPass(null, req, res, handle));
  else serveOrPass(visitor, req, res, handle);
}

/** The visitor door's 429 when it has one; otherwise the API door or Next.js. */
function serveOrPass(refusal, req, res, handle) {
  if (refusal) {
    res.writeHead(refusal.status, refusal.headers);
    res.end(req.method === 'HEAD' ? undefined : refusal.body);
    return;
  }
  const door = globalThis[API_DOOR];
  if (door && req.url?.startsWith(API_PREFIX)) void serveApi(door, req, res);
  else void handle(req, res);
}

export async function serve({ root, port, hostname }) {
  // Read before anything is served: a wrong TRUST_PROXY stops the start with its message.
  const hops = trustedProxyHops();
  const app = next({ dev: false, dir: root, port, ...(hostname ? { hostname } : {}) });
  const preparing = app.prepare();
  await openEngineDuringPrepare(root);
  await preparing;
  const handle = app.getRequestHandler();
  const actionIds = serverActionIds(root);
  const server = createServer((req, res) => {
    const policy = contentSecurityPolicy(newNonce());
    const protocol = prepareRequest(req, hops, policy);
    for (const [name, value] of Object.entries(securityHeaders(policy, protocol === 'https'))) res.setHeader(name, value);
    if (refuseAtTheDoor(req, res, hops, actionIds)) return;
    const outage = globalThis[OUTAGE_DOOR]?.(req) ?? null;
    // A promise while a probe decides whether the database is down (src/server/outage.ts).
    if (outage !== null && typeof outage.then === 'function') void outage.then((answer) => serveOrRefuse(answer, req, res, handle), () => serveOrRefuse(null, req, res, handle));
    else serveOrRefuse(outage, req, res, handle);
  });
  // SIGTERM/SIGINT: finish the requests in flight, then close the database, then exit (./shutdown.mjs).
  installGracefulShutdown(server);
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, resolve);
  });
  console.log(`Ninefold: serving on http://${hostname ?? 'localhost'}:${port}`);
  return server;
}
