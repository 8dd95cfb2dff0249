import { sql } from 'kysely';
import { asNinefoldError, type NinefoldError } from './errors/ninefold-error';
import type { DatabaseKind, Store } from './store/types';

/** What the engine says of itself when asked (the health route answers with it). */
export type EngineHealth = {
  readonly spec: string;
  readonly kind: DatabaseKind;
} & (
  | {
      readonly reachable: true;
      /** False when the database answers but refuses writes (a read-only transaction default, a standby). */
      readonly writable: boolean;
    }
  | {
      readonly reachable: false;
      /** The catalogue's SERVICE_UNAVAILABLE, with its Retry-After. */
      readonly unavailable: NinefoldError;
    }
);

/**
 * Asks the database now, with one statement that both proves it answers and says whether it
 * would accept a write. A connection error is an answer (unreachable); any other error is thrown.
 */
export async function probeHealth(store: Store, spec: string): Promise<EngineHealth> {
  try {
    const { rows } = await sql<{ writable: boolean }>`select current_setting('transaction_read_only') = 'off' as writable`.execute(
      store.db,
    );
    return { spec, kind: store.kind, reachable: true, writable: rows[0]?.writable === true };
  } catch (error) {
    const unavailable = asNinefoldError(error);
    if (unavailable?.code !== 'SERVICE_UNAVAILABLE') throw error;
    return { spec, kind: store.kind, reachable: false, unavailable };
  }
}
