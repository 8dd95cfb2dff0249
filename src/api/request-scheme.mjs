// Whether a request reached the application over HTTPS. scripts/server.mjs works it out once per
// request, from the connection itself or from X-Forwarded-Proto when TRUST_PROXY says proxies
// sit in front, and passes it on in PROTO_HEADER, replacing any such header a client sent. Secure
// cookies, HSTS and the application's own origin all read that one answer: X-Forwarded-Proto is
// believed only from proxies the operator declared, never from whoever sends it.
// Plain JavaScript: the server script imports it before anything is bundled.

export const PROTO_HEADER = 'x-ninefold-proto';

/**
 * "https" or "http": a TLS socket is https; behind `hops` trusted proxies, the entry of
 * X-Forwarded-Proto that the outermost of them wrote (a proxy that appends puts the scheme it
 * received last, so an entry a client wrote further left is ignored; one that overwrites leaves one).
 */
export function requestProtocol(encrypted, forwardedProto, hops) {
  if (encrypted) return 'https';
  if (hops <= 0) return 'http';
  const listed = (Array.isArray(forwardedProto) ? forwardedProto.join(',') : (forwardedProto ?? ''))
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
  if (listed.length === 0) return 'http';
  return listed[Math.max(0, listed.length - hops)] === 'https' ? 'https' : 'http';
}

/** Whether the server (scripts/server.mjs) found the request to be HTTPS; without it (`next dev`), never. */
export function isHttpsRequest(headers) {
  return headers.get(PROTO_HEADER) === 'https';
}
