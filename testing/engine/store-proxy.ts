/**
 * Test helper: a TCP proxy between the engine and PostgreSQL that a test can cut and restore, to
 * play a database outage (or a network cut) without stopping the shared PostgreSQL server.
 *
 *   const proxy = await TcpProxy.start('127.0.0.1', 5432);
 *   const url = proxy.rewrite(databaseUrl);   // the same database, through the proxy
 *   await proxy.cut();                         // refuses new connections, resets open ones
 *   await proxy.restore();                     // listens again, on the same port
 *   await proxy.cut('drop');                   // a silent network: nothing passes, nothing is refused
 *   await proxy.restore();                     // what was held flows on
 */
import net from 'node:net';

export class TcpProxy {
  readonly #targetHost: string;
  readonly #targetPort: number;
  readonly #sockets = new Set<net.Socket>();
  readonly #pairs = new Set<{ readonly client: net.Socket; readonly upstream: net.Socket }>();
  /** Connections accepted while dropping: connected upstream once restored. */
  readonly #held: net.Socket[] = [];
  #dropping = false;
  #server: net.Server | null = null;
  #port = 0;

  private constructor(targetHost: string, targetPort: number) {
    this.#targetHost = targetHost;
    this.#targetPort = targetPort;
  }

  /** A proxy to `host:port`, listening on a free port of 127.0.0.1. */
  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetHost, targetPort);
    await proxy.restore();
    return proxy;
  }

  /** A proxy to the server of a postgres:// URL. */
  static forUrl(url: string): Promise<TcpProxy> {
    const parsed = new URL(url);
    return TcpProxy.start(parsed.hostname || '127.0.0.1', Number(parsed.port || 5432));
  }

  get port(): number {
    return this.#port;
  }

  /** The URL with its host and port replaced by this proxy's. */
  rewrite(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.#port);
    return parsed.toString();
  }

  /** Connections through the proxy now open. */
  get openConnections(): number {
    return this.#sockets.size;
  }

  /** Listens (again): on the port it had before, so that URLs handed out stay right. */
  async restore(): Promise<void> {
    if (this.#dropping) {
      this.#dropping = false;
      for (const { client, upstream } of this.#pairs) {
        client.pipe(upstream);
        upstream.pipe(client);
      }
      for (const client of this.#held.splice(0)) this.#pipe(client);
    }
    if (this.#server) return;
    const server = net.createServer((client) => this.#pipe(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.#port = (server.address() as net.AddressInfo).port;
    this.#server = server;
  }

  /**
   * 'reset' (default): stops listening (new connections are refused) and resets every open
   * connection. 'drop': keeps every connection and accepts new ones, but passes nothing either
   * way until restored, as a network partition does: only timeouts can tell.
   */
  async cut(mode: 'reset' | 'drop' = 'reset'): Promise<void> {
    if (mode === 'drop') {
      this.#dropping = true;
      for (const { client, upstream } of this.#pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
      return;
    }
    this.#held.splice(0).forEach((socket) => socket.destroy());
    const server = this.#server;
    this.#server = null;
    for (const socket of this.#sockets) socket.resetAndDestroy();
    this.#sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  close(): Promise<void> {
    return this.cut();
  }

  #pipe(client: net.Socket): void {
    if (this.#dropping) {
      client.pause();
      client.on('error', () => undefined);
      this.#held.push(client);
      return;
    }
    const upstream = net.connect(this.#targetPort, this.#targetHost);
    const pair = { client, upstream };
    this.#pairs.add(pair);
    client.once('close', () => this.#pairs.delete(pair));
    for (const socket of [client, upstream]) {
      this.#sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.#sockets.delete(socket);
        // One side gone: the other goes too, as a real network failure would leave it.
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
