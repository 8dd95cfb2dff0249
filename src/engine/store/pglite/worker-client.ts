import { Worker } from 'node:worker_threads';
import type {
  CloseRequest,
  QueryFailed,
  QueryRequest,
  QuerySucceeded,
  SerializedDatabaseError,
  WorkerMessage,
} from './protocol';

/**
 * An error raised by the database, with the Postgres fields (`code`, `constraint`, `detail`,
 * `table`, `column`...) that callers map to their own errors, as `pg`'s DatabaseError has them.
 */
export class PGliteDatabaseError extends Error {
  readonly code?: string;
  readonly severity?: string;
  readonly detail?: string;
  readonly hint?: string;
  readonly position?: string;
  readonly where?: string;
  readonly schema?: string;
  readonly table?: string;
  readonly column?: string;
  readonly dataType?: string;
  readonly constraint?: string;
  readonly routine?: string;

  constructor(error: SerializedDatabaseError) {
    super(error.message);
    this.name = 'DatabaseError';
    const { message: _message, ...fields } = error;
    Object.assign(this, fields);
  }
}

export interface WorkerQueryResult {
  readonly rows: readonly Record<string, unknown>[];
  readonly command: string | null;
  readonly affectedRows: number | null;
}

type WorkerRequestBody = Omit<QueryRequest, 'id'> | Omit<CloseRequest, 'id'>;

interface Pending {
  resolve(message: QuerySucceeded): void;
  reject(error: Error): void;
}

/** One PGlite instance running in a worker thread, spoken to by messages. */
export class PGliteWorker {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #stopped: Error | null = null;
  #closing: Promise<void> | null = null;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (message: WorkerMessage) => {
      if (!('id' in message)) return;
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      if (message.ok) pending.resolve(message);
      else pending.reject(new PGliteDatabaseError((message as QueryFailed).error));
    });
    worker.on('error', (error) => this.#stop(error));
    worker.on('exit', (code) => this.#stop(new Error(`The embedded database worker stopped (exit code ${code}).`)));
  }

  /** Starts the worker and waits until PGlite has opened (or created) the data directory. */
  static start(workerPath: string, dataDir: string): Promise<PGliteWorker> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(workerPath, { workerData: { dataDir } });
      const onMessage = (message: WorkerMessage) => {
        if ('id' in message) return;
        cleanup();
        if (message.type === 'ready') {
          resolve(new PGliteWorker(worker));
        } else {
          void worker.terminate();
          reject(new PGliteDatabaseError({ ...message.error, message: `Could not open the embedded database in ${dataDir}: ${message.error.message}` }));
        }
      };
      const onError = (error: Error) => {
        cleanup();
        void worker.terminate();
        reject(error);
      };
      const onExit = (code: number) => {
        cleanup();
        reject(new Error(`The embedded database worker stopped while starting (exit code ${code}).`));
      };
      const cleanup = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
  }

  async query(sql: string, parameters: readonly unknown[]): Promise<WorkerQueryResult> {
    const result = await this.#send({ type: 'query', sql, parameters });
    return { rows: result.rows ?? [], command: result.command ?? null, affectedRows: result.affectedRows ?? null };
  }

  /** Closes PGlite cleanly (its files are consistent afterwards), then ends the thread. */
  close(): Promise<void> {
    if (!this.#closing) {
      this.#closing = (async () => {
        if (this.#stopped) return;
        try {
          await this.#send({ type: 'close' });
        } finally {
          await this.#worker.terminate();
        }
      })();
    }
    return this.#closing;
  }

  #send(request: WorkerRequestBody): Promise<QuerySucceeded> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      try {
        this.#worker.postMessage({ ...request, id });
      } catch (error) {
        this.#pending.delete(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  #stop(error: Error): void {
    if (this.#stopped) return;
    this.#stopped = error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
