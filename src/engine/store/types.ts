import type { Kysely } from 'kysely';

/**
 * Entity tables are declared by the spec at run time, so the query builder cannot know their
 * types statically; record types are checked at the ops boundary instead.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type DynamicDatabase = Kysely<any>;

export type DatabaseKind = 'pglite' | 'postgres';

export interface StoreOptions {
  /** postgres://... → PostgreSQL; unset → embedded PGlite in `dataDir`. */
  readonly databaseUrl?: string;
  /** Where PGlite keeps its files (default ./.data). */
  readonly dataDir: string;
}

/** What a listener of NOTIFYs is told. */
export interface NotificationHandlers {
  /** A payload sent on the channel; delivered after the sender's transaction committed. */
  onNotify(payload: string): void;
  /** The listening connection was lost and is back: notifications may have been missed. */
  onResync(): void;
}

/** Whether the database answers, as this process last found out (see ./availability.ts). */
export interface StoreAvailability {
  /** True once a connection error was confirmed by a probe, until a query or probe succeeds. */
  readonly down: boolean;
  /** Tries the database now; resolves once `down` says what it found. */
  probe(): Promise<void>;
  /** The probe under way while the database is not known to be down (a statement went quiet), else null. */
  readonly checking: Promise<void> | null;
}

export interface Store {
  readonly kind: DatabaseKind;
  readonly db: DynamicDatabase;
  readonly availability: StoreAvailability;
  /** Counts every SQL statement sent, for tests that prove a page costs a constant number. */
  readonly statementCount: () => number;
  /**
   * Listens to NOTIFYs on `channel` (PostgreSQL: on a dedicated connection that reconnects by
   * itself; PGlite: in this process). Resolves, once listening, to the function that stops.
   */
  listen(channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
