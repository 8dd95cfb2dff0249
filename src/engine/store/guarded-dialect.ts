import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryCompiler, QueryResult, TransactionSettings } from 'kysely';
import { NinefoldError } from '../errors/ninefold-error';
import { classifyDatabaseError, isConnectionError, serviceUnavailable } from './unavailable';

const isServiceUnavailable = (error: unknown) => error instanceof NinefoldError && error.code === 'SERVICE_UNAVAILABLE';

/** What the guard tells about each statement, and asks: for DatabaseAvailability. */
export interface ConnectionWatcher {
  /** Whether the database is known to be unreachable now. */
  readonly down: boolean;
  /** A statement met a connection error. */
  failed(): void;
  /** A statement has been waiting for an answer for a while: the network may be silent. */
  suspect(): void;
  succeeded(): void;
}

/**
 * How long a statement (or taking a connection) may wait before the watcher is asked to check the
 * database, and how often that is looked at. A network that drops packets instead of refusing them
 * raises no error: statements just wait. Once the watcher has confirmed the database down, every
 * statement waiting longer than this fails with SERVICE_UNAVAILABLE instead of holding its request
 * until the network comes back (what it still waits for underneath is left to finish or fail).
 */
const SLOW_STATEMENT_MS = 250;
const WATCH_EVERY_MS = 250;

interface Waiting {
  readonly since: number;
  readonly abandon: () => void;
}

/**
 * The dialect with every connection error turned into the catalogue's SERVICE_UNAVAILABLE, in
 * the one place every statement passes (queries, transactions, savepoints, taking a connection
 * from the pool), so that no door has to recognise `ECONNREFUSED` or SQLSTATE 57P01 itself and
 * every door answers 503 with Retry-After instead of 500. Other errors (a unique violation...)
 * pass unchanged, for the ops to translate.
 */
export function guardConnectionErrors(inner: Dialect, watcher: ConnectionWatcher): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createDriver: () => guardedDriver(inner.createDriver(), watcher),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createIntrospector: (db) => inner.createIntrospector(db),
  };
}

function guardedDriver(inner: Driver, watcher: ConnectionWatcher): Driver {
  const waiting = new Set<Waiting>();
  const watch = setInterval(() => {
    const now = Date.now();
    let slow = false;
    for (const entry of waiting) {
      if (now - entry.since < SLOW_STATEMENT_MS) continue;
      slow = true;
      if (watcher.down) entry.abandon();
    }
    if (slow && !watcher.down) watcher.suspect();
  }, WATCH_EVERY_MS);
  // Watching never keeps a process alive that has nothing else to do.
  watch.unref();

  /** `run()`, unless the database is confirmed down while it waits: then SERVICE_UNAVAILABLE; `late` gets what it resolves to after that. */
  const watched = <T>(run: () => Promise<T>, late?: (value: T) => void): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      let settled = false;
      const entry: Waiting = {
        since: Date.now(),
        abandon: () => {
          settled = true;
          waiting.delete(entry);
          reject(serviceUnavailable());
        },
      };
      waiting.add(entry);
      run().then(
        (value) => {
          waiting.delete(entry);
          if (settled) late?.(value);
          else resolve(value);
        },
        (error: unknown) => {
          waiting.delete(entry);
          if (!settled) reject(classified(error));
        },
      );
    });

  // Our wrapper of each connection the inner driver lends, and back. Transactions and savepoints
  // run their statements through the wrapper (Kysely counts and logs the statements of the
  // connection it was given); only releasing needs the inner driver's own object.
  const wrappers = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const inners = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const innerOf = (connection: DatabaseConnection) => inners.get(connection) ?? connection;

  const classified = (error: unknown): unknown => {
    if (!isConnectionError(error)) return error;
    watcher.failed();
    return classifyDatabaseError(error);
  };
  const guarded = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw classified(error);
    }
  };

  const wrap = (connection: DatabaseConnection): DatabaseConnection => {
    const known = wrappers.get(connection);
    if (known) return known;
    const wrapper: DatabaseConnection = {
      executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        const result = await watched(() => connection.executeQuery<R>(query));
        watcher.succeeded();
        return result;
      },
      streamQuery: async function* <R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
        try {
          yield* connection.streamQuery<R>(query, chunkSize);
        } catch (error) {
          throw classified(error);
        }
      },
    };
    wrappers.set(connection, wrapper);
    inners.set(wrapper, connection);
    return wrapper;
  };

  type SavepointStep = (connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) => Promise<void>;
  const savepointStep = (step: SavepointStep | undefined): SavepointStep | undefined =>
    step && ((connection, name, compile) => guarded(() => step.call(inner, connection, name, compile)));

  const driver: Driver = {
    init: () => guarded(() => inner.init()),
    // A connection that arrives after its caller was answered 503 goes straight back to the pool.
    acquireConnection: async () =>
      wrap(
        await watched(
          () => inner.acquireConnection(),
          (late) => void inner.releaseConnection(late).catch(() => undefined),
        ),
      ),
    releaseConnection: (connection) => inner.releaseConnection(innerOf(connection)),
    destroy: () => {
      clearInterval(watch);
      return inner.destroy();
    },
    beginTransaction: (connection: DatabaseConnection, settings: TransactionSettings) =>
      guarded(() => inner.beginTransaction(connection, settings)),
    commitTransaction: (connection) => guarded(() => inner.commitTransaction(connection)),
    rollbackTransaction: async (connection) => {
      try {
        await inner.rollbackTransaction(connection);
      } catch (error) {
        // A connection that is gone took its transaction with it: the server rolled it back.
        // The error that made the caller roll back is the one worth reporting.
        if (!isConnectionError(error) && !isServiceUnavailable(error)) throw error;
        watcher.failed();
      }
    },
  };
  const savepoint = savepointStep(inner.savepoint);
  const rollbackToSavepoint = savepointStep(inner.rollbackToSavepoint);
  const releaseSavepoint = savepointStep(inner.releaseSavepoint);
  if (savepoint) driver.savepoint = savepoint;
  if (rollbackToSavepoint) driver.rollbackToSavepoint = rollbackToSavepoint;
  if (releaseSavepoint) driver.releaseSavepoint = releaseSavepoint;
  return driver;
}
