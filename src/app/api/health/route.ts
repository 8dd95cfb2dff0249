import { sql } from 'kysely';
import { getEngine } from '@/server/engine';
import { hasCode } from '@/server/errors';
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
    try {
      await sql`select 1`.execute(engine.store.db);
    } catch (error) {
      if (!hasCode(error, 'SERVICE_UNAVAILABLE')) throw error;
      return json(
        { status: 'unavailable', database: 'unreachable', kind: engine.store.kind, spec: engine.model.name },
        { status: 503, headers: { ...retryAfterHeaders(error), 'cache-control': 'no-store' } },
      );
    }
    return json({ status: 'ok', database: engine.store.kind, spec: engine.model.name }, { headers: { 'cache-control': 'no-store' } });
  } catch (error) {
    return problemResponse(error);
  }
}
