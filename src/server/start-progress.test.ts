import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPhase, buildWatch, formatElapsed, HEARTBEAT_MS, missingInstall, TYPE_CHECK_NOTICE } from '../../scripts/start-progress.mjs';

/* What `npm start` says while it builds (scripts/start-progress.mjs), with a clock of the test's own. */

/** A build watch whose lines are collected, started at time 0. */
function watched() {
  const said: string[] = [];
  return { said, watch: buildWatch({ startedAt: 0, write: (line) => said.push(line) }) };
}

describe('formatElapsed', () => {
  it('says seconds, then minutes and seconds', () => {
    expect(formatElapsed(0)).toBe('0 s');
    expect(formatElapsed(44_600)).toBe('45 s');
    expect(formatElapsed(60_000)).toBe('1 min 00 s');
    expect(formatElapsed(245_000)).toBe('4 min 05 s');
  });
});

describe('buildPhase', () => {
  it("names next build's phases by the lines that start them, and nothing for other lines", () => {
    expect(buildPhase('   Creating an optimized production build ...')).toBe('compiling');
    expect(buildPhase('   Running TypeScript ...')).toBe('type checking');
    expect(buildPhase('   Linting and checking validity of types ...')).toBe('type checking');
    expect(buildPhase('   Collecting page data ...')).toBe('collecting page data');
    expect(buildPhase(' ✓ Generating static pages (12/12)')).toBe('generating static pages');
    expect(buildPhase('Route (app)')).toBeNull();
    expect(buildPhase('')).toBeNull();
  });
});

describe('buildWatch', () => {
  it('says nothing while the build speaks, and the phase and time every 15 s of silence', () => {
    const { said, watch } = watched();
    watch.tick(HEARTBEAT_MS - 1);
    expect(said).toEqual([]);
    watch.tick(HEARTBEAT_MS);
    expect(said).toEqual(['Ninefold: still building (15 s so far)...']);
    watch.output('   Creating an optimized production build ...\n', 20_000);
    watch.tick(34_000);
    expect(said).toHaveLength(1);
    watch.tick(35_000);
    watch.tick(40_000);
    watch.tick(50_000);
    expect(said.slice(1)).toEqual(['Ninefold: still compiling (35 s so far)...', 'Ninefold: still compiling (50 s so far)...']);
  });

  it('says before the silent type check that it will be silent, once, then keeps time through it', () => {
    const { said, watch } = watched();
    watch.output(' ✓ Compiled successfully in 95s\n   Running TypeScript ...\n', 95_000);
    expect(said).toEqual([TYPE_CHECK_NOTICE]);
    watch.output('   Running TypeScript ...\n', 96_000);
    for (let t = 97_000; t <= 230_000; t += 1000) watch.tick(t);
    expect(said.slice(1)).toEqual([
      'Ninefold: still type checking (1 min 51 s so far)...',
      'Ninefold: still type checking (2 min 06 s so far)...',
      'Ninefold: still type checking (2 min 21 s so far)...',
      'Ninefold: still type checking (2 min 36 s so far)...',
      'Ninefold: still type checking (2 min 51 s so far)...',
      'Ninefold: still type checking (3 min 06 s so far)...',
      'Ninefold: still type checking (3 min 21 s so far)...',
      'Ninefold: still type checking (3 min 36 s so far)...',
    ]);
  });

  it('starts its own line when the build stopped in the middle of one', () => {
    const { said, watch } = watched();
    watch.output('   Running TypeScript ...', 1000);
    expect(said).toEqual([`\n${TYPE_CHECK_NOTICE}`]);
    watch.tick(1000 + HEARTBEAT_MS);
    expect(said[1]).toBe('Ninefold: still type checking (16 s so far)...');
  });
});

describe('missingInstall', () => {
  it('asks for npm ci when the dependencies are not installed', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'nf-start-'));
    expect(missingInstall(root)).toMatch(/Run `npm ci` first/);
    mkdirSync(path.join(root, 'node_modules', 'next'), { recursive: true });
    writeFileSync(path.join(root, 'node_modules', 'next', 'package.json'), '{}');
    expect(missingInstall(root)).toBeNull();
  });
});
