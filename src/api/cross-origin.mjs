// Changes sent from another site are refused before Next.js sees them (CSRF). A browser says
// where a request comes from: Origin on every POST (cross-site or not, form or fetch) and
// Sec-Fetch-Site on every request of current browsers. So a change whose Origin is not this
// application's host, or that the browser marks cross-site or same-site (another subdomain, or
// another port), is refused. A request with neither header is not a browser's (curl, a script):
// it can only carry a cookie its sender already holds, so there is no one to forge it for, and it
// goes on to the doors, which check the session as for anyone. /api/v1 is left to the API door:
// an API token works from anywhere, and that door refuses a cross-site change made with the
// session cookie itself (src/api/credentials.ts isSameOrigin).
// Plain JavaScript: the server script imports it before anything is bundled.

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function firstOf(value) {
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' ? text.split(',')[0].trim() : undefined;
}

/** The host the browser addressed: X-Forwarded-Host's first entry behind trusted proxies, else Host. */
export function addressedHost(headers, trustForwarding) {
  return (trustForwarding ? firstOf(headers['x-forwarded-host']) : undefined) || firstOf(headers.host) || undefined;
}

/** `host` as the URL parser writes it for `protocol` (lower case, no default port); null when it is not a host. */
function normalHost(protocol, host) {
  try {
    const url = new URL(`${protocol}//${host}`);
    return url.username === '' && url.pathname === '/' && url.search === '' ? url.host : null;
  } catch {
    return null;
  }
}

/**
 * Why a request must be refused as sent from another site, or null when it may go on. Host only
 * is compared (as Next.js does): the scheme a proxy received is not always known here.
 */
export function crossOriginReason(method, headers, trustForwarding) {
  if (!UNSAFE.has(String(method).toUpperCase())) return null;
  const site = firstOf(headers['sec-fetch-site']);
  if (site === 'cross-site' || site === 'same-site') return `sec-fetch-site ${site}`;
  const origin = firstOf(headers.origin);
  if (origin === undefined) return null;
  let from;
  try {
    from = new URL(origin);
  } catch {
    return 'unreadable origin';
  }
  if (from.protocol !== 'http:' && from.protocol !== 'https:') return 'opaque origin';
  const host = addressedHost(headers, trustForwarding);
  if (host === undefined) return 'no host';
  return normalHost(from.protocol, host) === from.host ? null : 'origin of another host';
}
