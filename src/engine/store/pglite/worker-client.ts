import { Worker } from 'node:worker_threads';
import type {
  CloseRequest,
  ListenRequest,
  QueryFailed,
  QueryRequest,
  QuerySucceeded,
  SerializedDatabaseError,
  StartFailedMessage,
  StartedMessage,
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

type WorkerRequestBody = Omit<QueryRequest, 'id'> | Omit<CloseRequest, 'id'> | Omit<ListenRequest, 'id'>;

interface Pending {
  resolve(message: QuerySucceeded): void;
  reject(error: Error): void;
}

/**
 * The worker's own JavaScript heap only holds messages in transit (PGlite's data lives in its
 * WebAssembly memory), so its young generation does not need V8's default 16 MB semi-spaces:
 * at 4 MB the idle worker holds ~12 MB less, and a scavenge of a few result sets stays cheap.
 * (./prestart.mjs starts its worker with the same limits.)
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 4 } as const;

/** How a worker's start ended: its first message, an error, or its exit. */
type StartOutcome = { message: StartedMessage | StartFailedMessage } | { error: Error } | { exitCode: number };

interface Prestarted {
  readonly worker: Worker;
  readonly started: Promise<StartOutcome>;
}

/** Filled by ./prestart.mjs (scripts/server.mjs calls it before Next.js loads); keyed by absolute data directory. */
const PRESTARTED = Symbol.for('ninefold.pglite.prestarted');

function prestartedWorkers(): Map<string, Prestarted> | undefined {
  return (globalThis as Record<symbol, Map<string, Prestarted> | undefined>)[PRESTARTED];
}

/**
 * The worker ./prestart.mjs started on `dataDir`, taken out of the registry (it is adopted once).
 * Workers it started on any other directory are stopped: this process opens one embedded
 * database, and a worker nobody adopts would hold ~150 MB for nothing.
 */
export function takePrestartedWorker(dataDir: string): Prestarted | null {
  const registry = prestartedWorkers();
  if (!registry) return null;
  const found = registry.get(dataDir) ?? null;
  for (const [dir, other] of registry) {
    if (other === found) continue;
    registry.delete(dir);
    // Closed cleanly once it has opened (the worker then ends by itself); its lock names this
    // process, which the next lockDataDir() on that directory takes over as stale.
    void other.started.then((outcome) => {
      if ('message' in outcome && outcome.message.type === 'ready') other.worker.postMessage({ id: 0, type: 'close' });
      else void other.worker.terminate();
    });
  }
  registry.delete(dataDir);
  return found;
}

function waitForStart(worker: Worker): Promise<StartOutcome> {
  return new Promise((resolve) => {
    const settle = (outcome: StartOutcome) => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      resolve(outcome);
    };
    const onMessage = (message: WorkerMessage) => {
      if (!('id' in message) && message.type !== 'notify') settle({ message });
    };
    const onError = (error: Error) => settle({ error });
    const onExit = (exitCode: number) => settle({ exitCode });
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}

/** One PGlite instance running in a worker thread, spoken to by messages. */
export class PGliteWorker {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #stopped: Error | null = null;
  #closing: Promise<void> | null = null;
  readonly #listeners = new Map<string, (payload: string) => void>();

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (message: WorkerMessage) => {
      if (!('id' in message)) {
        if (message.type === 'notify') this.#listeners.get(message.channel)?.(message.payload);
        return;
      }
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      if (message.ok) pending.resolve(message);
      else pending.reject(new PGliteDatabaseError((message as QueryFailed).error));
    });
    // Worded as ../unavailable.ts recognises it: every request then fails with SERVICE_UNAVAILABLE.
    worker.on('error', (error) => this.#stop(new Error(`The embedded database worker stopped: ${error.message}`, { cause: error })));
    worker.on('exit', (code) => this.#stop(new Error(`The embedded database worker stopped (exit code ${code}).`)));
  }

  /** Starts the worker and waits until PGlite has opened (or created) the data directory. */
  static start(workerPath: string, dataDir: string): Promise<PGliteWorker> {
    const worker = new Worker(workerPath, { workerData: { dataDir }, resourceLimits: WORKER_LIMITS });
    return PGliteWorker.#started(worker, waitForStart(worker), dataDir);
  }

  /** Takes over a worker ./prestart.mjs started, once PGlite has opened in it. */
  static adopt(prestarted: Prestarted, dataDir: string): Promise<PGliteWorker> {
    return PGliteWorker.#started(prestarted.worker, prestarted.started, dataDir);
  }

  static async #started(worker: Worker, started: Promise<StartOutcome>, dataDir: string): Promise<PGliteWorker> {
    const outcome = await started;
    if ('message' in outcome && outcome.message.type === 'ready') return new PGliteWorker(worker);
    if ('exitCode' in outcome) throw new Error(`The embedded database worker stopped while starting (exit code ${outcome.exitCode}).`);
    void worker.terminate();
    if ('error' in outcome) throw outcome.error;
    const { error } = outcome.message as StartFailedMessage;
    throw new PGliteDatabaseError({ ...error, message: `Could not open the embedded database in ${dataDir}: ${error.message}` });
  }

  async query(sql: string, parameters: readonly unknown[]): Promise<WorkerQueryResult> {
    const result = await this.#send({ type: 'query', sql, parameters });
    return { rows: result.rows ?? [], command: result.command ?? null, affectedRows: result.affectedRows ?? null };
  }

  /**
   * Forwards the NOTIFYs of `channel` to `onNotify` (one listener per channel). Send it while
   * holding the connection, outside any transaction: a LISTEN inside one would be undone by its
   * rollback.
   */
  async listen(channel: string, onNotify: (payload: string) => void): Promise<void> {
    this.#listeners.set(channel, onNotify);
    await this.#send({ type: 'listen', channel });
  }

  async unlisten(channel: string): Promise<void> {
    this.#listeners.delete(channel);
    if (!this.#stopped) await this.#send({ type: 'unlisten', channel });
  }

  /** Rejects once the worker thread has stopped (crashed, or closed): nothing answers any more. */
  async check(): Promise<void> {
    if (this.#stopped) throw this.#stopped;
  }

  /** Ends the thread at once without closing PGlite, as a crash would (tests of a dead worker). */
  async terminate(): Promise<void> {
    await this.#worker.terminate();
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
