import { expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { countRows, openSyncedQuickly } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import type { AppModel } from '../spec/model';
import type { AppSpec } from '../spec/types';
import { AUDIT_TABLE, USER_TABLE } from '../store/schema/desired';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { seedDemoData, SeedFailed, type SeedProgress } from './seed-demo-data';

/** Boxes the seeder fills, then crates whose rule no value of `size` (1 to 5) can keep. */
const unkeepable: AppSpec = {
  name: 'unkeepable',
  screens: { navigation: ['box', 'crate'] },
  entities: {
    box: { titleField: 'label', fields: { label: { type: 'text', required: true, maxLength: 40 } } },
    crate: {
      titleField: 'label',
      fields: { label: { type: 'text', required: true, maxLength: 40 }, size: { type: 'integer', required: true, min: 1, max: 5 } },
    },
  },
  rules: { crate: { tooBig: { message: 'A crate is larger than ten.', assert: { field: 'size', op: 'gt', value: 10 } } } },
  roles: { admin: {}, packer: {} },
  permissions: { box: { packer: { list: true, read: true, create: true } }, crate: { packer: { list: true, read: true, create: true } } },
};

const quiet: SeedProgress = { start: () => {}, advance: () => {}, stop: () => {} };

/** Rows of every table a seed writes: users, each entity's records and join tables, history. */
async function written(store: Store, model: AppModel): Promise<Record<string, number>> {
  const tables = [
    USER_TABLE,
    AUDIT_TABLE,
    ...model.entities.flatMap((e) => [e.table, ...e.fields.flatMap((f) => (f.joinTable ? [f.joinTable] : []))]),
  ];
  return Object.fromEntries(await Promise.all(tables.map(async (table) => [table, await countRows(store.db, table)] as const)));
}

async function failure(promise: Promise<unknown>): Promise<SeedFailed> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SeedFailed);
  return error as SeedFailed;
}

forEachDatabase('seed: all or nothing (a spec whose rule no record keeps)', (database) => {
  it('refuses with the rule it cannot keep, and leaves no user, box or history behind', async () => {
    const model = buildModel(unkeepable);
    const store = await openSyncedQuickly(database, model);
    const error = await failure(seedDemoData(model, store.db, 40, quiet));
    expect(error.message).toMatch(/^Seeding failed and wrote nothing: crate: .*tooBig/);
    expect(await written(store, model)).toEqual({ nf_user: 0, nf_audit: 0, box: 0, crate: 0 });
  });
});

forEachDatabase('seed: all or nothing (a failure midway)', (database) => {
  const model = buildModel(helpdesk);

  it('leaves the database as it was, empty or seeded before', async () => {
    const store = await openSyncedQuickly(database, model);
    // Organizations and a first batch of tickets with their history are in when the failure comes.
    let batches = 0;
    const failing: SeedProgress = {
      ...quiet,
      advance: () => {
        if ((batches += 1) === 2) throw new Error('disk full');
      },
    };
    const error = await failure(seedDemoData(model, store.db, 1500, failing));
    expect(error.message).toBe('Seeding failed and wrote nothing: disk full');
    expect(batches).toBe(2);
    const empty = await written(store, model);
    expect(
      Object.values(empty).every((n) => n === 0),
      JSON.stringify(empty),
    ).toBe(true);

    await seedDemoData(model, store.db, 60, quiet);
    const seeded = await written(store, model);
    batches = 0;
    await failure(seedDemoData(model, store.db, 1500, failing));
    expect(await written(store, model)).toEqual(seeded);
  }, 120_000);
});
