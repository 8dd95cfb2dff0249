import 'server-only';

/**
 * The hostname the browser used, as `window.location.hostname` would give it: no port,
 * IPv6 in brackets. Behind a proxy, the forwarded host is what the browser saw.
 */
export function requestHostname(headers: Headers): string {
  const raw = (headers.get('x-forwarded-host') ?? headers.get('host') ?? '').split(',')[0].trim().toLowerCase();
  const hostname = raw.startsWith('[') ? raw.slice(0, raw.indexOf(']') + 1) : raw.split(':')[0];
  return /^[a-z0-9.\-[\]:]{1,255}$/.test(hostname) ? hostname : '';
}
