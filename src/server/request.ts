import 'server-only';
import { NinefoldError } from '@/engine/errors/ninefold-error';

const MAX_BODY_BYTES = 1024 * 1024;

/** The request body as JSON: 415 for another content type, 413 when too large, 422 when broken. */
export async function readJsonBody(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/(.+\+)?json\s*(;|$)/i.test(type)) throw new NinefoldError('UNSUPPORTED_MEDIA_TYPE');
  const length = Number(request.headers.get('content-length') ?? '0');
  if (length > MAX_BODY_BYTES) throw new NinefoldError('PAYLOAD_TOO_LARGE');
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new NinefoldError('PAYLOAD_TOO_LARGE');
  try {
    return JSON.parse(text);
  } catch {
    throw new NinefoldError('VALIDATION_FAILED', 'The body is not valid JSON.');
  }
}
