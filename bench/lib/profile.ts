import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sleep } from './processes';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
  readonly columnNumber: number;
}
interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
  readonly startTime: number;
  readonly endTime: number;
}

export interface HotSpot {
  readonly name: string;
  readonly where: string;
  readonly selfMs: number;
  readonly selfPercent: number;
  readonly totalPercent: number;
}

export interface ProfileSummary {
  readonly file: string;
  readonly sampledMs: number;
  /** Time the thread was busy (not idle); the percentages are of this. */
  readonly busyMs: number;
  /** Functions by self time. */
  readonly functions: readonly HotSpot[];
  /** Files (or packages) by self time, and by time on the stack. */
  readonly files: readonly { readonly where: string; readonly selfPercent: number; readonly totalPercent: number }[];
}

/** Where a frame comes from, short: a package, a file of the app's build, or a Node/V8 internal. */
export function shortWhere(url: string): string {
  if (!url) return '(native)';
  const clean = url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(clean);
  if (pkg) {
    // Next's own compiled copies (react-dom, etc.) say more by their file than by "next".
    return pkg[1] === 'next' ? `next/${pkg[2].replace(/^dist\//, '')}` : `${pkg[1]}/${pkg[2].split('/').pop()}`;
  }
  const built = /\.next\/(.*)$/.exec(clean);
  if (built) return `.next/${built[1]}`;
  if (clean.startsWith('node:')) return clean;
  return path.basename(clean);
}

/** Self time and time-on-stack per function and per file, from a .cpuprofile. */
export function summarizeProfile(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const fnKey = (f: CallFrame) => `${f.functionName || '(anonymous)'}\u0000${shortWhere(f.url)}:${f.lineNumber + 1}`;
  const fileKey = (f: CallFrame) => shortWhere(f.url);
  const selfFn = new Map<string, number>();
  const totalFn = new Map<string, number>();
  const selfFile = new Map<string, number>();
  const totalFile = new Map<string, number>();
  let total = 0;
  let idle = 0;
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  profile.samples.forEach((id, i) => {
    const delta = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(id);
    if (!node) return;
    total += delta;
    if (node.callFrame.functionName === '(idle)') {
      idle += delta;
      return;
    }
    add(selfFn, fnKey(node.callFrame), delta);
    add(selfFile, fileKey(node.callFrame), delta);
    const seenFn = new Set<string>();
    const seenFile = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)!.callFrame;
      seenFn.add(fnKey(frame));
      seenFile.add(fileKey(frame));
    }
    for (const k of seenFn) add(totalFn, k, delta);
    for (const k of seenFile) add(totalFile, k, delta);
  });
  const busy = Math.max(1, total - idle);
  const functions = [...selfFn.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, ms]) => {
      const [name, where] = k.split('\u0000');
      return { name, where, selfMs: ms, selfPercent: (100 * ms) / busy, totalPercent: (100 * (totalFn.get(k) ?? ms)) / busy };
    });
  const files = [...selfFile.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([where, ms]) => ({ where, selfPercent: (100 * ms) / busy, totalPercent: (100 * (totalFile.get(where) ?? ms)) / busy }));
  return { file, sampledMs: total, busyMs: busy, functions, files };
}

/** Asks the server (preloaded with cpu-profiler.mjs) to start or stop-and-write its profile. */
export function toggleProfiler(serverPid: number): void {
  process.kill(serverPid, 'SIGUSR2');
}

export async function waitForProfile(dir: string, known: ReadonlySet<string>, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const fresh = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.cpuprofile') && !known.has(f)) : [];
    if (fresh.length) return path.join(dir, fresh[0]);
    await sleep(200);
  }
  throw new Error(`No CPU profile appeared in ${dir}`);
}
