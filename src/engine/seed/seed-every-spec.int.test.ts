import { readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpecFile } from '../spec/load-file';
import { openSyncedQuickly } from '@testing/engine/ops';
import { forEachDatabase } from '@testing/engine/store';
import { syncSchema } from '../store/schema/sync';
import type { Store } from '../store/types';
import { seedDemoData, type SeedResult } from './seed-demo-data';
import { problemsOfSeededRecords } from '@testing/engine/seeded-records';

/**
 * `seed` on every spec the project has (the examples, the browser tests' and the bench's specs,
 * and the fixtures here, written like specs from outside the team: a unique account per
 * practitioner, slugs with a pattern, loans checked out at creation and returned later, an order's
 * lines unique per product, a holiday per day, a shift per nurse per day approved by someone else),
 * then every record read back and checked with the engine's own validation
 * (seeded-records-testing.ts).
 */
const quiet = { start: () => {}, advance: () => {}, stop: () => {} };
// Enough for every entity, reference and walk to occur; running out of values is seed-unique.int.test.ts.
const COUNT = 60;

function specFiles(folder: string, ending: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return folder === 'examples' ? specFiles(file, ending) : [];
    return entry.name.endsWith(ending) ? [file] : [];
  });
}

const files = [
  ...specFiles('examples', 'ninefold.spec.ts'),
  ...specFiles('tests/browser/specs', '.spec.ts'),
  ...specFiles('bench/specs', '.spec.ts'),
  ...specFiles('src/engine/seed/fixtures', '.spec.ts'),
];

it('finds the specs to seed', () => {
  expect(files).toEqual(
    expect.arrayContaining([
      'examples/helpdesk/ninefold.spec.ts',
      'src/engine/seed/fixtures/clinic.spec.ts',
      'tests/browser/specs/ledger.spec.ts',
    ]),
  );
  expect(files.length).toBeGreaterThanOrEqual(13);
});

forEachDatabase('seed on every spec', (database) => {
  // One database for all the specs, emptied between them: opening one per spec (PGlite's start,
  // PostgreSQL's CREATE DATABASE) cost more than seeding and checking them.
  let store: Store;
  beforeAll(async () => {
    store = await openSyncedQuickly(database, await loadSpecFile(files[0]!));
  }, 180_000);

  for (const file of files) {
    describe(file, () => {
      let result: SeedResult;
      const model = loadSpecFile(file);

      beforeAll(async () => {
        await sql`drop schema public cascade`.execute(store.db);
        await sql`create schema public`.execute(store.db);
        await syncSchema(store, await model);
        result = await seedDemoData(await model, store.db, COUNT, quiet);
      }, 180_000);

      it('seeds every entity as planned', async () => {
        expect(result.short).toEqual([]);
        for (const entity of (await model).entities) expect(result.rows[entity.name], entity.name).toBeGreaterThan(0);
      });

      it('writes only records that pass the spec’s own validation, at every step of their history', async () => {
        expect(await problemsOfSeededRecords(await model, store.db)).toEqual([]);
      });
    });
  }
});
