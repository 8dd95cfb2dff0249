import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
  /** The app's own functions (src/, examples/) by time on the stack. */
  readonly appFunctions: readonly HotSpot[];
  /** Files (or packages) by self time, and by time on the stack. */
  readonly files: readonly { readonly where: string; readonly selfPercent: number; readonly totalPercent: number }[];
}

/** Where a frame comes from, short: a package's file, a file of the app, or a Node/V8 internal. */
export function shortWhere(file: string): string {
  if (!file) return '(native)';
  const clean = file.replace(/^file:\/\//, '');
  if (clean.startsWith('node:')) return clean;
  const inModules = clean.lastIndexOf('node_modules/');
  if (inModules >= 0) {
    // Next's compiled copies (react-dom, ...) say more by the package they copy than by "next".
    return clean
      .slice(inModules + 'node_modules/'.length)
      .replace(/^next\/dist\/compiled\//, '')
      .replace(/\/(dist|cjs|esm|lib)\//g, '/');
  }
  const built = clean.indexOf('.next/');
  if (built >= 0) return clean.slice(built);
  const src = clean.search(/\/(src|bench|examples)\//);
  return src >= 0 ? clean.slice(src + 1) : path.basename(clean);
}

interface Original {
  readonly file: string;
  readonly line: number;
  readonly name: string | null;
}

/**
 * Maps profile frames of the minified server bundles (Next's runtime, Turbopack's chunks) back to
 * the original file, line and, where the source says it, the function's name.
 */
class FrameMapper {
  private readonly maps = new Map<string, { map: SourceMap; dir: string } | null>();
  private readonly lines = new Map<string, string[] | null>();

  constructor(private readonly root: string) {}

  private mapOf(url: string): { map: SourceMap; dir: string } | null {
    if (!this.maps.has(url)) {
      let found: { map: SourceMap; dir: string } | null = null;
      try {
        const file = url.startsWith('file://') ? fileURLToPath(url) : url;
        if (file.startsWith('/') && existsSync(`${file}.map`)) {
          found = { map: new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))), dir: path.dirname(file) };
        }
      } catch {
        found = null;
      }
      this.maps.set(url, found);
    }
    return this.maps.get(url) ?? null;
  }

  private resolveSource(source: string, dir: string): string {
    const webpack = /^webpack:\/\/next\/\.?\/?(.*)$/.exec(source)?.[1];
    if (webpack !== undefined) return path.join(this.root, 'node_modules', 'next', webpack);
    const turbo = /^turbopack:\/\/\/\[project\]\/(.*)$/.exec(source)?.[1];
    if (turbo !== undefined) return path.join(this.root, turbo);
    if (source.startsWith('file://')) return fileURLToPath(source);
    return path.resolve(dir, decodeURIComponent(source));
  }

  private sourceLine(file: string, line: number): string | null {
    if (!this.lines.has(file)) {
      try {
        this.lines.set(file, readFileSync(file, 'utf8').split('\n'));
      } catch {
        this.lines.set(file, null);
      }
    }
    return this.lines.get(file)?.[line] ?? null;
  }

  original(frame: CallFrame): Original | null {
    const found = this.mapOf(frame.url);
    if (!found) return null;
    const entry = found.map.findEntry(frame.lineNumber, frame.columnNumber) as {
      originalSource?: string;
      originalLine?: number;
      originalColumn?: number;
      name?: string;
    };
    if (!entry.originalSource || entry.originalLine === undefined) return null;
    const file = this.resolveSource(entry.originalSource, found.dir);
    let name = entry.name ?? null;
    if (!name) {
      const text = this.sourceLine(file, entry.originalLine);
      if (text) {
        const around = text.slice(Math.max(0, (entry.originalColumn ?? 0) - 40), (entry.originalColumn ?? 0) + 60);
        const match =
          /(?:function\s*\*?\s*([\w$]+))|(?:([\w$]+)\s*[=:]\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>))|(?:(?:async\s+)?([\w$]+)\s*\([^)]*\)\s*\{)/.exec(
            around,
          );
        name = match?.[1] ?? match?.[2] ?? match?.[3] ?? null;
      }
    }
    return { file, line: entry.originalLine + 1, name };
  }
}

/** Self time and time-on-stack per function and per file, from a .cpuprofile. */
export function summarizeProfile(file: string, root: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const mapper = new FrameMapper(root);
  const resolved = new Map<number, { fn: string; file: string }>();
  const keysOf = (node: ProfileNode) => {
    let keys = resolved.get(node.id);
    if (!keys) {
      const f = node.callFrame;
      const original = mapper.original(f);
      const minified = f.functionName || '(anonymous)';
      if (original) {
        const where = shortWhere(original.file);
        const name = original.name && original.name !== minified ? original.name : minified;
        keys = { fn: `${name}\u0000${where}:${original.line}`, file: where };
      } else {
        keys = { fn: `${minified}\u0000${shortWhere(f.url)}${f.url ? `:${f.lineNumber + 1}` : ''}`, file: shortWhere(f.url) };
      }
      resolved.set(node.id, keys);
    }
    return keys;
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
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
    add(selfFn, keysOf(node).fn, delta);
    add(selfFile, keysOf(node).file, delta);
    const seenFn = new Set<string>();
    const seenFile = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const keys = keysOf(byId.get(cur)!);
      seenFn.add(keys.fn);
      seenFile.add(keys.file);
    }
    for (const k of seenFn) add(totalFn, k, delta);
    for (const k of seenFile) add(totalFile, k, delta);
  });
  const busy = Math.max(1, total - idle);
  const functions = [...selfFn.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, ms]) => {
      // Keys are "<name>\u0000<where>" (made above).
      const [name = '', where = ''] = k.split('\u0000');
      return { name, where, selfMs: ms, selfPercent: (100 * ms) / busy, totalPercent: (100 * (totalFn.get(k) ?? ms)) / busy };
    });
  const appFunctions = [...totalFn.entries()]
    .filter(([k]) => /\u0000(src|examples)\//.test(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, ms]) => {
      // Keys are "<name>\u0000<where>" (made above).
      const [name = '', where = ''] = k.split('\u0000');
      const self = selfFn.get(k) ?? 0;
      return { name, where, selfMs: self, selfPercent: (100 * self) / busy, totalPercent: (100 * ms) / busy };
    });
  const files = [...selfFile.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([where, ms]) => ({ where, selfPercent: (100 * ms) / busy, totalPercent: (100 * (totalFile.get(where) ?? ms)) / busy }));
  return { file, sampledMs: total, busyMs: busy, functions, appFunctions, files };
}

/** Asks the server (preloaded with cpu-profiler.mjs) to start or stop-and-write its profile. */
export function toggleProfiler(serverPid: number): void {
  process.kill(serverPid, 'SIGUSR2');
}

export async function waitForProfile(dir: string, known: ReadonlySet<string>, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const fresh = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.cpuprofile') && !known.has(f)) : [];
    const [first] = fresh;
    if (first !== undefined) return path.join(dir, first);
    await sleep(200);
  }
  throw new Error(`No CPU profile appeared in ${dir}`);
}
