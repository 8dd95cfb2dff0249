// A request handed to Next.js after a door of scripts/server.mjs has read its body (to check it
// before Next.js parses it), or in place of one (the import page rendered after a form's import).
// Next.js reads `req` as a Node request: this is one, on the same connection, with the body the
// door read. Plain JavaScript: the server script imports it before anything is bundled.
import { IncomingMessage } from 'node:http';

/**
 * A copy of `req` whose body is `body` (null: none), with `changes` applied: another method or
 * URL, and headers to add (a value of null removes that header).
 */
export function replayedRequest(req, body, changes = {}) {
  const copy = new IncomingMessage(req.socket);
  copy.method = changes.method ?? req.method;
  copy.url = changes.url ?? req.url;
  copy.httpVersion = req.httpVersion;
  copy.httpVersionMajor = req.httpVersionMajor;
  copy.httpVersionMinor = req.httpVersionMinor;
  const headers = { ...req.headers };
  for (const [name, value] of Object.entries(changes.headers ?? {})) {
    if (value === null) delete headers[name];
    else headers[name] = value;
  }
  copy.headers = headers;
  copy.rawHeaders = Object.entries(headers).flatMap(([name, value]) =>
    Array.isArray(value) ? value.flatMap((one) => [name, one]) : [name, value],
  );
  if (body !== null && body.length > 0) copy.push(body);
  copy.push(null);
  copy.complete = true;
  return copy;
}

/**
 * The body of `req`, read up to `maxBytes`: refused by its Content-Length before reading, or as
 * soon as what arrives passes the limit (then null, and the rest is left unread).
 */
export function readBodyUpTo(req, maxBytes) {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onError);
    };
    const onData = (chunk) => {
      size += chunk.length;
      if (size > maxBytes) {
        stop();
        req.pause();
        resolve(null);
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    // A connection closed before the body's end: nothing is answered.
    const onError = (error) => {
      stop();
      reject(error ?? new Error('The request was closed before its body ended.'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onError);
  });
}
