import { getEngine } from '@/server/engine';
import { json, problemResponse, retryAfterHeaders } from '@/server/problem';

export const dynamic = 'force-dynamic';

/**
 * Liveness and readiness in one: the engine is open and the database answers (200). While the
 * database cannot be reached: 503 with Retry-After, saying so in the same JSON shape, so that a
 * load balancer takes this server out and a person reading it knows which part is missing.
 */
export async function GET(): Promise<Response> {
  try {
    const engine = await getEngine();
    const health = await engine.health();
    // This process's scheduler: when it last looked for due automatic transitions, and what it left due.
    const scheduler = engine.scheduler.status();
    if (!health.reachable) {
      return json(
        { status: 'unavailable', database: 'unreachable', kind: health.kind, spec: health.spec, scheduler },
        { status: 503, headers: { ...retryAfterHeaders(health.unavailable), 'cache-control': 'no-store' } },
      );
    }
    return json({ status: 'ok', database: health.kind, spec: health.spec, scheduler }, { headers: { 'cache-control': 'no-store' } });
  } catch (error) {
    return problemResponse(error);
  }
}
