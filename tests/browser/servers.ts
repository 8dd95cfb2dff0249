import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface RunningServer {
  readonly url: string;
  readonly logFile: string;
  readonly dataDir: string;
  readonly process: ChildProcess;
}

export const ADMIN = { email: 'admin@example.com', password: 'admin-password-1' } as const;
/** Made by `ninefold seed` before the helpdesk server starts. */
export const DEMO_CUSTOMER = { email: 'customer1@demo.ninefold.test', password: 'demo-password' } as const;
export const DEMO_AGENT = { email: 'agent1@demo.ninefold.test', password: 'demo-password' } as const;
/**
 * The customer staff file tickets for (a helpdesk ticket's requester is a customer): another than
 * DEMO_CUSTOMER and outside their organization, so that those tickets never show in their portal.
 */
export const DEMO_REQUESTER = { email: 'customer3@demo.ninefold.test', password: 'demo-password' } as const;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not become healthy within ${timeoutMs} ms`);
}

/**
 * Starts the app the way a user does (`node scripts/start.mjs`, which builds when needed) on a
 * free port with a fresh embedded database, and waits until /api/health answers.
 */
export async function startServer(name: string, env: Record<string, string>, reuseDataDir?: string): Promise<RunningServer> {
  const root = path.resolve(__dirname, '../..');
  const port = await freePort();
  const dataDir = reuseDataDir ?? mkdtempSync(path.join(tmpdir(), `nf-browser-${name}-`));
  const logFile = `${dataDir}-${Date.now()}.log`;
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', PORT: String(port), DATA_DIR: dataDir, NINEFOLD_DIAGNOSTICS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, child, 240_000);
  return { url, logFile, dataDir, process: child };
}

export async function stopServer(server: RunningServer): Promise<void> {
  if (server.process.exitCode !== null) return;
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (server.process.exitCode === null) server.process.kill('SIGKILL');
}
