import net from 'node:net';

/** How the database goes away: connections reset at once, or packets dropped (silence). */
export type CutMode = 'reset' | 'drop';

interface Pair {
  readonly client: net.Socket;
  upstream: net.Socket | null;
}

/**
 * A TCP proxy between the app and PostgreSQL that the soak controls, so the database can go away
 * and come back with no restart of anything on either side:
 * - cut('reset'): every open connection and every new one is reset (the database host restarted,
 *   PostgreSQL was stopped): the app's driver learns it at once;
 * - cut('drop'): nothing passes any more and nothing is refused (a network partition): open
 *   connections and new ones wait in silence, which only the app's own timeouts can end;
 * - restore(): traffic flows again; held connections carry on where they stopped.
 */
export class DatabaseProxy {
  private readonly server: net.Server;
  private readonly pairs = new Set<Pair>();
  private mode: CutMode | null = null;
  port = 0;

  constructor(
    private readonly upstreamHost: string,
    private readonly upstreamPort: number,
  ) {
    this.server = net.createServer((client) => this.accept(client));
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as net.AddressInfo).port;
    return this.port;
  }

  cut(mode: CutMode): void {
    this.mode = mode;
    for (const pair of this.pairs) {
      if (mode === 'reset') this.drop(pair, true);
      else this.hold(pair);
    }
  }

  restore(): void {
    this.mode = null;
    for (const pair of this.pairs) this.flow(pair);
  }

  async close(): Promise<void> {
    this.cut('reset');
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    if (this.mode === 'reset') {
      client.resetAndDestroy();
      return;
    }
    const pair: Pair = { client, upstream: null };
    this.pairs.add(pair);
    client.on('error', () => this.drop(pair, false)).on('close', () => this.drop(pair, false));
    client.pause();
    if (this.mode === null) this.flow(pair);
  }

  /** Connects upstream if not yet done, and lets bytes through both ways. */
  private flow(pair: Pair): void {
    if (!pair.upstream) {
      const upstream = net.connect(this.upstreamPort, this.upstreamHost);
      pair.upstream = upstream;
      upstream.on('error', () => this.drop(pair, false)).on('close', () => this.drop(pair, false));
    }
    pair.client.pipe(pair.upstream);
    pair.upstream.pipe(pair.client);
  }

  /** Stops reading both ways: what is sent waits (in the sockets' buffers) as on a dead link. */
  private hold(pair: Pair): void {
    if (pair.upstream) {
      pair.client.unpipe(pair.upstream);
      pair.upstream.unpipe(pair.client);
      pair.upstream.pause();
    }
    pair.client.pause();
  }

  private drop(pair: Pair, reset: boolean): void {
    if (!this.pairs.delete(pair)) return;
    if (reset) pair.client.resetAndDestroy();
    else pair.client.destroy();
    pair.upstream?.destroy();
  }
}
