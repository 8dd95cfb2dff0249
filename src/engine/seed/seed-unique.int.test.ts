import { expect, it } from 'vitest';
import { openSyncedQuickly } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import { loadSpecFile } from '../spec/load-file';
import type { AppSpec } from '../spec/types';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { seedDemoData } from './seed-demo-data';
import { problemsOfSeededRecords } from '@testing/engine/seeded-records';

/*
 * Unique values of every kind when there are only so many: days in a calendar, accounts for
 * practitioners, values of an enum, members for a one-to-one card. The seeder makes as many
 * records as there are free values, says which entity fell short and why, and every record it
 * makes passes the spec's validation.
 */
const quiet = { start: () => {}, advance: () => {}, stop: () => {} };
type Row = Record<string, unknown>;

async function rows(store: Store, table: string): Promise<Row[]> {
  return store.db.selectFrom(table).selectAll().orderBy('id').execute() as Promise<Row[]>;
}

/** A badge colour (a unique enum of three values) and a card per member (a unique, required reference). */
const oneEach: AppSpec = {
  name: 'one-each',
  screens: { navigation: ['card', 'member', 'badge'] },
  entities: {
    member: { titleField: 'name', fields: { name: { type: 'text', required: true, maxLength: 80 } } },
    card: {
      titleField: 'number',
      fields: {
        number: { type: 'text', required: true, unique: true, maxLength: 12 },
        member: { type: 'reference', to: 'member', required: true, unique: true },
      },
    },
    badge: { titleField: 'colour', fields: { colour: { type: 'enum', values: ['red', 'green', 'blue'], required: true, unique: true } } },
  },
  roles: { admin: {}, clerk: {} },
  permissions: {
    member: { clerk: { list: true, read: true, create: true } },
    card: { clerk: { list: true, read: true, create: true } },
    badge: { clerk: { list: true, read: true, create: true } },
  },
};

/** Order lines, the main records, each product at most once per order: five orders of five products hold 25. */
const pairs: AppSpec = {
  name: 'pairs',
  screens: { navigation: ['line', 'order', 'product'] },
  entities: {
    order: { titleField: 'number', fields: { number: { type: 'text', required: true, unique: true, maxLength: 20 } } },
    product: { titleField: 'name', fields: { name: { type: 'text', required: true, maxLength: 80 } } },
    line: {
      titleField: 'product',
      fields: {
        order: { type: 'reference', to: 'order', required: true },
        product: { type: 'reference', to: 'product', required: true },
        quantity: { type: 'integer', required: true, min: 1, max: 9 },
      },
      uniqueTogether: [['order', 'product']],
    },
  },
  roles: { admin: {}, clerk: {} },
  permissions: {
    order: { clerk: { list: true, read: true, create: true } },
    product: { clerk: { list: true, read: true } },
    line: { clerk: { list: true, read: true, create: true } },
  },
};

/** Requests, at most two per requester, with no workflow to take one out of the count. */
const capped: AppSpec = {
  name: 'capped',
  entities: {
    request: {
      titleField: 'subject',
      fields: { subject: { type: 'text', required: true, maxLength: 80 }, requester: { type: 'user', required: true, default: 'actor' } },
      limits: { perRequester: { max: 2, per: 'requester', message: 'Two requests at most.' } },
    },
  },
  roles: { admin: {}, member: {} },
  permissions: { request: { member: { list: { own: 'requester' }, read: { own: 'requester' }, create: true } } },
};

forEachDatabase('seed: a limit no workflow gets records out of', (database) => {
  it('gives each requester one fewer than their limit, and says the entity fell short', async () => {
    const model = buildModel(capped);
    const store = await openSyncedQuickly(database, model);
    const result = await seedDemoData(model, store.db, 100, quiet);
    expect(result.short).toEqual([
      {
        entity: 'request',
        planned: 100,
        reason: 'every requester has as many as the demo gives under the limit perRequester (one fewer, so each can still add one)',
      },
    ]);
    // Five members (the owning role's demo users), two requests each.
    // Five requesters, one request each: one fewer than the limit of two, so each can still send one.
    expect(result.rows.request).toBe(5);
    expect(await problemsOfSeededRecords(model, store.db)).toEqual([]);
  }, 120_000);
});

forEachDatabase('seed: an order holds a product once', (database) => {
  it('makes lines of distinct (order, product) pairs until none is left', async () => {
    const model = buildModel(pairs);
    const store = await openSyncedQuickly(database, model);
    const result = await seedDemoData(model, store.db, 100, quiet);
    expect(result.rows.order).toBe(5);
    expect(result.rows.product).toBe(5);
    expect(result.short.map((s) => s.entity)).toEqual(['line']);
    const lines = (await rows(store, 'line')).map((l) => `${String(l.order)}:${String(l.product)}`);
    expect(lines.length).toBeGreaterThan(18);
    expect(new Set(lines).size).toBe(lines.length);
    expect(await problemsOfSeededRecords(model, store.db)).toEqual([]);
  }, 120_000);
});

forEachDatabase('seed: unique values that run out', (database) => {
  it('gives a holiday calendar one holiday per day within its range, as many as there are days', async () => {
    const model = await loadSpecFile('src/engine/seed/fixtures/holidays.spec.ts');
    const store = await openSyncedQuickly(database, model);
    const result = await seedDemoData(model, store.db, 900, quiet);
    expect(result.short).toEqual([{ entity: 'holiday', planned: 900, reason: 'no free value left for date' }]);
    const days = (await rows(store, 'holiday')).map((h) => String(h.date));
    expect(days.length).toBe(result.rows.holiday);
    // A year either side of its creation, and holidays are created over four months: at most 850 days.
    expect(days.length).toBeGreaterThan(600);
    expect(days.length).toBeLessThanOrEqual(850);
    expect(new Set(days).size).toBe(days.length);
    expect(await problemsOfSeededRecords(model, store.db)).toEqual([]);
  }, 180_000);
});

forEachDatabase('seed: a practitioner per account', (database) => {
  it('gives each practitioner an account of their own, also when seeded again', async () => {
    const model = await loadSpecFile('src/engine/seed/fixtures/clinic.spec.ts');
    const store = await openSyncedQuickly(database, model);
    // 400 appointments want 8 practitioners, more than the five demo accounts a role usually gets.
    await seedDemoData(model, store.db, 400, quiet);
    const again = await seedDemoData(model, store.db, 400, quiet);
    expect(again.short).toEqual([]);
    const accounts = (await rows(store, 'practitioner')).map((p) => Number(p.account));
    expect(accounts).toHaveLength(16);
    expect(new Set(accounts).size).toBe(16);
    expect(await problemsOfSeededRecords(model, store.db)).toEqual([]);
  }, 180_000);
});

forEachDatabase('seed: a unique enum and a one-to-one reference', (database) => {
  it('makes a badge per colour and a card per member, and says so', async () => {
    const model = buildModel(oneEach);
    const store = await openSyncedQuickly(database, model);
    const result = await seedDemoData(model, store.db, 100, quiet);
    expect(result.rows).toEqual({ member: 5, card: 5, badge: 3 });
    expect(result.short).toEqual([
      { entity: 'card', planned: 100, reason: 'every member is taken for member' },
      { entity: 'badge', planned: 50, reason: 'no free value left for colour' },
    ]);
    expect(await problemsOfSeededRecords(model, store.db)).toEqual([]);
  }, 120_000);
});
