import { CLIENT_IP_HEADER } from './client-address.mjs';

/**
 * The client's address, for the per-address limits and the log: what the server (scripts/server.mjs)
 * found from the connection and the trusted proxies (TRUST_PROXY), never a header of the client's
 * choosing. Without that server in front (`next dev`), every client is 127.0.0.1.
 */
export function clientIp(headers: Headers): string {
  return headers.get(CLIENT_IP_HEADER)?.trim().slice(0, 100) || '127.0.0.1';
}
