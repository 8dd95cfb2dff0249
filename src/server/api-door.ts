import type { Engine } from '@/engine/engine';
import { handleApiRequest } from '@/api/handler';
import { requestContext } from '@/api/request-context';

/**
 * The REST API's own door in front of Next.js. Profiling showed Next.js's routing and route
 * handler machinery costing about 2.4 ms of CPU per request even for /api/health, more than the
 * API list itself; the API needs none of it (no rendering, no React), so `npm start`'s server
 * (scripts/start.mjs) hands /api/v1 requests straight to the framework-free handler registered
 * here, once the engine is open. Same handler, same checks: only the framework is skipped.
 */
export const API_DOOR = Symbol.for('ninefold.apiDoor');

export type ApiDoor = (request: Request) => Promise<Response>;

export function registerApiDoor(engine: Engine): void {
  const door: ApiDoor = (request) => handleApiRequest(engine, request, requestContext(request));
  (globalThis as Record<symbol, unknown>)[API_DOOR] = door;
}
