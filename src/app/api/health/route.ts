import { sql } from 'kysely';
import { getEngine } from '@/server/engine';
import { json, problemResponse } from '@/server/problem';

export const dynamic = 'force-dynamic';

/** Liveness and readiness in one: the engine is open and the database answers. */
export async function GET(): Promise<Response> {
  try {
    const engine = await getEngine();
    await sql`select 1`.execute(engine.store.db);
    return json({ status: 'ok', database: engine.store.kind, spec: engine.model.name });
  } catch (error) {
    return problemResponse(error);
  }
}
