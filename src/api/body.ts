import { NinefoldError } from '@/engine/errors/ninefold-error';

/** application/json, or any application/<something>+json; a charset, when given, must be UTF-8. */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json$/i;

/** The body as a whole is wrong: no field to point at. */
function badBody(detail: string): NinefoldError {
  return new NinefoldError('VALIDATION_FAILED', detail);
}

function tooLarge(maxBytes: number): NinefoldError {
  return new NinefoldError('PAYLOAD_TOO_LARGE', `The body can be at most ${maxBytes} bytes.`);
}

export function isJsonContentType(header: string | null): boolean {
  if (!header) return false;
  const [type = '', ...params] = header.split(';').map((part) => part.trim());
  if (!JSON_MEDIA_TYPE.test(type)) return false;
  return params.every((param) => {
    const [name, value = ''] = param.split('=').map((p) => p.trim().toLowerCase());
    return name !== 'charset' || value.replace(/"/g, '') === 'utf-8';
  });
}

/**
 * The body's bytes, read as they stream in and refused (413) as soon as they pass `maxBytes`, so
 * a client cannot make the server hold more than that. A Content-Length above it is refused
 * before reading anything.
 */
export async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = request.headers.get('content-length');
  if (declared !== null) {
    if (!/^\s*\d{1,15}\s*$/.test(declared)) throw badBody('The Content-Length header is not a number.');
    if (Number(declared) > maxBytes) throw tooLarge(maxBytes);
  }
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(maxBytes);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function unsupported(): NinefoldError {
  return new NinefoldError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON, with content-type: application/json.');
}

function parseObject(bytes: Uint8Array): Record<string, unknown> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw badBody('The body is not valid UTF-8.');
  }
  if (text.trim() === '') throw badBody('The body is empty; send a JSON object.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badBody('The body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badBody(
      `The body must be a JSON object, not ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}.`,
    );
  }
  return value as Record<string, unknown>;
}

/**
 * The request's JSON object: 415 unless sent as JSON, 413 beyond `maxBytes`, 422 when it is not
 * UTF-8, not JSON, or not an object.
 */
export async function readJsonObject(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
  if (!isJsonContentType(request.headers.get('content-type'))) throw unsupported();
  return parseObject(await readCapped(request, maxBytes));
}

/** For requests that may come without a body: null when there is none, else as readJsonObject. */
export async function readOptionalJsonObject(request: Request, maxBytes: number): Promise<Record<string, unknown> | null> {
  const bytes = await readCapped(request, maxBytes);
  if (bytes.byteLength === 0) return null;
  if (!isJsonContentType(request.headers.get('content-type'))) throw unsupported();
  return parseObject(bytes);
}
