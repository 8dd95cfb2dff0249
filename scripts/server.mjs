// The HTTP server of `npm start`: Next.js in this process, with the REST API's own door in front.
// /api/v1 goes straight to the framework-free API handler that the app registers once its engine
// is open (src/server/api-door.ts); every other request, and /api/v1 before the door is
// registered, goes to Next.js. Before either, every request's target is normalised once (the path
// every door decides on and Next.js serves), and what no page sends is answered here in the
// catalogue's words: an unreadable address, a method no door serves, a change from another site,
// a server-action body that is too large or not what a form sends (src/api/action-body.mjs).
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import next from 'next';
import { actionBodyProblem, actionPostKind, FORM_FILES_CEILING_BYTES, FORM_POST_CEILING_BYTES } from '../src/api/action-body.mjs';
import { readBuildRoutes, routeKind } from '../src/api/build-routes.mjs';
import { CLIENT_IP_HEADER, clientAddress, trustedProxyHops } from '../src/api/client-address.mjs';
import { crossOriginReason } from '../src/api/cross-origin.mjs';
import { methodAnswer } from '../src/api/door-methods.mjs';
import { doorRefusal, wantsPage } from '../src/api/door-refusal.mjs';
import { rewriteRequestHeaders } from '../src/api/incoming-headers.mjs';
import { replaceOutageErrors } from '../src/api/outage-errors.mjs';
import { readBodyUpTo, replayedRequest } from '../src/api/replayed-request.mjs';
import { PROTO_HEADER, requestProtocol } from '../src/api/request-scheme.mjs';
import { normalisedTarget } from '../src/api/request-target.mjs';
import { contentSecurityPolicy, newNonce, securityHeaders } from '../src/api/response-headers.mjs';
import { ACTION_NOT_FOUND_HEADER, isUnknownAction, serverActionIds } from '../src/api/server-action-ids.mjs';
import { installGracefulShutdown } from './shutdown.mjs';

const API_DOOR = Symbol.for('ninefold.apiDoor');
// While the database is known to be down: a 503 answered here (src/server/outage.ts).
const OUTAGE_DOOR = Symbol.for('ninefold.outageDoor');
// Visitors' page requests, counted per client address when the spec lets visitors in (src/server/visitor-door.ts).
const VISITOR_DOOR = Symbol.for('ninefold.visitorDoor');
// The largest body a form of the spec can post to a server action (src/server/form-post-limit.ts).
const FORM_POST_LIMIT = Symbol.for('ninefold.formPostLimit');
const FORM_VALUES_LIMIT = Symbol.for('ninefold.formValuesLimit');
// The import page's form posted without JavaScript (src/server/csv/import-door.ts).
const IMPORT_DOOR = Symbol.for('ninefold.importDoor');
// What each server action takes, by its exported name (src/server/actions/arguments.ts).
const ACTION_ARGUMENTS = Symbol.for('ninefold.actionArguments');
/** The server actions that write a record's files (src/server/actions/arguments.ts). */
const FILE_ACTIONS = Symbol.for('ninefold.fileActions');
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
  // the rest is read and thrown away, as the other doors do (discardBody). Closing the connection
  // instead would reset it under a client still sending, and that client would never see the answer.
  if (!req.complete) {
    // The web stream the handler left unread stops taking the body in.
    req.removeAllListeners('data');
    discardBody(req);
  }
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

/** What is read and thrown away of a body a door answered without reading, and for how long. */
const DISCARD_BYTES = 64 * 1024 * 1024;
const DISCARD_MS = 10_000;

/**
 * The rest of a body that a door answered without reading (a refusal before it, or past a limit):
 * read and thrown away as it arrives, so that the client, still sending, gets to read the answer
 * (a connection closed under it is a reset, and the answer lost). Cut when it is too much or too slow.
 */
function discardBody(req) {
  let left = DISCARD_BYTES;
  const cut = () => req.socket.destroy();
  const timer = setTimeout(cut, DISCARD_MS);
  timer.unref();
  req.on('data', (chunk) => {
    left -= chunk.length;
    if (left < 0) cut();
  });
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  req.resume();
}

/** Sends a door's answer ({ status, headers, body }), the unread rest of the request's body thrown away. */
function sendAnswer(req, res, answer) {
  if (!req.complete) discardBody(req);
  const body = req.method === 'HEAD' ? undefined : answer.body;
  res.writeHead(answer.status, { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body ?? '')) });
  res.end(body);
}

/** A refusal in the catalogue's words (src/api/door-refusal.mjs), logged. */
function refuse(req, res, code, detail, headers = {}) {
  logRefusal(req, code, detail);
  const refusal = doorRefusal(code, detail, wantsPage(req.headers));
  sendAnswer(req, res, { ...refusal, headers: { ...refusal.headers, ...headers } });
}

/**
 * Where a request goes, decided once on its normalised target (src/api/request-target.mjs), which
 * then replaces its URL: every door and Next.js read the same path. Null when the target cannot be
 * read (a malformed escape): answered here with NOT_FOUND, as the API answers such a path.
 */
function placeOf(req, routes) {
  const target = normalisedTarget(req.url);
  if (target === null) return null;
  req.url = `${target.path}${target.search}`;
  const api = target.path === '/api/v1' || target.path.startsWith(API_PREFIX);
  return { path: target.path, kind: api ? 'api' : routeKind(routes, target.path) };
}

/**
 * What the server answers itself, before Next.js: a change sent from another site (Next.js would
 * answer a cross-site server action with a 500; /api/v1 checks its own), and a script's call to a
 * server action the build does not hold (src/api/server-action-ids.mjs). Returns whether it answered.
 */
function refuseAtTheDoor(req, res, hops, actionIds, place) {
  if (place.kind === 'api') return false;
  const reason = crossOriginReason(req.method ?? 'GET', req.headers, hops > 0);
  if (reason !== null) {
    logRefusal(req, 'FORBIDDEN', reason);
    sendAnswer(
      req,
      res,
      doorRefusal('FORBIDDEN', 'Cross-site request refused: a change must be sent from this application.', wantsPage(req.headers)),
    );
    return true;
  }
  if (req.method === 'POST' && isUnknownAction(actionIds, req.headers['next-action'])) {
    // Next.js's client router reads this header to tell an unknown action from a failed one.
    res.setHeader(ACTION_NOT_FOUND_HEADER, '1');
    refuse(req, res, 'NOT_FOUND', 'This action does not exist (the page may be from an earlier version: reload it).');
    return true;
  }
  return false;
}

/** A door's verdict: null, an answer, or a promise of one; a failed check lets the request through. */
async function verdictOf(door, req, place) {
  try {
    return (await door?.(req, place)) ?? null;
  } catch {
    return null;
  }
}

/**
 * A server action's body (src/api/action-body.mjs): read up to the largest a form of the spec can
 * send, checked, and handed to Next.js only when it is what a form or React's client sends.
 * Returns the request Next.js is to read, or null when a refusal was answered.
 */
async function checkedActionPost(req, res, kind, actionIds) {
  // Only a multipart post carries a form's files: any other body (React's client, a sign-in) keeps the values' limit.
  const multipart = /^multipart\/form-data/i.test(String(req.headers['content-type'] ?? ''));
  const maxBytes = multipart
    ? (globalThis[FORM_POST_LIMIT] ?? FORM_POST_CEILING_BYTES + FORM_FILES_CEILING_BYTES)
    : (globalThis[FORM_VALUES_LIMIT] ?? FORM_POST_CEILING_BYTES);
  const tooLarge = () => refuse(req, res, 'PAYLOAD_TOO_LARGE', `A form's post can be at most ${maxBytes} bytes here.`);
  let body;
  try {
    body = await readBodyUpTo(req, maxBytes);
  } catch {
    // The client went away before its body ended: there is no one to answer.
    return null;
  }
  if (body === null) {
    tooLarge();
    return null;
  }
  const actions = {
    ids: actionIds,
    argumentsOf: (id) => {
      const name = actionIds?.get(id);
      const list = globalThis[ACTION_ARGUMENTS];
      return name && list && Object.hasOwn(list, name) ? list[name] : undefined;
    },
    takesFiles: (id) => {
      // Without the build's list of actions nothing can be told apart: the files' allowance holds for all, as before.
      if (!actionIds) return true;
      const name = actionIds.get(id);
      return name !== undefined && (globalThis[FILE_ACTIONS] ?? []).includes(name);
    },
    bytes: body.length,
    valuesLimit: globalThis[FORM_VALUES_LIMIT] ?? FORM_POST_CEILING_BYTES,
  };
  const fetchedId = [req.headers['next-action']].flat()[0];
  const found = await actionBodyProblem(kind, req.headers['content-type'], body, actions, fetchedId);
  if (found === null) return replayedRequest(req, body);
  if (found.code === 'NOT_FOUND') res.setHeader(ACTION_NOT_FOUND_HEADER, '1');
  refuse(req, res, found.code, found.detail);
  return null;
}

/**
 * The import page's form posted without JavaScript (src/server/csv/import-door.ts): the import
 * runs here, with the import's own limit, then the import page is rendered with its report
 * through Next.js (a GET of the page carrying it), or the door's refusal is sent.
 */
async function serveImport(door, req, res, place, handle) {
  let answer;
  try {
    answer = await door.run(toWebRequest(req), place);
  } catch (error) {
    process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'import door failed', error: String(error) })}\n`);
    if (!res.headersSent) refuse(req, res, 'NOT_FOUND', 'The import could not be run.');
    return;
  }
  if (answer.render) {
    const page = replayedRequest(req, null, {
      method: 'GET',
      url: answer.render.path,
      headers: { ...answer.render.headers, 'content-type': null, 'content-length': null, 'transfer-encoding': null, 'next-action': null },
    });
    void handle(page, res);
  } else sendAnswer(req, res, answer);
}

/**
 * The doors in order, after the method and origin checks: the outage door (while the database is
 * down), the visitor door (visitors' requests per address), then the import form, the server-action
 * body check, and the API door or Next.js.
 */
async function serveThroughDoors(req, res, place, handle, actionIds) {
  const outageDoor = globalThis[OUTAGE_DOOR];
  const outage = await verdictOf(outageDoor, req, place);
  if (outage) return sendAnswer(req, res, outage);
  const visitor = await verdictOf(globalThis[VISITOR_DOOR], req, place);
  if (visitor) return sendAnswer(req, res, visitor);
  const apiDoor = globalThis[API_DOOR];
  if (place.kind === 'api' && apiDoor) return void serveApi(apiDoor, req, res);
  const importDoor = globalThis[IMPORT_DOOR];
  if (importDoor?.claims(req, place)) return serveImport(importDoor, req, res, place, handle);
  // A page's 500 that the outage door can explain goes out as its 503 (src/api/outage-errors.mjs).
  if (outageDoor) replaceOutageErrors(res, () => outageDoor(req, place));
  const action = actionPostKind(req.method, req.headers, place.kind);
  if (action === null) return void handle(req, res);
  const checked = await checkedActionPost(req, res, action, actionIds);
  if (checked !== null) void handle(checked, res);
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
  const routes = readBuildRoutes(root);
  const server = createServer((req, res) => {
    const policy = contentSecurityPolicy(newNonce());
    const protocol = prepareRequest(req, hops, policy);
    for (const [name, value] of Object.entries(securityHeaders(policy, protocol === 'https'))) res.setHeader(name, value);
    const place = placeOf(req, routes);
    if (place === null) {
      if (req.method === 'OPTIONS' && req.url === '*')
        return void sendAnswer(req, res, { status: 204, headers: { allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS' }, body: '' });
      return refuse(req, res, 'NOT_FOUND', 'This address cannot be read: it holds a malformed percent-escape.');
    }
    const method = methodAnswer(req.method, place.kind);
    if (method?.status === 204) return void sendAnswer(req, res, { status: 204, headers: { allow: method.allow }, body: '' });
    if (method)
      return refuse(req, res, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed here; allowed: ${method.allow}.`, {
        allow: method.allow,
      });
    if (refuseAtTheDoor(req, res, hops, actionIds, place)) return;
    void serveThroughDoors(req, res, place, handle, actionIds);
  });
  // Methods that never reach the request handler: CONNECT (a tunnel) and those Node's parser does
  // not know (TRACK, made-up ones). Answered on the socket, in the same words as TRACE.
  const methodRefused = (socket, detail) => {
    const refusal = doorRefusal('METHOD_NOT_ALLOWED', detail, false);
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD, POST, OPTIONS\r\nContent-Type: ${refusal.headers['content-type']}\r\nContent-Length: ${Buffer.byteLength(refusal.body)}\r\nConnection: close\r\n\r\n${refusal.body}`,
    );
  };
  server.on('connect', (req, socket) => methodRefused(socket, 'CONNECT is not allowed here: this server is no proxy.'));
  // Any other error of the parser is answered as Node.js answers it without this listener.
  const PARSER_ANSWERS = { HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large', ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout' };
  server.on('clientError', (error, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
    if (error.code === 'HPE_INVALID_METHOD') return methodRefused(socket, 'This method is not allowed here.');
    socket.end(`HTTP/1.1 ${PARSER_ANSWERS[error.code] ?? '400 Bad Request'}\r\nConnection: close\r\n\r\n`);
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
