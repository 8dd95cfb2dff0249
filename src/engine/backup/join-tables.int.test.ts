import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedEmptyPglite } from '@testing/engine/ops';
import { seedDemoData } from '../seed/seed-demo-data';
import { buildModel } from '../spec/build';
import { openStore } from '../store/open-store';
import { syncSchema } from '../store/schema/sync';
import { forEachDatabase, type TestDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import type { BackupHeader } from './format';
import { exportBackup } from './export';
import { importBackup } from './import';

/** The pairs of a references field (join tables) are data: a backup copies them after both ends. */
const model = buildModel({
  name: 'news',
  entities: {
    tag: { titleField: 'name', fields: { name: { type: 'text', required: true } } },
    article: {
      titleField: 'title',
      fields: { title: { type: 'text', required: true }, tags: { type: 'references', to: 'tag', maxItems: 5 } },
    },
  },
});
const quiet = { start: () => {}, advance: () => {}, stop: () => {} };

forEachDatabase('backup: join tables of references fields', (database: TestDatabase) => {
  const opened: Store[] = [];
  let backup: string[];
  let source: Store;
  let target: Store;

  async function fresh(): Promise<Store> {
    const options = await database.freshOptions();
    if (database.kind === 'pglite') await seedEmptyPglite(options.dataDir);
    const store = await openStore(options);
    opened.push(store);
    await syncSchema(store, model);
    return store;
  }
  const pairs = async (store: Store) =>
    (
      await sql<{ record_id: string; target_id: string }>`select record_id::text, target_id::text from article__tags order by 1, 2`.execute(
        store.db,
      )
    ).rows;

  beforeAll(async () => {
    source = await fresh();
    await seedDemoData(model, source.db, 60, quiet);
    backup = [];
    for await (const line of exportBackup(source.db, { kind: source.kind })) backup.push(line);
    target = await fresh();
    await importBackup(
      target.db,
      (async function* () {
        yield* backup;
      })(),
      { model },
    );
  }, 180_000);
  afterAll(async () => {
    await Promise.allSettled(opened.map((s) => s.close()));
  });

  it('copies the pairs, after the articles and the tags', async () => {
    const header = JSON.parse(backup[0]!) as BackupHeader;
    const order = header.tables.map((t) => t.name);
    expect(order.indexOf('article__tags')).toBeGreaterThan(order.indexOf('article'));
    expect(order.indexOf('article__tags')).toBeGreaterThan(order.indexOf('tag'));
    const before = await pairs(source);
    expect(before.length).toBeGreaterThan(0);
    expect(await pairs(target)).toEqual(before);
  });
});
