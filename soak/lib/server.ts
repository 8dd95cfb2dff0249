import type { ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnTracked, stopProcess, sleep } from '../../bench/lib/processes';
import { BENCH_SPEC } from '../../bench/lib/server';
import { waitForHealth } from './http';

/**
 * The helpdesk with its API rate limits raised through constants (the benchmarks' spec): the soak
 * tests crashes, outages and leaks, not the limiter. Said in the soak's output.
 */
export const SOAK_SPEC = BENCH_SPEC;

export interface SoakServer {
  /** What was spawned: `node scripts/start.mjs` itself, or the keeper shell around it. */
  readonly child: ChildProcess;
  /** The process that serves (start.mjs serves Next.js and the API in its own process). */
  readonly pid: number;
  readonly url: string;
  readonly logFile: string;
  /** True when a keeper holds the server as its child and never reaps it (see start()). */
  readonly kept: boolean;
}

export interface StartOptions {
  readonly root: string;
  readonly port: number;
  readonly env: Readonly<Record<string, string>>;
  readonly logFile: string;
  /**
   * Start the server under a keeper that never reaps its children (`sh -c 'node … & exec sleep'`):
   * after a kill -9 the dead server stays a zombie, still holding its pid, until the keeper ends.
   * That is the state a restart right after a crash meets, made to last instead of lasting
   * microseconds, so the data directory's lock is tested against it every time.
   */
  readonly keeper?: boolean;
}

/** Spawns the server the way a user does (`node scripts/start.mjs`); does not wait for it. */
export async function spawnServer(options: StartOptions): Promise<SoakServer> {
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.env,
    PORT: String(options.port),
    HOSTNAME_BIND: '127.0.0.1',
    NINEFOLD_SPEC: SOAK_SPEC,
  };
  const start = path.join(options.root, 'scripts/start.mjs');
  const child = options.keeper
    ? spawnTracked('/bin/sh', ['-c', `"$0" "$1" & exec sleep 2147483647`, process.execPath, start], {
        cwd: options.root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawnTracked(process.execPath, [start], { cwd: options.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  let pid = child.pid!;
  if (options.keeper) {
    let found: number | null = null;
    for (let i = 0; i < 200 && found === null; i++) {
      found = childrenOf(child.pid!)[0] ?? null;
      if (found === null) await sleep(5);
    }
    if (found === null) throw new Error('The keeper shell started no server');
    pid = found;
  }
  return { child, pid, url: `http://127.0.0.1:${options.port}`, logFile: options.logFile, kept: Boolean(options.keeper) };
}

/**
 * Spawns the server and waits for the first 200 of /api/health; the time that took, which is not a
 * start's time when start.mjs rebuilt the app first (`rebuilt`: the sources changed meanwhile).
 */
export async function startServer(
  options: StartOptions,
  timeoutMs = 120_000,
): Promise<{ server: SoakServer; ms: number; rebuilt: boolean }> {
  const server = await spawnServer(options);
  const alive = () => processState(server.pid) === 'running';
  let ms = await waitForHealth(server.url, timeoutMs, alive);
  // start.mjs builds first when the sources changed since the last build: waited for, not timed.
  if (ms === null && alive() && rebuilding(options.logFile)) ms = await waitForHealth(server.url, 600_000, alive);
  if (ms === null) {
    const tail = readFileSync(options.logFile, 'utf8').slice(-1500);
    await stopProcess(server.child, 2_000);
    throw new Error(`The server on ${server.url} did not answer 200 on /api/health within ${timeoutMs / 1000} s:\n${tail}`);
  }
  return { server, ms, rebuilt: rebuilding(options.logFile) };
}

/** SIGTERM to the server, then the keeper if any; waits for both. */
export async function stopServer(server: SoakServer): Promise<void> {
  if (server.kept) {
    try {
      process.kill(server.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    for (let i = 0; i < 300 && processState(server.pid) === 'running'; i++) await sleep(50);
  }
  await stopProcess(server.child);
}

export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** From /proc: running (any live state), zombie (dead, not yet reaped by its parent) or gone. */
export function processState(pid: number): 'running' | 'zombie' | 'gone' {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X' ? 'zombie' : 'running';
  } catch {
    return 'gone';
  }
}

/** The last lines of a server log, for a row's explanation. */
export function logTail(file: string, chars = 600): string {
  try {
    return readFileSync(file, 'utf8').slice(-chars);
  } catch {
    return '';
  }
}

/** True when start.mjs is building the app first (sources changed since the last build). */
export function rebuilding(logFile: string): boolean {
  try {
    return readFileSync(logFile, 'utf8').includes('Ninefold: building');
  } catch {
    return false;
  }
}
