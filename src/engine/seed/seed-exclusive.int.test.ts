import { beforeAll, expect, it } from 'vitest';
import { openSyncedQuickly } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import type { AppSpec } from '../spec/types';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { seedDemoData } from './seed-demo-data';

const quiet = { start: () => {}, advance: () => {}, stop: () => {} };

/** Few technicians, many visits: ranges are bound to meet, and the constraint refuses any overlap. */
const model = buildModel({
  name: 'field-service',
  entities: {
    technician: { titleField: 'name', fields: { name: { type: 'text', required: true } } },
    visit: {
      titleField: 'title',
      fields: {
        title: { type: 'text', required: true },
        technician: { type: 'reference', to: 'technician', required: true },
        startsAt: { type: 'datetime', required: true },
        endsAt: { type: 'datetime', required: true },
      },
      exclusive: { range: ['startsAt', 'endsAt'], per: 'technician', where: { field: 'state', op: 'ne', value: 'cancelled' } },
    },
  },
  workflows: {
    visit: {
      states: { scheduled: { initial: true }, cancelled: {} },
      transitions: { cancel: { from: 'scheduled', to: 'cancelled', allow: ['agent'] } },
    },
  },
  roles: { agent: { label: 'Agent' } },
  permissions: {
    technician: { agent: { list: true, read: true, create: true } },
    visit: { agent: { list: true, read: true, create: true } },
  },
} as AppSpec);

forEachDatabase('seed: exclusive ranges', (database) => {
  let store: Store;

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
  }, 120_000);

  it('makes demo visits without overlaps (the constraint would refuse the whole batch), twice over', async () => {
    await seedDemoData(model, store.db, 60, quiet);
    // A second run remembers the ranges the first one left.
    await seedDemoData(model, store.db, 60, quiet);
    const visits = await store.db.selectFrom('visit').select(['technician', 'starts_at', 'ends_at', 'state']).execute();
    expect(visits.length).toBeGreaterThan(20);
  }, 120_000);
});
