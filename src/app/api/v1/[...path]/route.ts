import { clientIp } from '@/api/client-ip';
import { handleApiRequest, type ApiContext } from '@/api/handler';
import { problemResponse } from '@/api/problem';
import { getEngine } from '@/server/engine';

export const dynamic = 'force-dynamic';

/** The application's origin as the browser sees it (behind a proxy: the forwarded host and proto). */
function appOrigin(request: Request): string {
  const url = new URL(request.url);
  const first = (name: string) => request.headers.get(name)?.split(',')[0]?.trim() || undefined;
  const proto = first('x-forwarded-proto') ?? url.protocol.replace(/:$/, '');
  const host = first('x-forwarded-host') ?? first('host') ?? url.host;
  return `${proto}://${host}`;
}

function context(request: Request): ApiContext {
  return { clientIp: clientIp(request.headers), origin: appOrigin(request) };
}

/** An engine that cannot open is an INTERNAL problem with a digest, like any other failure. */
const handle = (request: Request): Promise<Response> =>
  getEngine().then((engine) => handleApiRequest(engine, request, context(request)), (error: unknown) => problemResponse(error));

export const GET = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
export const OPTIONS = handle;
export const HEAD = handle;
