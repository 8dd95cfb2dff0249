// Whether the build in .next is the build of the current sources: a hash of every input of
// `next build`, written next to the build. Shared by `npm start` (build only when needed) and the
// bench (which times the build itself, then lets `npm start` start without building again).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const INPUTS = ['src', 'public', 'next.config.mjs', 'postcss.config.mjs', 'tsconfig.json', 'package-lock.json'];

function files(root, entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [entry];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && !/\.test\.tsx?$/.test(d.name))
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)))
    .sort();
}

export function sourceFingerprint(root) {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((entry) => files(root, entry)))
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(root, file)));
  return hash.digest('hex');
}

function stampFile(root) {
  return path.join(root, '.next', 'ninefold-build.json');
}

/** Whether .next holds a build whose stamp matches `fingerprint` (default: the sources now). */
export function buildIsCurrent(root, fingerprint = sourceFingerprint(root)) {
  if (!existsSync(path.join(root, '.next', 'BUILD_ID')) || !existsSync(stampFile(root))) return false;
  try {
    return JSON.parse(readFileSync(stampFile(root), 'utf8')).fingerprint === fingerprint;
  } catch {
    return false;
  }
}

export function writeBuildStamp(root, fingerprint) {
  writeFileSync(stampFile(root), JSON.stringify({ fingerprint, builtAt: new Date().toISOString() }));
}

/**
 * `next build` when .next is not the build of the sources now, then the stamp; exits the process
 * with the build's status when it fails. `npm start` calls it before serving; the browser tests'
 * set-up calls it before their servers start, so that their wait for health never includes a build.
 */
export function buildWhenNeeded(root) {
  const current = sourceFingerprint(root);
  if (buildIsCurrent(root, current)) return false;
  console.log('Ninefold: building the app (sources changed or no build yet)...');
  const next = path.join(root, 'node_modules', '.bin', 'next');
  const result = spawnSync(next, ['build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeBuildStamp(root, current);
  return true;
}
