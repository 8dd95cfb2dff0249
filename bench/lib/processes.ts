import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Every process the harness starts is registered here, in its own process group, so that a
 * failure or Ctrl-C stops exactly what the harness started (and their children), nothing else.
 */
const running = new Set<ChildProcess>();
const cleanups: (() => Promise<void> | void)[] = [];

export function spawnTracked(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Runs a cleanup step at the end, on an error or on Ctrl-C (last registered runs first). */
export function onCleanup(step: () => Promise<void> | void): () => void {
  cleanups.push(step);
  return () => {
    const at = cleanups.indexOf(step);
    if (at >= 0) cleanups.splice(at, 1);
  };
}

export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Runs a command to its end and collects its output; throws with the output when it fails. */
export async function run(
  command: string,
  args: readonly string[],
  options: SpawnOptions & { label: string; allowFailure?: boolean },
): Promise<Finished> {
  const started = performance.now();
  const child = spawnTracked(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (c) => resolve(c));
  });
  const ms = performance.now() - started;
  if (code !== 0 && !options.allowFailure) {
    throw new Error(`${options.label} failed (exit ${code}):\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`);
  }
  return { code, stdout, stderr, ms };
}

/** SIGTERM to the process itself (it stops its children), then the whole group after a grace period. */
export async function stopProcess(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timedOut = await Promise.race([exited.then(() => false), sleep(graceMs).then(() => true)]);
  if (timedOut && child.pid) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await Promise.race([exited, sleep(2_000)]);
  }
  // Anything left in the group (a child that outlived its parent) goes too.
  if (child.pid) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is empty
    }
  }
}

let cleaning: Promise<void> | null = null;

/** Stops every process still running and runs the cleanup steps; safe to call more than once. */
export function cleanUpEverything(): Promise<void> {
  cleaning ??= (async () => {
    for (const child of [...running]) await stopProcess(child, 5_000);
    while (cleanups.length) {
      const step = cleanups.pop()!;
      try {
        await step();
      } catch (error) {
        console.error(`Cleanup step failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return cleaning;
}

export function installSignalHandlers(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\nbench: ${signal}, stopping what it started...`);
      void cleanUpEverything().finally(() => process.exit(130));
    });
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

interface ProcInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly name: string;
}

function readProc(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may contain spaces and parentheses.
    const close = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, close);
    const ppid = Number(stat.slice(close + 2).split(' ')[1]);
    return { pid, ppid, name };
  } catch {
    return null;
  }
}

/** The process and all its descendants, read from /proc. */
export function processTree(rootPid: number): ProcInfo[] {
  const all = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readProc(Number(d)))
    .filter((p): p is ProcInfo => p !== null);
  const tree: ProcInfo[] = [];
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.shift()!;
    const found = all.find((p) => p.pid === pid);
    if (found) tree.push(found);
    for (const p of all) if (p.ppid === pid) queue.push(p.pid);
  }
  return tree;
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/**
 * The process that serves: the next-server process under `node scripts/start.mjs` when there is
 * one (its title is "next-server (v...)"), or `start.mjs` itself when it serves Next.js in its own
 * process and has no child (asked only once the server answers, so children would exist by then).
 */
export function nextServerPid(rootPid: number): number | null {
  const tree = processTree(rootPid).filter((p) => p.pid !== rootPid);
  if (tree.length === 0 && processTree(rootPid).length === 1) return rootPid;
  const titled = tree.find((p) => p.name.startsWith('next-server') || cmdline(p.pid).startsWith('next-server'));
  if (titled) return titled.pid;
  // Fallback: the deepest node process of the tree.
  const nodes = tree.filter((p) => p.name === 'node' || p.name.startsWith('next'));
  return nodes.at(-1)?.pid ?? null;
}

/** Resident memory of a process in MB (VmRSS), or null when it is gone. */
export function rssMb(pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}
