/** How long work on many rows may hold the event loop before it gives other requests a turn. */
const SLICE_MS = 15;

/**
 * Gives the event loop a turn during long work on many rows (an import's reading, checking and
 * writing): `await turns.take()` after each row yields (setImmediate, so that timers, I/O and
 * other requests run) once SLICE_MS have passed since the last turn. Counted in time rather than
 * rows: a row costs microseconds (an enum) or much more (rules, lookups).
 */
export class EventLoopTurns {
  #since = performance.now();

  async take(): Promise<void> {
    if (performance.now() - this.#since < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.#since = performance.now();
  }
}
