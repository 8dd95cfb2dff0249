import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sourceFingerprint, writeBuildStamp } from '../../scripts/build-stamp.mjs';
import { onCleanup, run } from './processes';

// The same fingerprint and stamp as scripts/start.mjs, so that after the harness's timed build,
// `node scripts/start.mjs` sees an up-to-date build and starts without building again.
export { buildIsCurrent, sourceFingerprint } from '../../scripts/build-stamp.mjs';

/** `next build`, timed; then the stamp that tells scripts/start.mjs the build is current. */
export async function timedBuild(root: string): Promise<{ seconds: number; fingerprint: string }> {
  const fingerprint = sourceFingerprint(root);
  const result = await run(path.join(root, 'node_modules', '.bin', 'next'), ['build'], {
    cwd: root,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    label: 'next build',
  });
  writeBuildStamp(root, fingerprint);
  return { seconds: result.ms / 1000, fingerprint };
}

/** `npm ci --ignore-scripts` of this package.json + package-lock.json into an empty temp dir, timed. */
export async function timedNpmCi(root: string): Promise<{ seconds: number; dir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'nf-bench-npmci-'));
  const forget = onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  try {
    copyFileSync(path.join(root, 'package.json'), path.join(dir, 'package.json'));
    copyFileSync(path.join(root, 'package-lock.json'), path.join(dir, 'package-lock.json'));
    const result = await run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      env: process.env,
      label: 'npm ci',
    });
    return { seconds: result.ms / 1000, dir };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    forget();
  }
}
