import { connectionErrorText } from './unavailable';

/** How often a database known to be down is tried again. */
export const PROBE_EVERY_MS = 2000;
/** Slow statements start a probe at most this often (a busy pool must not open a connection per request). */
const SUSPECT_EVERY_MS = 1000;

export interface AvailabilityOptions {
  readonly probeEveryMs?: number;
  /** Where going down and coming back are said (one line each, not one per failed request). */
  readonly log?: (line: string) => void;
}

const defaultLog = (line: string) => process.stderr.write(`${line}\n`);

/**
 * Whether this process can reach its database, known cheaply and in process, so that the server
 * can answer "unavailable" at once while it cannot (see src/server/outage.ts) instead of sending
 * every request to a database that is not there.
 *
 * A request's connection error is not taken on trust: a reset of one pooled connection, or a pool
 * too busy to lend one in time, does not make the database down. It starts a probe on a connection
 * of its own; only a failed probe says "down", and then probes repeat every `probeEveryMs` until
 * one succeeds. Any successful query (a request's or a probe's) says "up" again.
 */
export class DatabaseAvailability {
  readonly #probe: () => Promise<void>;
  readonly #probeEveryMs: number;
  readonly #log: (line: string) => void;
  #down = false;
  #probing: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;
  #lastSuspected = 0;

  constructor(probe: () => Promise<void>, options: AvailabilityOptions = {}) {
    this.#probe = probe;
    this.#probeEveryMs = options.probeEveryMs ?? PROBE_EVERY_MS;
    this.#log = options.log ?? defaultLog;
  }

  /** True from a failed probe until the next successful query or probe. */
  get down(): boolean {
    return this.#down;
  }

  /**
   * The probe under way while the database is not (yet) known to be down: a request arriving now
   * waits for its verdict (at most the probe's timeout) rather than meeting the same silence.
   */
  get checking(): Promise<void> | null {
    return this.#down ? null : this.#probing;
  }

  /** A query met a connection error: find out whether the database is down. */
  failed(): void {
    if (this.#down || this.#stopped) return;
    void this.probe();
  }

  /** A statement has waited long for its answer: a silent network looks like this. */
  suspect(): void {
    if (this.#down || this.#stopped || this.#probing) return;
    const now = Date.now();
    if (now - this.#lastSuspected < SUSPECT_EVERY_MS) return;
    this.#lastSuspected = now;
    void this.probe();
  }

  /** A query succeeded. */
  succeeded(): void {
    if (!this.#down) return;
    this.#down = false;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#log(JSON.stringify({ level: 'info', msg: 'database reachable again' }));
  }

  /** Tries the database now (once at a time); resolves when the state is known. */
  probe(): Promise<void> {
    this.#probing ??= this.#probe().then(
      () => {
        this.#probing = null;
        this.succeeded();
      },
      (error: unknown) => {
        this.#probing = null;
        if (this.#stopped) return;
        if (!this.#down) {
          this.#down = true;
          this.#log(JSON.stringify({ level: 'error', msg: 'database unreachable', error: connectionErrorText(error) }));
        }
        this.#timer ??= setTimeout(() => {
          this.#timer = null;
          void this.probe();
        }, this.#probeEveryMs);
        // Probing never keeps a process alive that has nothing else to do.
        this.#timer.unref();
      },
    );
    return this.#probing;
  }

  /** No more probes (the store is closing). */
  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
