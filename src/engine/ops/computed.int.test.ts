import { beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../spec/build';
import type { AppSpec } from '../spec/types';
import { syncSchema } from '../store/schema/sync';
import { openStore } from '../store/open-store';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { createActor, expectRefused, ninefoldError, openSyncedQuickly, seedEmptyPglite } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';

/** Field service: visits that end after their duration, order lines with totals, articles with slugs. */
const SPEC = {
  name: 'computed-fields',
  entities: {
    visit: {
      titleField: 'title',
      fields: {
        title: { type: 'text', required: true },
        startsAt: { type: 'datetime' },
        durationMinutes: { type: 'integer' },
        endsAt: { type: 'datetime', computed: { from: 'startsAt', plus: { minutes: { field: 'durationMinutes' } } } },
        startDay: { type: 'date' },
        followUpOn: { type: 'date', computed: { from: 'startDay', plus: { days: { $constant: 'followUpDays' } } } },
      },
    },
    line: {
      titleField: 'label',
      fields: {
        label: { type: 'text', required: true },
        quantity: { type: 'integer' },
        unitPrice: { type: 'decimal' },
        divisor: { type: 'integer' },
        total: { type: 'decimal', computed: { multiply: [{ field: 'quantity' }, { field: 'unitPrice' }] } },
        net: {
          type: 'decimal',
          computed: { subtract: [{ multiply: [{ field: 'quantity' }, { field: 'unitPrice' }] }, { $constant: 'shippingFee' }] },
        },
        share: { type: 'decimal', scale: 3, computed: { divide: [{ field: 'quantity' }, { field: 'divisor' }] } },
        packs: { type: 'integer', computed: { add: [{ field: 'quantity' }, 1] } },
      },
    },
    article: {
      titleField: 'title',
      fields: {
        title: { type: 'text' },
        slug: { type: 'text', computed: { slug: 'title' } },
      },
    },
  },
  workflows: {
    visit: {
      states: { planned: { initial: true }, started: {} },
      transitions: { start: { from: 'planned', to: 'started', allow: ['agent'], effects: [{ set: 'startsAt', to: 'now' }] } },
    },
  },
  rules: {
    line: {
      cap: {
        message: 'A line is at most 1000.',
        when: { field: 'total', op: 'present' },
        assert: { field: 'total', op: 'lte', value: { $constant: 'maxLineTotal' } },
        field: 'total',
      },
    },
  },
  roles: { agent: { label: 'Agent' } },
  permissions: {
    visit: { agent: { list: true, read: true, create: true, update: true } },
    line: { agent: { list: true, read: true, create: true, update: true } },
    article: { agent: { list: true, read: true, create: true, update: true } },
  },
  constants: { shippingFee: { value: 4.95 }, followUpDays: { value: 7 }, maxLineTotal: { value: 1000 } },
} as const;

const model = buildModel(SPEC as unknown as AppSpec);

forEachDatabase('computed fields', (database) => {
  let store: Store;
  let ops: Ops;
  let agent: Actor;

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    agent = await createActor(store.db, ['agent'], 'Field Agent');
  });

  describe('on create and update', () => {
    it('computes arithmetic exactly, rounded to the scale, with constants and nesting', async () => {
      const line = await ops.create(agent, 'line', { label: 'Bolts', quantity: 3, unitPrice: '0.10', divisor: 7 });
      expect(line).toMatchObject({ total: '0.30', net: '-4.65', share: '0.429', packs: 4 });
    });

    it('leaves the value empty when an operand is empty or a division is by zero', async () => {
      const line = await ops.create(agent, 'line', { label: 'Nuts', quantity: 2, divisor: 0 });
      expect(line).toMatchObject({ total: null, net: null, share: null, packs: 3 });
    });

    it('moves a datetime by minutes and a date by days', async () => {
      const visit = await ops.create(agent, 'visit', {
        title: 'Boiler',
        startsAt: '2026-03-01T09:00:00.000Z',
        durationMinutes: 90,
        startDay: '2026-03-01',
      });
      expect((visit.endsAt as Date).toISOString()).toBe('2026-03-01T10:30:00.000Z');
      expect(visit.followUpOn).toBe('2026-03-08');
    });

    it('recomputes when an input changes, and leaves the value when other fields do', async () => {
      const line = await ops.create(agent, 'line', { label: 'Washers', quantity: 2, unitPrice: '1.25' });
      const more = await ops.update(agent, 'line', line.id, { quantity: 4 }, line.version);
      expect(more).toMatchObject({ total: '5.00', packs: 5 });
      const renamed = await ops.update(agent, 'line', line.id, { label: 'Big washers' }, more.version);
      expect(renamed).toMatchObject({ total: '5.00', packs: 5 });
      const emptied = await ops.update(agent, 'line', line.id, { unitPrice: null }, renamed.version);
      expect(emptied.total).toBeNull();
    });

    it('recomputes when a transition effect writes an input', async () => {
      const visit = await ops.create(agent, 'visit', { title: 'Pump', durationMinutes: 30 });
      expect(visit.endsAt).toBeNull();
      const before = Date.now();
      const started = await ops.transition(agent, 'visit', visit.id, 'start', { version: visit.version });
      const ends = (started.endsAt as Date).getTime() - (started.startsAt as Date).getTime();
      expect(ends).toBe(30 * 60_000);
      expect((started.startsAt as Date).getTime()).toBeGreaterThanOrEqual(before - 1000);
    });

    it('refuses a computed value given by a door, naming the field, and writes nothing', async () => {
      const line = await ops.create(agent, 'line', { label: 'Pins', quantity: 1, unitPrice: '2.00' });
      const error = await expectRefused(
        () => ops.get(agent, 'line', line.id).then((r) => r.record),
        'FORBIDDEN_FIELD',
        () => ops.update(agent, 'line', line.id, { total: '1.00' }, line.version),
      );
      expect(error.fieldErrors).toEqual([expect.objectContaining({ field: 'total' })]);
      expect((await ninefoldError(ops.create(agent, 'line', { label: 'X', total: '3.00' }))).fieldErrors[0]?.field).toBe('total');
    });

    it('lets rules read the value the write will store', async () => {
      const error = await ninefoldError(ops.create(agent, 'line', { label: 'Gold', quantity: 100, unitPrice: '20.00' }));
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', fieldErrors: [{ field: 'total', message: 'A line is at most 1000.' }] });
      const line = await ops.create(agent, 'line', { label: 'Silver', quantity: 10, unitPrice: '20.00' });
      const refused = await ninefoldError(ops.update(agent, 'line', line.id, { quantity: 51 }, line.version));
      expect(refused.fieldErrors[0]?.field).toBe('total');
    });
  });

  describe('slugs', () => {
    it('numbers a slug taken by another record and keeps it when the title changes', async () => {
      const first = await ops.create(agent, 'article', { title: 'Crème brûlée: 2 ways!' });
      const second = await ops.create(agent, 'article', { title: 'Creme Brulee 2 ways' });
      expect([first.slug, second.slug]).toEqual(['creme-brulee-2-ways', 'creme-brulee-2-ways-2']);
      const renamed = await ops.update(agent, 'article', first.id, { title: 'Something else' }, first.version);
      expect(renamed.slug).toBe('creme-brulee-2-ways');
    });

    it('fills an empty slug when the title gets a value', async () => {
      const untitled = await ops.create(agent, 'article', {});
      expect(untitled.slug).toBeNull();
      const titled = await ops.update(agent, 'article', untitled.id, { title: 'Late title' }, untitled.version);
      expect(titled.slug).toBe('late-title');
    });

    it('gives six parallel creates with the same title six different slugs', async () => {
      const created = await Promise.all(Array.from({ length: 6 }, () => ops.create(agent, 'article', { title: 'Same title' })));
      expect(new Set(created.map((a) => a.slug))).toEqual(
        new Set(['same-title', 'same-title-2', 'same-title-3', 'same-title-4', 'same-title-5', 'same-title-6']),
      );
    });

    it('numbers slugs within an import', async () => {
      const result = await ops.createMany(agent, 'article', [{ title: 'Imported' }, { title: 'Imported' }]);
      expect(result.created).toBe(2);
      const { rows } = await ops.list(agent, 'article', { where: { field: 'title', op: 'eq', value: 'Imported' }, sort: 'slug' });
      expect(rows.map((r) => r.slug)).toEqual(['imported', 'imported-2']);
    });
  });

  describe('imports and lists', () => {
    it('computes the values of imported rows', async () => {
      const result = await ops.createMany(agent, 'line', [
        { label: 'Imported A', quantity: 2, unitPrice: '3.50' },
        { label: 'Imported B', quantity: 5, unitPrice: '1.00' },
      ]);
      expect(result.created).toBe(2);
      const { rows } = await ops.list(agent, 'line', {
        where: { field: 'label', op: 'in', value: ['Imported A', 'Imported B'] },
        sort: '-total',
      });
      expect(rows.map((r) => [r.label, r.total])).toEqual([
        ['Imported A', '7.00'],
        ['Imported B', '5.00'],
      ]);
    });

    it('sorts and filters by a computed field', async () => {
      for (const [label, quantity] of [
        ['S1', 1],
        ['S2', 3],
        ['S3', 2],
      ] as const) {
        await ops.create(agent, 'line', { label, quantity, unitPrice: '100.00' });
      }
      const { rows } = await ops.list(agent, 'line', {
        where: {
          all: [
            { field: 'label', op: 'in', value: ['S1', 'S2', 'S3'] },
            { field: 'total', op: 'gte', value: 200 },
          ],
        },
        sort: 'total',
      });
      expect(rows.map((r) => r.label)).toEqual(['S3', 'S2']);
    });
  });

  describe('schema sync', () => {
    it('fills a computed field added to a table that has rows', async () => {
      const without = {
        ...SPEC,
        name: 'computed-backfill',
        entities: { article: { fields: { title: { type: 'text' } } } },
        workflows: {},
        rules: {},
        permissions: { article: SPEC.permissions.article },
      };
      const fresh = await database.freshOptions();
      if (database.kind === 'pglite') await seedEmptyPglite(fresh.dataDir);
      const other = await openStore(fresh);
      try {
        const before = buildModel(without as unknown as AppSpec);
        await syncSchema(other, before);
        const otherAgent = await createActor(other.db, ['agent'], 'Backfill Agent');
        const opsBefore = createOps({ model: before, db: other.db });
        for (const title of ['Old news', 'Old news', null]) await opsBefore.create(otherAgent, 'article', { title });
        const after = buildModel({ ...without, entities: { article: SPEC.entities.article } } as unknown as AppSpec);
        await syncSchema(other, after);
        const rows = await other.db.selectFrom('article').select(['title', 'slug']).orderBy('id').execute();
        expect(rows.map((r) => r.slug)).toEqual(['old-news', 'old-news-2', null]);
      } finally {
        await other.close();
      }
    });
  });
});
