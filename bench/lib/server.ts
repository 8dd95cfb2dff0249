import type { ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { nextServerPid, sleep, spawnTracked, stopProcess } from './processes';

export const BENCH_SPEC = 'bench/specs/helpdesk-unthrottled.spec.ts';

export interface BenchServer {
  readonly url: string;
  readonly process: ChildProcess;
  /** The process that serves (what RSS is read from): next-server, or start.mjs itself. */
  readonly serverPid: number;
  /** From spawning `node scripts/start.mjs` to the first 200 of /api/health. */
  readonly coldStartMs: number;
  readonly logFile: string;
  /** True when start.mjs built the app first (the cold start then includes a build). */
  readonly rebuilt: boolean;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

/** `node scripts/start.mjs` on a free port, timed to the first 200 of /api/health. */
export async function startServer(
  root: string,
  options: {
    env: Readonly<Record<string, string>>;
    logFile: string;
    profileDir?: string;
  },
): Promise<BenchServer> {
  const port = await freePort();
  const log = createWriteStream(options.logFile);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.env,
    PORT: String(port),
    HOSTNAME_BIND: '127.0.0.1',
    NINEFOLD_SPEC: BENCH_SPEC,
    NINEFOLD_DIAGNOSTICS: '1',
  };
  if (options.profileDir) {
    env.NODE_OPTIONS =
      `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(path.join(root, 'bench/lib/cpu-profiler.mjs')).href}`.trim();
    env.NF_BENCH_CPU_PROFILE_DIR = options.profileDir;
  }
  const started = performance.now();
  const child = spawnTracked(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 300_000;
  let coldStartMs = -1;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}; see ${options.logFile}`);
    try {
      const response = await fetch(`${url}/api/health`);
      await response.arrayBuffer();
      if (response.status === 200) {
        coldStartMs = performance.now() - started;
        break;
      }
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  if (coldStartMs < 0) {
    await stopProcess(child);
    throw new Error(`${url} did not answer 200 on /api/health within 5 minutes; see ${options.logFile}`);
  }
  let serverPid: number | null = null;
  for (let i = 0; i < 50 && serverPid === null; i++) {
    serverPid = nextServerPid(child.pid!);
    if (serverPid === null) await sleep(100);
  }
  const rebuilt = readFileSync(options.logFile, 'utf8').includes('Ninefold: building');
  return { url, process: child, serverPid: serverPid ?? child.pid!, coldStartMs, logFile: options.logFile, rebuilt };
}

export async function stopServer(server: BenchServer): Promise<void> {
  await stopProcess(server.process);
}
