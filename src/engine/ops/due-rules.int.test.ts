import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { buildModel } from '../spec/build';
import type { AppSpec } from '../spec/types';
import { validateSpec } from '../spec/validate';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { createActor, expectRefused, openSyncedQuickly } from '@testing/engine/ops';
import type { RecordData } from './types';
import type { Actor } from '../ground/actor';

const HOUR_MS = 3_600_000;

/**
 * A record rule that reads a computed due time: a repair is due 24 hours after it is logged (72
 * for a low priority, 4 for an urgent one), and never after the latest time the customer accepts.
 * The due time is the engine's, so every write computes it before the rules read it.
 */
const spec: AppSpec = {
  name: 'repairs',
  entities: {
    repair: {
      titleField: 'item',
      fields: {
        item: { type: 'text', required: true },
        priority: { type: 'enum', values: ['low', 'normal', 'urgent'], default: 'normal', required: true },
        latestDue: { type: 'datetime', required: true },
        dueDate: { type: 'datetime', due: { from: 'createdAt', hours: { $constant: 'repairHours' }, by: 'priority' } },
        // Counted from the last change: moves with every write.
        reviewBy: { type: 'datetime', due: { from: 'updatedAt', hours: 2 } },
      },
    },
  },
  workflows: {
    repair: {
      states: { logged: { initial: true }, working: {}, done: { final: true } },
      transitions: {
        start: { from: 'logged', to: 'working', allow: ['agent'] },
        finish: { from: 'working', to: 'done', allow: ['agent'] },
      },
    },
  },
  rules: {
    repair: {
      dueByLatest: {
        message: 'The repair would be due after the latest time accepted.',
        field: 'latestDue',
        assert: { field: 'dueDate', op: 'lte', value: { field: 'latestDue' } },
      },
      reviewedInTime: {
        message: 'The review would come after the latest time accepted.',
        field: 'latestDue',
        assert: { field: 'reviewBy', op: 'lte', value: { field: 'latestDue' } },
      },
    },
  },
  roles: { agent: {} },
  permissions: { repair: { agent: { list: true, read: true, create: true, update: true, transitions: { start: true, finish: true } } } },
  constants: { repairHours: { value: { low: 72, normal: 24, urgent: 4 }, unit: 'hours' } },
};
const model = buildModel(spec);

const hoursFromNow = (hours: number) => new Date(Date.now() + hours * HOUR_MS).toISOString();
const RULE_ERROR = { field: 'latestDue', code: 'dueByLatest', message: 'The repair would be due after the latest time accepted.' };

forEachDatabase('ops: record rules read computed due times', (database) => {
  let store: Store;
  let ops: Ops;
  let clerk: Actor;
  const count = async () =>
    (
      await store.db
        .selectFrom('repair')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
  const stored = async (id: number) => store.db.selectFrom('repair').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    clerk = await createActor(store.db, ['agent'], 'Clerk Kent');
  });

  it('loads without a warning', () => {
    expect(validateSpec(spec)).toEqual([]);
  });

  it('create: the rule reads the due time of the new record (creation + the hours of its priority)', async () => {
    const repair = await ops.create(clerk, 'repair', { item: 'Kettle', latestDue: hoursFromNow(30) });
    expect(new Date(String(repair.dueDate)).getTime() - new Date(String(repair.createdAt)).getTime()).toBe(24 * HOUR_MS);
    const error = await expectRefused(count, 'VALIDATION_FAILED', () =>
      ops.create(clerk, 'repair', { item: 'Toaster', priority: 'low', latestDue: hoursFromNow(30) }),
    );
    expect(error.fieldErrors).toEqual([RULE_ERROR]);
  });

  it('update: the rule reads the due time the new priority gives, not the stored one', async () => {
    const repair = await ops.create(clerk, 'repair', { item: 'Lamp', latestDue: hoursFromNow(30) });
    const error = await expectRefused(
      () => stored(repair.id),
      'VALIDATION_FAILED',
      () => ops.update(clerk, 'repair', repair.id, { priority: 'low' }, repair.version),
    );
    expect(error.fieldErrors).toEqual([RULE_ERROR]);
    // A due time brought forward meets a latest time that the stored one would not have.
    const urgent = await ops.update(clerk, 'repair', repair.id, { priority: 'urgent', latestDue: hoursFromNow(10) }, repair.version);
    expect(new Date(String(urgent.dueDate)).getTime() - new Date(String(urgent.createdAt)).getTime()).toBe(4 * HOUR_MS);
  });

  it('update: a due time counted from the last change is read as this write moves it', async () => {
    const repair = await ops.create(clerk, 'repair', { item: 'Radio', priority: 'urgent', latestDue: hoursFromNow(30) });
    // Logged ten hours ago: due 6 hours ago, review 8 hours ago.
    await store.db
      .updateTable('repair')
      .set({
        created_at: sql`created_at - interval '10 hours'`,
        updated_at: sql`updated_at - interval '10 hours'`,
        due_date: sql`due_date - interval '10 hours'`,
        review_by: sql`review_by - interval '10 hours'`,
      })
      .where('id', '=', repair.id)
      .execute();
    // The stored review time would meet a latest time of 5 hours ago; the one this write sets (in 2 hours) does not.
    const error = await expectRefused(
      () => stored(repair.id),
      'VALIDATION_FAILED',
      () => ops.update(clerk, 'repair', repair.id, { latestDue: hoursFromNow(-5) }, repair.version),
    );
    expect(error.fieldErrors).toEqual([
      { field: 'latestDue', code: 'reviewedInTime', message: 'The review would come after the latest time accepted.' },
    ]);
    expect((await ops.update(clerk, 'repair', repair.id, { latestDue: hoursFromNow(3) }, repair.version)).version).toBe(2);
  });

  it('transition: input that moves the due time is read by the rules as moved', async () => {
    const repair: RecordData = await ops.create(clerk, 'repair', { item: 'Fridge', latestDue: hoursFromNow(30) });
    const error = await expectRefused(
      () => stored(repair.id),
      'VALIDATION_FAILED',
      () => ops.transition(clerk, 'repair', repair.id, 'start', { version: repair.version, input: { priority: 'low' } }),
    );
    expect(error.fieldErrors).toEqual([RULE_ERROR]);
    const started = await ops.transition(clerk, 'repair', repair.id, 'start', {
      version: repair.version,
      input: { priority: 'urgent', latestDue: hoursFromNow(5) },
    });
    expect(started.state).toBe('working');
  });

  it('create-many (a CSV import): each row is checked as create checks it', async () => {
    const before = await count();
    const result = await ops.createMany(
      clerk,
      'repair',
      [
        { item: 'Fan', latestDue: hoursFromNow(30) },
        { item: 'Heater', priority: 'low', latestDue: hoursFromNow(30) },
        { item: 'Clock', priority: 'urgent', latestDue: hoursFromNow(5) },
      ],
      { goodRows: true },
    );
    expect(result.created).toBe(2);
    expect(result.refused.map((r) => [r.index, r.fieldErrors])).toEqual([[1, [RULE_ERROR]]]);
    expect(Number(await count())).toBe(Number(before) + 2);
  });
});
