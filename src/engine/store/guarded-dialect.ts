import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryCompiler, QueryResult, TransactionSettings } from 'kysely';
import { NinefoldError } from '../errors/ninefold-error';
import { classifyDatabaseError, isConnectionError } from './unavailable';

const isServiceUnavailable = (error: unknown) => error instanceof NinefoldError && error.code === 'SERVICE_UNAVAILABLE';

/** What the guard tells about each statement: for DatabaseAvailability. */
export interface ConnectionWatcher {
  failed(): void;
  succeeded(): void;
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
        const result = await guarded(() => connection.executeQuery<R>(query));
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
    acquireConnection: () => guarded(async () => wrap(await inner.acquireConnection())),
    releaseConnection: (connection) => inner.releaseConnection(innerOf(connection)),
    destroy: () => inner.destroy(),
    beginTransaction: (connection: DatabaseConnection, settings: TransactionSettings) => guarded(() => inner.beginTransaction(connection, settings)),
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
