import { expect, it } from 'vitest';
import { openSyncedQuickly } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import type { AppSpec } from '../spec/types';
import { forEachDatabase } from '@testing/engine/store';
import { seedDemoData } from './seed-demo-data';
import { problemsOfSeededRecords } from '@testing/engine/seeded-records';
import { computeValue, type ComputedFieldModel } from '../computed/evaluate';

const quiet = { start: () => {}, advance: () => {}, stop: () => {} };

/** Articles named by slugs from few words (so that they collide), priced lines with totals. */
const shop = {
  name: 'computed-seed',
  entities: {
    article: {
      titleField: 'title',
      fields: {
        title: { type: 'enum', values: ['News', 'Notes'], required: true },
        heading: { type: 'text', required: true, maxLength: 12 },
        slug: { type: 'text', computed: { slug: 'heading' } },
      },
    },
    line: {
      titleField: 'label',
      fields: {
        label: { type: 'text', required: true, maxLength: 40 },
        quantity: { type: 'integer', required: true, min: 1, max: 9 },
        unitPrice: { type: 'decimal', required: true, min: 0, max: 100 },
        total: { type: 'decimal', computed: { multiply: [{ field: 'quantity' }, { field: 'unitPrice' }] } },
      },
    },
  },
  roles: { clerk: {} },
  permissions: {
    article: { clerk: { list: true, read: true, create: true } },
    line: { clerk: { list: true, read: true, create: true } },
  },
} as unknown as AppSpec;

forEachDatabase('demo data with computed fields', (database) => {
  it('sets computed values as ops would, slugs numbered where titles repeat', async () => {
    const model = buildModel(shop);
    const store = await openSyncedQuickly(database, model);
    await seedDemoData(model, store.db, 60, quiet);
    expect(await problemsOfSeededRecords(model, store.db)).toEqual([]);
    const total = model.entitiesByName.line!.fieldsByName.total as ComputedFieldModel;
    const lines = await store.db.selectFrom('line').select(['quantity', 'unit_price', 'total']).execute();
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.total).toBe(computeValue(total, { quantity: line.quantity, unitPrice: line.unit_price }));
    const slugs = (await store.db.selectFrom('article').select('slug').execute()).map((r) => r.slug);
    expect(slugs.every((s) => typeof s === 'string' && s !== '')).toBe(true);
    expect(new Set(slugs).size).toBe(slugs.length);
  });
});
