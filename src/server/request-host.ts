import 'server-only';
import { isHttpsRequest } from '@/api/request-scheme.mjs';

/**
 * The hostname the browser used, as `window.location.hostname` would give it: no port,
 * IPv6 in brackets. Behind a proxy, the forwarded host is what the browser saw.
 */
export function requestHostname(headers: Headers): string {
  const [firstHost = ''] = (headers.get('x-forwarded-host') ?? headers.get('host') ?? '').split(',');
  const raw = firstHost.trim().toLowerCase();
  const [beforePort = ''] = raw.split(':');
  const hostname = raw.startsWith('[') ? raw.slice(0, raw.indexOf(']') + 1) : beforePort;
  return /^[a-z0-9.\-[\]:]{1,255}$/.test(hostname) ? hostname : '';
}

/**
 * The origin the browser used ("https://desk.example.com"), for absolute links shown to users
 * (invitations). Behind trusted proxies: the forwarded host, and the scheme as the server found it
 * (scripts/server.mjs drops X-Forwarded-* unless TRUST_PROXY declares proxies).
 */
export function requestOrigin(headers: Headers): string {
  const first = (name: string) => headers.get(name)?.split(',')[0]?.trim().toLowerCase() || undefined;
  const proto = isHttpsRequest(headers) ? 'https' : 'http';
  const host = first('x-forwarded-host') ?? first('host') ?? 'localhost';
  return /^[a-z0-9.\-[\]:]{1,300}$/.test(host) ? `${proto}://${host}` : `${proto}://localhost`;
}
