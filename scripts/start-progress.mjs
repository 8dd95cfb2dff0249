// What `npm start` says while it gets ready: the first start builds for about five minutes on two
// cores, and `next build` prints nothing for about two of them while it checks types, which reads
// as a hang. So each step says what it does, and a silent build says every 15 s that it is still
// at it and for how long. Pure functions of their input (the clock included), tested in
// src/server/start-progress.test.ts.
import { existsSync } from 'node:fs';
import path from 'node:path';

/** Silence in the build's output after which a line says it is still going. */
export const HEARTBEAT_MS = 15_000;

/** "45 s", "4 min 05 s". */
export function formatElapsed(ms) {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/** `next build`'s phases, by the line that starts each (Next.js 16); the first that matches wins. */
const PHASES = [
  { pattern: /Creating an optimized production build|Compiling/i, phase: 'compiling' },
  { pattern: /Running TypeScript|checking validity of types/i, phase: 'type checking' },
  { pattern: /Collecting page data/i, phase: 'collecting page data' },
  { pattern: /Generating static pages/i, phase: 'generating static pages' },
  { pattern: /Finalizing page optimization|Collecting build traces/i, phase: 'finishing' },
];

/** The phase of the build a line of its output starts, or null for any other line. */
export function buildPhase(line) {
  return PHASES.find(({ pattern }) => pattern.test(line))?.phase ?? null;
}

/** Said before the type check, the one long phase with no output of its own. */
export const TYPE_CHECK_NOTICE =
  'Ninefold: type checking (silent for about two minutes on two cores; a line every 15 s says it is still going)...';

/**
 * Follows the build's output as it is forwarded: `output` with each chunk, `tick` every second
 * or so. Says the type check before it starts, and on a tick after `heartbeatMs` without output,
 * the phase and the time since `startedAt`. `write` takes whole lines; one written while the build
 * is in the middle of a line starts on a line of its own.
 */
export function buildWatch({ startedAt, write, heartbeatMs = HEARTBEAT_MS }) {
  let phase = 'building';
  let lastOutput = startedAt;
  let midLine = false;
  const say = (line) => {
    write(midLine ? `\n${line}` : line);
    midLine = false;
  };
  return {
    output(text, now) {
      lastOutput = now;
      if (text === '') return;
      midLine = !text.endsWith('\n');
      for (const line of text.split('\n')) {
        const next = buildPhase(line);
        if (next === null || next === phase) continue;
        phase = next;
        if (next === 'type checking') say(TYPE_CHECK_NOTICE);
      }
    },
    tick(now) {
      if (now - lastOutput < heartbeatMs) return;
      say(`Ninefold: still ${phase} (${formatElapsed(now - startedAt)} so far)...`);
      lastOutput = now;
    },
  };
}

/** Why the app cannot start from this checkout, or null: its dependencies must be installed first. */
export function missingInstall(root) {
  return existsSync(path.join(root, 'node_modules', 'next', 'package.json'))
    ? null
    : 'Ninefold could not start: its dependencies are not installed. Run `npm ci` first, then `npm start`.';
}
