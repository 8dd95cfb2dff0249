import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { openTestEngine } from '@testing/api/api';
import type { ImportProgress } from '@/engine/csv/import-csv';
import type { TestEngine } from '@testing/engine/engine';
import { REFUSED_ROWS_LISTED } from '@/engine/ops/create-many';
import { countRows, createActor, testSpec } from '@testing/engine/ops';
import { buildModel } from '@/engine/spec/build';
import type { Actor } from '@/engine/ground/actor';
import { forEachDatabase } from '@testing/engine/store';
import { IMPORT_PROBLEMS_SHOWN } from '@/ui/csv/import-state';
import { runImport } from './import-run';

vi.mock('server-only', () => ({}));
// For `gc()`: the heap an import holds is measured without its garbage.
setFlagsFromString('--expose-gc');

/** USER_HZ: the clock ticks per second of /proc's CPU times (100 on Linux). */
const USER_HZ = 100;

/**
 * CPU time of this process's main thread (the event loop's), from /proc on Linux: the PGlite
 * worker and the garbage collector's helper threads are not counted. Elsewhere, the process's.
 */
function mainThreadCpuMs(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After "(comm)": state is field 3, so utime (14) and stime (15) are at 11 and 12 here.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
  } catch {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  }
}

/** The heap in use once the garbage is collected: what is still held. */
const collectGarbage = runInNewContext('gc') as () => void;
function heldHeapMb(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

/**
 * What the event loop and the heap went through while `work` ran (given where to report its
 * progress). `heldMs`: the longest the event loop was held. A tick of the loop comes late either
 * because this process's main thread was busy or because other processes had the CPU (this
 * machine runs many, and an idle loop's ticks come up to ~130 ms late under that load), so a late
 * tick counts for no more than the CPU time the main thread spent meanwhile. `peakMb`: the most
 * the heap grew, garbage included; `retainedMb`: the most it held at a progress report, and
 * `leftMb` once done, garbage collected.
 */
async function watched<T>(
  work: (onProgress: (progress: ImportProgress) => void) => Promise<T>,
): Promise<{ result: T; heldMs: number; peakMb: number; retainedMb: number; leftMb: number }> {
  const baseline = heldHeapMb();
  let peak = process.memoryUsage().heapUsed;
  let retained = baseline;
  let heldMs = 0;
  let tick = { at: performance.now(), cpuMs: mainThreadCpuMs() };
  const sample = () => {
    const now = { at: performance.now(), cpuMs: mainThreadCpuMs() };
    heldMs = Math.max(heldMs, Math.min(now.at - tick.at, now.cpuMs - tick.cpuMs));
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    tick = now;
  };
  const sampler = setInterval(sample, 5);
  try {
    const result = await work((progress) => {
      // At the end of each phase, when it holds the most.
      if (progress.done < progress.total) return;
      sample();
      retained = Math.max(retained, heldHeapMb());
      // The collection just now was the test's own doing, not the import's.
      tick = { at: performance.now(), cpuMs: mainThreadCpuMs() };
    });
    sample();
    const leftMb = heldHeapMb() - baseline;
    return { result, heldMs, peakMb: peak / 1024 / 1024 - baseline, retainedMb: retained - baseline, leftMb };
  } finally {
    clearInterval(sampler);
  }
}

/** The test helpdesk with staff's cap halved, to keep the test quick: the largest import staff may make. */
const STAFF_CAP = 50_000;
const model = buildModel({ ...testSpec, constants: { ...testSpec.constants, importMaxRows: { value: STAFF_CAP } } });

/** The file: a header, then `rows` rows of a two-letter subject (too short: every row is refused), 3 bytes each. */
const invalidTickets = (rows: number) => new TextEncoder().encode(`Subject\n${'xx\n'.repeat(rows)}`);

forEachDatabase(
  'CSV import through the page’s server function: a large file of bad rows neither holds the event loop nor fills memory',
  (database) => {
    let engine: TestEngine;
    let customer: Actor;
    let agent: Actor;
    const ticket = () => model.entitiesByName.ticket!;

    beforeAll(async () => {
      engine = await openTestEngine(database, model);
      customer = await createActor(engine.store.db, ['customer'], 'Carl Customer');
      agent = await createActor(engine.store.db, ['agent'], 'Grace Agent');
    });
    afterAll(() => engine.close());

    it('refuses a customer’s 1 MB file of 349,525 rows at its cap, in the catalogue’s words, reading no further and writing nothing', async () => {
      const file = invalidTickets(349_525);
      expect(file.length).toBeGreaterThan(1_000_000);
      const before = await countRows(engine.store.db, 'ticket');
      const { result, heldMs, peakMb, leftMb } = await watched(() =>
        runImport(engine, customer, ticket(), { name: 'flood.csv', bytes: file }, false),
      );
      expect(result).toEqual({
        kind: 'refused',
        fileName: 'flood.csv',
        title: 'The file is too large',
        message: 'The file has more than 1,000 rows; at most 1,000 tickets can be imported at once. Split it into smaller files.',
        problems: [],
      });
      expect(await countRows(engine.store.db, 'ticket')).toBe(before);
      expect(heldMs).toBeLessThan(100);
      expect(peakMb).toBeLessThan(32);
      expect(leftMb).toBeLessThan(4);
    });

    it('checks a staff member’s file of bad rows as large as their cap in slices, lists the first problems and counts the rest', async () => {
      const rows = STAFF_CAP;
      const before = await countRows(engine.store.db, 'ticket');
      const { result, heldMs, retainedMb, leftMb } = await watched((onProgress) =>
        runImport(engine, agent, ticket(), { name: 'bad.csv', bytes: invalidTickets(rows) }, true, onProgress),
      );
      if (result.kind !== 'done') throw new Error(`expected an outcome, got ${JSON.stringify(result)}`);
      expect([result.rows, result.created, result.refusedRows]).toEqual([rows, 0, rows]);
      expect(result.problems).toHaveLength(IMPORT_PROBLEMS_SHOWN);
      expect(result.problems[0]).toEqual({ line: 2, column: 'Subject', message: 'Subject must be at least 3 characters.' });
      expect(result.unlistedRows).toBe(rows - IMPORT_PROBLEMS_SHOWN);
      // Not every refused row is at hand (REFUSED_ROWS_LISTED are), so no file of them is offered.
      expect(REFUSED_ROWS_LISTED).toBeLessThan(rows);
      expect(result.rejects).toBeNull();
      expect(await countRows(engine.store.db, 'ticket')).toBe(before);
      expect(heldMs).toBeLessThan(100);
      // The rows themselves (a few hundred bytes each), not a refusal per row; all of it given back.
      expect(retainedMb).toBeLessThan(24);
      expect(leftMb).toBeLessThan(4);
    });
  },
);
