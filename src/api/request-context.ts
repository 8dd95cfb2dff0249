import { clientIp } from './client-ip';
import type { ApiContext } from './handler';

/** The application's origin as the browser sees it (behind a proxy: the forwarded host and proto). */
function appOrigin(request: Request): string {
  const url = new URL(request.url);
  const first = (name: string) => request.headers.get(name)?.split(',')[0]?.trim() || undefined;
  const proto = first('x-forwarded-proto') ?? url.protocol.replace(/:$/, '');
  const host = first('x-forwarded-host') ?? first('host') ?? url.host;
  return `${proto}://${host}`;
}

/** What the API door needs to know of a request besides the request itself. */
export function requestContext(request: Request): ApiContext {
  return { clientIp: clientIp(request.headers), origin: appOrigin(request) };
}
