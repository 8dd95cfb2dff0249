import net from 'node:net';

/**
 * A TCP proxy between the app and PostgreSQL that the soak controls: cut() resets every open
 * connection and every new one (the database "goes away" at once, as when its host restarts or a
 * network link drops with a reset), restore() lets connections through again. No restart of
 * anything on either side.
 */
export class DatabaseProxy {
  private readonly server: net.Server;
  private readonly open = new Set<net.Socket>();
  private cutSince: number | null = null;
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

  get isCut(): boolean {
    return this.cutSince !== null;
  }

  cut(): void {
    this.cutSince = performance.now();
    for (const socket of this.open) socket.resetAndDestroy();
    this.open.clear();
  }

  restore(): void {
    this.cutSince = null;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    if (this.isCut) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(this.upstreamPort, this.upstreamHost);
    this.open.add(client);
    this.open.add(upstream);
    const drop = () => {
      this.open.delete(client);
      this.open.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
