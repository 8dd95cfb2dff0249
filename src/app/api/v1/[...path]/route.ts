import { handleApiRequest } from '@/api/handler';
import { problemResponse } from '@/api/problem';
import { requestContext } from '@/api/request-context';
import { getEngine } from '@/server/engine';

export const dynamic = 'force-dynamic';

/*
 * The REST API through Next.js: what `next dev` serves. `npm start` answers /api/v1 before
 * Next.js sees the request (src/server/api-door.ts, scripts/start.mjs), with the same handler.
 */

/** An engine that cannot open is an INTERNAL problem with a digest, like any other failure. */
const handle = (request: Request): Promise<Response> =>
  getEngine().then(
    (engine) => handleApiRequest(engine, request, requestContext(request)),
    (error: unknown) => problemResponse(error),
  );

export const GET = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
export const OPTIONS = handle;
export const HEAD = handle;
