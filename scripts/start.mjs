#!/usr/bin/env node
// `npm start`: builds the app when its sources changed since the last build, then serves it.
// The spec is loaded when the server starts (NINEFOLD_SPEC), so changing it needs a restart,
// not a rebuild.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const next = path.join(root, 'node_modules', '.bin', 'next');
const stamp = path.join(root, '.next', 'ninefold-build.json');
const INPUTS = ['src', 'public', 'next.config.ts', 'postcss.config.mjs', 'tsconfig.json', 'package-lock.json'];

function files(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [entry];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && !/\.test\.tsx?$/.test(d.name))
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)))
    .sort();
}

function fingerprint() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(files)) hash.update(file).update('\0').update(readFileSync(path.join(root, file)));
  return hash.digest('hex');
}

const current = fingerprint();
const built = existsSync(path.join(root, '.next', 'BUILD_ID')) && existsSync(stamp) && JSON.parse(readFileSync(stamp, 'utf8')).fingerprint === current;
if (!built) {
  console.log('Ninefold: building the app (sources changed or no build yet)...');
  const result = spawnSync(next, ['build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(stamp, JSON.stringify({ fingerprint: current, builtAt: new Date().toISOString() }));
}

const port = process.env.PORT || '3000';
const server = spawn(next, ['start', '-p', port, ...(process.env.HOSTNAME_BIND ? ['-H', process.env.HOSTNAME_BIND] : [])], {
  cwd: root,
  stdio: 'inherit',
  // The engine closes the embedded database itself on SIGTERM/SIGINT, then exits.
  env: { ...process.env, NEXT_MANUAL_SIG_HANDLE: '1', NEXT_TELEMETRY_DISABLED: '1', NINEFOLD_ROOT: root },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
