import { expect, it } from 'vitest';
import { openSyncedQuickly } from '@testing/engine/ops';
import { problemsOfSeededRecords } from '@testing/engine/seeded-records';
import { forEachDatabase } from '@testing/engine/store';
import { buildModel } from '../spec/build';
import type { AppSpec } from '../spec/types';
import { seedDemoData } from './seed-demo-data';

/*
 * An entity's `samples`: the seed writes only those texts for the fields named (a unique one
 * each sample as written first, then with a number), and made-up texts for the others.
 */
const quiet = { start: () => {}, advance: () => {}, stop: () => {} };

const COMPANIES = ['Northwind Traders', 'Blue Harbour Foods', 'Kestrel Logistics'];
const TITLES = ['Annual licence renewal', 'Pilot for the sales team', 'Support contract for two sites'];
/** As many as the titles: each goes with the title at its place. */
const SUMMARIES = ['Renews the licence for a year.', 'Two weeks of trial for the support team.', 'Covers the head office and the depot.'];
const NOTES = ['Met at the **trade fair** in March.\n\n- budget approved\n- decision after their board meeting', 'Prefers email.'];

const sales: AppSpec = {
  name: 'sales',
  entities: {
    company: {
      titleField: 'name',
      fields: { name: { type: 'text', required: true, unique: true, maxLength: 40 }, city: { type: 'text' } },
      samples: { name: COMPANIES },
    },
    deal: {
      titleField: 'title',
      fields: {
        title: { type: 'text', required: true, maxLength: 80 },
        summary: { type: 'text', maxLength: 80 },
        company: { type: 'reference', to: 'company', required: true },
        notes: { type: 'markdown', maxLength: 2000 },
      },
      samples: { title: TITLES, summary: SUMMARIES, notes: NOTES },
    },
  },
  roles: { admin: {}, seller: {} },
  permissions: {
    company: { seller: { list: true, read: true, create: true } },
    deal: { seller: { list: true, read: true, create: true } },
  },
};

forEachDatabase('seed: an entity with samples', (database) => {
  it('writes only the samples for the fields named, a unique one kept unique, lists of one length together', async () => {
    const model = buildModel(sales);
    const store = await openSyncedQuickly(database, model);
    const result = await seedDemoData(model, store.db, 40, quiet);
    expect(result.short).toEqual([]);

    const names = (await store.db.selectFrom('company').select('name').orderBy('id').execute()).map((r) => String(r.name));
    expect(names.length).toBeGreaterThan(COMPANIES.length);
    expect(new Set(names).size).toBe(names.length);
    // Every sample as written (none needs a number while one is free), the rest a sample and a number.
    expect(new Set(names.filter((n) => COMPANIES.includes(n)))).toEqual(new Set(COMPANIES));
    expect(names.filter((n) => !COMPANIES.includes(n)).every((n) => COMPANIES.some((c) => new RegExp(`^${c} \\d+$`).test(n)))).toBe(true);

    const deals = await store.db.selectFrom('deal').select(['title', 'summary', 'notes']).execute();
    expect(deals.length).toBeGreaterThan(10);
    expect(new Set(deals.map((d) => String(d.title)))).toEqual(new Set(TITLES));
    // Lists of one length go together: a summary is the one at its title's place.
    const summarised = deals.filter((d) => d.summary !== null);
    expect(summarised.length).toBeGreaterThan(0);
    for (const deal of summarised) expect(SUMMARIES.indexOf(String(deal.summary))).toBe(TITLES.indexOf(String(deal.title)));
    const notes = deals.map((d) => d.notes).filter((n) => n !== null);
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.every((n) => NOTES.includes(String(n)))).toBe(true);
    expect(await problemsOfSeededRecords(model, store.db)).toEqual([]);
  }, 120_000);
});
