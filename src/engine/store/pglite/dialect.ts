import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { DynamicDatabase } from '../types';
import type { PGliteWorker } from './worker-client';

/**
 * Kysely over a PGlite that runs in a worker thread. PGlite has a single connection, so the
 * driver lends it to one user at a time: a transaction holds it from `begin` to `commit`, and
 * every other query waits its turn instead of slipping into the transaction.
 *
 * Consequence for callers: inside `db.transaction().execute(trx => ...)`, use `trx`, never `db`
 * (a query on `db` would wait for the connection the transaction holds, forever).
 */
export class PGliteWorkerDialect implements Dialect {
  readonly #worker: PGliteWorker;

  constructor(worker: PGliteWorker) {
    this.#worker = worker;
  }

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PGliteWorkerDriver(this.#worker);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }

  createIntrospector(db: DynamicDatabase): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}

/** A first-come, first-served lock. */
class Mutex {
  #locked = false;
  readonly #waiters: (() => void)[] = [];

  /** Resolves true once the lock is ours, or false if `timeoutMs` passed first. */
  async lock(timeoutMs?: number): Promise<boolean> {
    if (!this.#locked) {
      this.#locked = true;
      return true;
    }
    return new Promise<boolean>((resolve) => {
      const waiter = () => {
        if (timer) clearTimeout(timer);
        resolve(true);
      };
      const timer =
        timeoutMs === undefined
          ? null
          : setTimeout(() => {
              const index = this.#waiters.indexOf(waiter);
              if (index >= 0) this.#waiters.splice(index, 1);
              resolve(false);
            }, timeoutMs);
      this.#waiters.push(waiter);
    });
  }

  unlock(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#locked = false;
  }
}

/** How long a query may wait for the connection before we say why it might be stuck. */
const SLOW_ACQUIRE_WARNING_MS = 15_000;
/** How long close() lets running transactions finish before it closes the database anyway. */
const CLOSE_GRACE_MS = 5_000;

const MODIFYING_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

class PGliteWorkerConnection implements DatabaseConnection {
  readonly #worker: PGliteWorker;

  constructor(worker: PGliteWorker) {
    this.#worker = worker;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    try {
      const result = await this.#worker.query(compiledQuery.sql, compiledQuery.parameters);
      return {
        rows: result.rows as R[],
        numAffectedRows: result.command !== null && MODIFYING_COMMANDS.has(result.command) ? BigInt(result.affectedRows ?? 0) : undefined,
      };
    } catch (error) {
      // The error was made in the worker's message handler; give it the caller's stack.
      if (error instanceof Error) {
        const here = new Error();
        error.stack = `${error.stack?.split('\n')[0] ?? error.message}\n${here.stack?.split('\n').slice(1).join('\n') ?? ''}`;
      }
      throw error;
    }
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery, chunkSize = 100): AsyncIterableIterator<QueryResult<R>> {
    if (!Number.isInteger(chunkSize) || chunkSize <= 0) throw new Error('chunkSize must be a positive integer');
    const { rows } = await this.executeQuery<R>(compiledQuery);
    for (let start = 0; start < rows.length; start += chunkSize) {
      yield { rows: rows.slice(start, start + chunkSize) };
    }
  }
}

class PGliteWorkerDriver implements Driver {
  readonly #connection: PGliteWorkerConnection;
  readonly #mutex = new Mutex();

  constructor(worker: PGliteWorker) {
    this.#connection = new PGliteWorkerConnection(worker);
  }

  async init(): Promise<void> {
    // The worker is started (and the data directory locked) before the dialect exists.
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    if (await this.#mutex.lock(SLOW_ACQUIRE_WARNING_MS)) return this.#connection;
    console.warn(
      `[ninefold] A query has waited ${SLOW_ACQUIRE_WARNING_MS / 1000}s for the embedded database's only connection. ` +
        'If it was sent through `db` inside a `db.transaction()` callback, it waits for that very transaction: use `trx` there.',
    );
    await this.#mutex.lock();
    return this.#connection;
  }

  async releaseConnection(): Promise<void> {
    this.#mutex.unlock();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    if (settings.isolationLevel || settings.accessMode) {
      const parts = ['start transaction'];
      if (settings.isolationLevel) parts.push(`isolation level ${settings.isolationLevel}`);
      if (settings.accessMode) parts.push(settings.accessMode);
      await connection.executeQuery(CompiledQuery.raw(parts.join(' ')));
    } else {
      await connection.executeQuery(CompiledQuery.raw('begin'));
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, savepointName: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdentifier(savepointName)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, savepointName: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${quoteIdentifier(savepointName)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, savepointName: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${quoteIdentifier(savepointName)}`));
  }

  async destroy(): Promise<void> {
    // Let queries and transactions already under way finish (Kysely accepts no new ones now);
    // the store then closes the worker itself.
    await this.#mutex.lock(CLOSE_GRACE_MS);
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
