import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { onCleanup, run } from './processes';

// The same inputs and stamp as scripts/start.mjs, so that after the harness's timed build,
// `node scripts/start.mjs` sees an up-to-date build and starts without building again.
const INPUTS = ['src', 'public', 'next.config.ts', 'postcss.config.mjs', 'tsconfig.json', 'package-lock.json'];

function files(root: string, entry: string): string[] {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [entry];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && !/\.test\.tsx?$/.test(d.name))
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)))
    .sort();
}

export function sourceFingerprint(root: string): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((entry) => files(root, entry))) hash.update(file).update('\0').update(readFileSync(path.join(root, file)));
  return hash.digest('hex');
}

/** Whether scripts/start.mjs would start without building (the stamp matches the sources). */
export function buildIsCurrent(root: string): boolean {
  const stamp = path.join(root, '.next', 'ninefold-build.json');
  if (!existsSync(path.join(root, '.next', 'BUILD_ID')) || !existsSync(stamp)) return false;
  try {
    return (JSON.parse(readFileSync(stamp, 'utf8')) as { fingerprint?: string }).fingerprint === sourceFingerprint(root);
  } catch {
    return false;
  }
}

/** `next build`, timed; then the stamp that tells scripts/start.mjs the build is current. */
export async function timedBuild(root: string): Promise<{ seconds: number; fingerprint: string }> {
  const fingerprint = sourceFingerprint(root);
  const result = await run(path.join(root, 'node_modules', '.bin', 'next'), ['build'], {
    cwd: root,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    label: 'next build',
  });
  writeFileSync(path.join(root, '.next', 'ninefold-build.json'), JSON.stringify({ fingerprint, builtAt: new Date().toISOString() }));
  return { seconds: result.ms / 1000, fingerprint };
}

/** `npm ci --ignore-scripts` of this package.json + package-lock.json into an empty temp dir, timed. */
export async function timedNpmCi(root: string): Promise<{ seconds: number; dir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'nf-bench-npmci-'));
  const forget = onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  try {
    copyFileSync(path.join(root, 'package.json'), path.join(dir, 'package.json'));
    copyFileSync(path.join(root, 'package-lock.json'), path.join(dir, 'package-lock.json'));
    const result = await run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, env: process.env, label: 'npm ci' });
    return { seconds: result.ms / 1000, dir };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    forget();
  }
}
