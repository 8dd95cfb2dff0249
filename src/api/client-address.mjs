// The client's address, for the per-address limits and the log. scripts/server.mjs works it out
// for every request from the connection itself and passes it on in CLIENT_IP_HEADER, replacing any
// such header a client sent. X-Forwarded-For is believed only for as many proxies as TRUST_PROXY
// says sit in front of the server: otherwise any client could pick an address per request and
// slip past the limits. Plain JavaScript: the server script imports it before anything is bundled.

export const CLIENT_IP_HEADER = 'x-ninefold-client-ip';

const MAX_LENGTH = 100;

/** TRUST_PROXY: how many proxies in front of this server append to X-Forwarded-For (default 0). */
export function trustedProxyHops(env = process.env) {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || raw === 'false') return 0;
  if (raw === 'true') return 1;
  const hops = Number(raw);
  if (!Number.isInteger(hops) || hops < 0 || hops > 10) {
    throw new Error(`TRUST_PROXY must be the number of proxies in front of this server (0-10), or true for one; got "${raw}".`);
  }
  return hops;
}

/** "::ffff:203.0.113.7" (IPv4 on an IPv6 socket) → "203.0.113.7". */
function plain(address) {
  const text = String(address ?? '').trim();
  return (text.startsWith('::ffff:') && text.includes('.') ? text.slice(7) : text).slice(0, MAX_LENGTH);
}

/**
 * The address of the client: the connection's peer when no proxy is trusted; behind `hops`
 * trusted proxies, the entry of X-Forwarded-For that the outermost of them appended (each proxy
 * appends the address it saw, so entries further left were written by the client itself).
 */
export function clientAddress(socketAddress, forwardedFor, hops) {
  const peer = plain(socketAddress) || '127.0.0.1';
  if (hops <= 0) return peer;
  const listed = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? ''))
    .split(',')
    .map(plain)
    .filter((entry) => entry !== '');
  const chain = [...listed, peer];
  return chain[Math.max(0, chain.length - 1 - hops)];
}
