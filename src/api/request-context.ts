import { clientIp } from './client-ip';
import { isHttpsRequest } from './request-scheme.mjs';
import type { ApiContext } from './handler';

/**
 * The application's origin as the browser sees it. Behind trusted proxies, the forwarded host and
 * scheme: scripts/server.mjs drops X-Forwarded-Host unless TRUST_PROXY says proxies are there, and
 * tells the scheme in its own header (src/api/request-scheme.mjs).
 */
function appOrigin(request: Request): string {
  const url = new URL(request.url);
  const first = (name: string) => request.headers.get(name)?.split(',')[0]?.trim() || undefined;
  const proto = isHttpsRequest(request.headers) ? 'https' : url.protocol.replace(/:$/, '');
  const host = first('x-forwarded-host') ?? first('host') ?? url.host;
  return `${proto}://${host}`;
}

/** What the API door needs to know of a request besides the request itself. */
export function requestContext(request: Request): ApiContext {
  return { clientIp: clientIp(request.headers), origin: appOrigin(request) };
}
