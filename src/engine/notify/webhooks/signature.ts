import { createHmac } from 'node:crypto';

/*
 * Standard Webhooks signatures (https://www.standardwebhooks.com): the receiver recomputes
 * HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<body>" with the shared secret, so it knows
 * the body came from us, unchanged, and (by the timestamp) recently.
 */

const SECRET_PREFIX = 'whsec_';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The key bytes of a `whsec_<base64>` secret; null when the value is not one. */
export function secretKey(secret: string): Buffer | null {
  if (!secret.startsWith(SECRET_PREFIX)) return null;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!BASE64.test(encoded)) return null;
  const key = Buffer.from(encoded, 'base64');
  // Fewer than 24 bytes (192 bits) is below what the convention asks of a secret.
  return key.length >= 24 ? key : null;
}

export interface SignedHeaders {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
}

/** The three headers of one attempt; `sentAt` is the attempt's time (a retry is signed anew). */
export function signWebhook(key: Buffer, id: string, sentAt: Date, body: string): SignedHeaders {
  const timestamp = String(Math.floor(sentAt.getTime() / 1000));
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
