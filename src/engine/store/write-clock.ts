import type {
  DatabaseConnection,
  Dialect,
  Driver,
  Kysely,
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  TransactionSettings,
  UnknownRow,
} from 'kysely';

/**
 * How long a cached read may be served at most. Within this process every write ends the
 * cached reads at once (see WriteClock); the bound is for writes this process cannot see: another
 * server or a CLI on the same PostgreSQL database. (PGlite's data directory is locked to one
 * process, so there it only bounds memory.)
 */
export const CACHED_READ_TTL_MS = 1000;
/** Reads kept at most; the oldest go first. */
const MAX_ENTRIES = 2000;

interface Entry {
  readonly value: unknown;
  readonly tick: number;
  readonly at: number;
}

/**
 * Counts the writes this process sends to its database, so that small, hot reads (the actor of
 * a session or token, the options of a filter) can be served from memory while nothing changed.
 *
 * Why: profiling the list page and the API list (`npm run bench -- --profile`) showed each
 * statement costing a worker round trip on PGlite (or a network round trip on PostgreSQL) plus
 * query building and row decoding on the thread that renders pages; these reads were the same
 * on every request.
 *
 * Correctness: the clock ticks before and after every statement that is not a plain select, and
 * when a transaction begins and ends. A read is kept only if the clock did not move while it ran
 * and no transaction was open; a kept read is served only while the clock still shows the tick
 * it was read at. So a write made by this process, committed or not, ends every kept read at
 * once, and a read that overlapped a write is never kept.
 */
export class WriteClock {
  #ticks = 0;
  readonly #inTransaction = new Set<DatabaseConnection>();
  readonly #entries = new Map<string, Entry>();

  constructor(private readonly ttlMs: number = CACHED_READ_TTL_MS) {}

  /** Something may have changed (or is changing): every kept read is stale from now on. */
  tick(): void {
    this.#ticks++;
    this.#entries.clear();
  }

  /** `load()`'s result, from memory when the same key was read since the last write. */
  async cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.#entries.get(key);
    if (hit && hit.tick === this.#ticks && this.#inTransaction.size === 0 && now - hit.at < this.ttlMs) return hit.value as T;
    const before = this.#ticks;
    const quiet = this.#inTransaction.size === 0;
    const value = await load();
    if (quiet && this.#inTransaction.size === 0 && this.#ticks === before) {
      this.#entries.delete(key);
      if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value as string);
      this.#entries.set(key, { value, tick: before, at: now });
    }
    return value;
  }

  /** A Kysely plugin that ticks around every statement that may write. */
  plugin(): KyselyPlugin {
    const writes = new WeakSet<object>();
    return {
      transformQuery: (args: PluginTransformQueryArgs): RootOperationNode => {
        if (mayWrite(args.node)) {
          writes.add(args.queryId);
          this.tick();
        }
        return args.node;
      },
      transformResult: async (args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => {
        if (writes.has(args.queryId)) this.tick();
        return args.result;
      },
    };
  }

  /** The dialect with its transactions counted (a read that overlaps one is not kept). */
  dialect(inner: Dialect): Dialect {
    return {
      createAdapter: () => inner.createAdapter(),
      createDriver: () => this.#driver(inner.createDriver()),
      createQueryCompiler: () => inner.createQueryCompiler(),
      createIntrospector: (db) => inner.createIntrospector(db),
    };
  }

  #driver(inner: Driver): Driver {
    const ended = (connection: DatabaseConnection) => {
      this.#inTransaction.delete(connection);
      this.tick();
    };
    const driver: Driver = {
      init: () => inner.init(),
      acquireConnection: () => inner.acquireConnection(),
      releaseConnection: (connection) => inner.releaseConnection(connection),
      destroy: () => inner.destroy(),
      beginTransaction: async (connection: DatabaseConnection, settings: TransactionSettings) => {
        this.#inTransaction.add(connection);
        this.tick();
        try {
          await inner.beginTransaction(connection, settings);
        } catch (error) {
          ended(connection);
          throw error;
        }
      },
      commitTransaction: async (connection) => {
        try {
          await inner.commitTransaction(connection);
        } finally {
          ended(connection);
        }
      },
      rollbackTransaction: async (connection) => {
        try {
          await inner.rollbackTransaction(connection);
        } finally {
          ended(connection);
        }
      },
    };
    // Kysely offers savepoints only when the driver has them.
    if (inner.savepoint) driver.savepoint = inner.savepoint.bind(inner);
    if (inner.rollbackToSavepoint) driver.rollbackToSavepoint = inner.rollbackToSavepoint.bind(inner);
    if (inner.releaseSavepoint) driver.releaseSavepoint = inner.releaseSavepoint.bind(inner);
    return driver;
  }
}

/** Anything but a plain select may change data (raw SQL and DDL included, to be safe). */
function mayWrite(node: RootOperationNode): boolean {
  if (node.kind !== 'SelectQueryNode') return true;
  // `with x as (update ...) select ...` writes too; any select with a WITH clause counts.
  return node.with !== undefined;
}

/**
 * Where a database object keeps its clock: a registered symbol, not a module-level map, because
 * Next.js may load this module more than once (pages and route handlers are bundled apart) while
 * they all share the one engine opened by whichever came first.
 */
const CLOCK = Symbol.for('ninefold.writeClock');

/** Ties a clock to the database object a store hands out (see openStore). */
export function registerWriteClock(db: Kysely<unknown>, clock: WriteClock): void {
  Object.defineProperty(db, CLOCK, { value: clock, enumerable: false });
}

/**
 * `load()` through the clock of `db`, or straight to the database when `db` has none (a
 * transaction, or a database object not opened by openStore).
 */
export function cachedRead<T>(db: object, key: string, load: () => Promise<T>): Promise<T> {
  const clock = (db as { [CLOCK]?: unknown })[CLOCK];
  return clock instanceof Object && 'cached' in clock ? (clock as WriteClock).cached(key, load) : load();
}

/** Drops every read kept for `db` (tests that count the statements of a cold request). */
export function forgetCachedReads(db: object): void {
  const clock = (db as { [CLOCK]?: unknown })[CLOCK];
  if (clock instanceof Object && 'tick' in clock) (clock as WriteClock).tick();
}
