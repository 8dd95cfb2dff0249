// Whether the build in .next is the build of the current sources: a hash of every input of
// `next build`, written next to the build. Shared by `npm start` (build only when needed) and the
// bench (which times the build itself, then lets `npm start` start without building again).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildWatch, formatElapsed } from './start-progress.mjs';

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
 * The build's output is passed through, with a line every 15 s while it is silent (start-progress.mjs).
 */
export async function buildWhenNeeded(root) {
  const current = sourceFingerprint(root);
  if (buildIsCurrent(root, current)) {
    console.log('Ninefold: the build is current (no source changed since it was made).');
    return false;
  }
  console.log('Ninefold: building the app (no build yet, or the sources changed): about five minutes on two cores the first time...');
  const startedAt = Date.now();
  const status = await runNextBuild(root, startedAt);
  if (status !== 0) process.exit(status);
  writeBuildStamp(root, current);
  console.log(`Ninefold: built in ${formatElapsed(Date.now() - startedAt)}.`);
  return true;
}

/** `next build` with its output forwarded through a watch that speaks up when it is silent; its exit status. */
function runNextBuild(root, startedAt) {
  const next = path.join(root, 'node_modules', '.bin', 'next');
  // Piped, Next.js would drop its colours: kept when this process writes to a terminal.
  const colour = process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1' } : {};
  const child = spawn(next, ['build'], {
    cwd: root,
    stdio: ['inherit', 'pipe', 'pipe'],
    env: { ...process.env, ...colour, NEXT_TELEMETRY_DISABLED: '1' },
  });
  const watch = buildWatch({ startedAt, write: (line) => process.stdout.write(`${line}\n`) });
  const forward = (stream, to) =>
    stream.on('data', (chunk) => {
      to.write(chunk);
      watch.output(chunk.toString(), Date.now());
    });
  forward(child.stdout, process.stdout);
  forward(child.stderr, process.stderr);
  const timer = setInterval(() => watch.tick(Date.now()), 1000);
  return new Promise((resolve) => {
    child.on('error', (error) => {
      clearInterval(timer);
      console.error(`Ninefold: could not run next build: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code) => {
      clearInterval(timer);
      resolve(code ?? 1);
    });
  });
}
