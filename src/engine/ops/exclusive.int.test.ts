import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { NinefoldError } from '../errors/ninefold-error';
import { buildModel } from '../spec/build';
import type { AppSpec } from '../spec/types';
import { syncSchema } from '../store/schema/sync';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { openStore } from '../store/open-store';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { countRows, createActor, expectRefused, ninefoldError, openSyncedQuickly, seedEmptyPglite } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';
import { translating } from './write-kit';

const OVERLAP = 'This technician already has a visit at that time.';

/**
 * A technician's visits never overlap, except cancelled ones; a room is booked by whole days,
 * refused with the spec's own code.
 */
const SPEC = {
  name: 'field-service',
  entities: {
    technician: { titleField: 'name', fields: { name: { type: 'text', required: true } } },
    visit: {
      titleField: 'title',
      fields: {
        title: { type: 'text', required: true },
        technician: { type: 'reference', to: 'technician', required: true },
        startsAt: { type: 'datetime', required: true },
        endsAt: { type: 'datetime' },
      },
      exclusive: {
        range: ['startsAt', 'endsAt'],
        per: 'technician',
        where: { field: 'state', op: 'notIn', value: ['cancelled'] },
        message: OVERLAP,
      },
    },
    roomBooking: {
      titleField: 'title',
      fields: {
        title: { type: 'text', required: true },
        room: { type: 'enum', values: ['red', 'blue'], required: true },
        fromDay: { type: 'date', required: true },
        untilDay: { type: 'date', required: true },
      },
      exclusive: { range: ['fromDay', 'untilDay'], per: 'room', error: 'ROOM_TAKEN' },
    },
  },
  workflows: {
    visit: {
      states: { scheduled: { initial: true }, cancelled: {} },
      transitions: {
        cancel: { from: 'scheduled', to: 'cancelled', allow: ['agent'] },
        restore: { from: 'cancelled', to: 'scheduled', allow: ['agent'] },
      },
    },
  },
  roles: { agent: { label: 'Agent' } },
  permissions: {
    technician: { agent: { list: true, read: true, create: true } },
    visit: { agent: { list: true, read: true, create: true, update: true } },
    roomBooking: { agent: { list: true, read: true, create: true, update: true } },
  },
  errors: { ROOM_TAKEN: { status: 409, title: 'Room taken', message: 'The room is taken on those days.' } },
} as const;

const model = buildModel(SPEC as unknown as AppSpec);
const overlapError = { code: 'VALIDATION_FAILED', fieldErrors: [{ field: 'startsAt', code: 'overlap', message: OVERLAP }] };
const at = (hour: number, minute = 0) => new Date(Date.UTC(2026, 0, 5, hour, minute)).toISOString();

/** What a write settled as: its result, or the catalogue error (anything else fails the test). */
async function settle<T>(write: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: NinefoldError }> {
  try {
    return { ok: true, value: await write };
  } catch (error) {
    if (error instanceof NinefoldError) return { ok: false, error };
    throw error;
  }
}

forEachDatabase('exclusive ranges', (database) => {
  let store: Store;
  let ops: Ops;
  let agent: Actor;
  let counter = 0;
  const visits = () => countRows(store.db, 'visit');
  const newTechnician = () => ops.create(agent, 'technician', { name: `Technician ${++counter}` });
  const visit = (technician: number, from: string, to: string | null) =>
    ops.create(agent, 'visit', { title: `Visit ${++counter}`, technician, startsAt: from, endsAt: to });

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    agent = await createActor(store.db, ['agent'], 'Dispatcher');
  });

  it('refuses an overlapping visit of the same technician, with the message on the start field', async () => {
    const tech = await newTechnician();
    await visit(tech.id, at(9), at(11));
    const error = await expectRefused(visits, 'VALIDATION_FAILED', () => visit(tech.id, at(10), at(12)));
    expect(error).toMatchObject(overlapError);
    // Inside, and around, are overlaps too.
    await expectRefused(visits, 'VALIDATION_FAILED', () => visit(tech.id, at(9, 30), at(10)));
    await expectRefused(visits, 'VALIDATION_FAILED', () => visit(tech.id, at(8), at(12)));
  });

  it('lets touching ranges be (half-open: the end is not part of it), and another technician overlap', async () => {
    const [tech, other] = [await newTechnician(), await newTechnician()];
    await visit(tech.id, at(9), at(11));
    await visit(tech.id, at(11), at(12));
    await visit(tech.id, at(8), at(9));
    await visit(other.id, at(9), at(11));
  });

  it('leaves cancelled visits out, and refuses restoring one onto a taken time', async () => {
    const tech = await newTechnician();
    const first = await visit(tech.id, at(9), at(11));
    const cancelled = await ops.transition(agent, 'visit', first.id, 'cancel', { version: first.version });
    await visit(tech.id, at(10), at(12));
    const error = await ninefoldError(ops.transition(agent, 'visit', cancelled.id, 'restore', { version: cancelled.version }));
    expect(error).toMatchObject(overlapError);
  });

  it('refuses an update that makes an overlap, and lets a visit keep or move within its own time', async () => {
    const tech = await newTechnician();
    await visit(tech.id, at(9), at(10));
    const later = await visit(tech.id, at(13), at(14));
    const error = await ninefoldError(ops.update(agent, 'visit', later.id, { startsAt: at(9, 30) }, later.version));
    expect(error).toMatchObject(overlapError);
    const moved = await ops.update(agent, 'visit', later.id, { startsAt: at(13, 30), title: 'Shorter' }, later.version);
    expect(moved.title).toBe('Shorter');
    // Another technician's visit moved onto the same time is fine.
    const other = await newTechnician();
    const theirs = await visit(other.id, at(15), at(16));
    await ops.update(agent, 'visit', theirs.id, { startsAt: at(9), endsAt: at(10) }, theirs.version);
  });

  it('takes an empty end as open-ended: it overlaps everything after its start', async () => {
    const tech = await newTechnician();
    await visit(tech.id, at(14), null);
    await visit(tech.id, at(9), at(14));
    expect(await ninefoldError(visit(tech.id, at(20), at(21)))).toMatchObject(overlapError);
    expect(await ninefoldError(visit(tech.id, at(15), null))).toMatchObject(overlapError);
  });

  it('refuses an end before the start on the end field', async () => {
    const tech = await newTechnician();
    const error = await expectRefused(visits, 'VALIDATION_FAILED', () => visit(tech.id, at(11), at(9)));
    expect(error.fieldErrors).toEqual([{ field: 'endsAt', code: 'range', message: 'Ends at cannot be before Starts at.' }]);
  });

  it('refuses race losers with the same error: six overlapping visits at once, exactly one wins', async () => {
    const tech = await newTechnician();
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => settle(visit(tech.id, at(9, i), at(10, i)))));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const result of results.filter((r) => !r.ok)) expect((result as { error: NinefoldError }).error).toMatchObject(overlapError);
    expect(await store.db.selectFrom('visit').select('id').where('technician', '=', tech.id).execute()).toHaveLength(1);
  });

  it('maps the constraint refusing a write to the same refusal (never a 500)', async () => {
    const tech = await newTechnician();
    await visit(tech.id, at(9), at(10));
    // Straight to the table, past the check ops makes first: only the exclusion constraint stands in the way.
    const insert = (state: string) =>
      store.db
        .insertInto('visit')
        .values({ title: 'Direct', technician: tech.id, starts_at: new Date(at(9, 30)), ends_at: new Date(at(10, 30)), state })
        .execute();
    expect(await ninefoldError(translating(model, model.entitiesByName.visit!, () => insert('scheduled')))).toMatchObject(overlapError);
    // Rows outside the condition are not held by the constraint at all.
    await insert('cancelled');
    // An end before the start that only the database sees is refused on the end field, too.
    const backwards = store.db
      .insertInto('visit')
      .values({ title: 'Backwards', technician: tech.id, starts_at: new Date(at(20)), ends_at: new Date(at(19)), state: 'scheduled' })
      .execute();
    expect(await ninefoldError(translating(model, model.entitiesByName.visit!, () => backwards))).toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: [{ field: 'endsAt', code: 'range', message: 'Ends at cannot be before Starts at.' }],
    });
  });

  it('refuses overlapping rows of an import, the later one', async () => {
    const tech = await newTechnician();
    const result = await ops.createMany(
      agent,
      'visit',
      [
        { title: 'M1', technician: tech.id, startsAt: at(9), endsAt: at(10) },
        { title: 'M2', technician: tech.id, startsAt: at(9, 30), endsAt: at(11) },
        { title: 'M3', technician: tech.id, startsAt: at(10), endsAt: at(11) },
      ],
      { goodRows: true },
    );
    expect(result.created).toBe(2);
    expect(result.refused).toEqual([expect.objectContaining({ index: 1, ...overlapError })]);
  });

  it("answers with the spec's own code for date ranges (whole days, half-open)", async () => {
    const book = (room: string, fromDay: string, untilDay: string) =>
      ops.create(agent, 'roomBooking', { title: `Booking ${++counter}`, room, fromDay, untilDay });
    await book('red', '2026-03-01', '2026-03-04');
    await book('red', '2026-03-04', '2026-03-05');
    await book('blue', '2026-03-02', '2026-03-03');
    const error = await ninefoldError(book('red', '2026-03-03', '2026-03-06'));
    expect(error).toMatchObject({
      code: 'ROOM_TAKEN',
      status: 409,
      message: 'The room is taken on those days.',
      fieldErrors: [{ field: 'fromDay', code: 'overlap', message: 'The room is taken on those days.' }],
    });
  });

  describe('schema sync', () => {
    it('built the exclusion constraint, found again by the next sync', async () => {
      const { rows } = await sql<{
        def: string;
      }>`select pg_get_constraintdef(oid) as def from pg_constraint where conname = ${model.entitiesByName.visit!.exclusive[0]!.constraint}`.execute(
        store.db,
      );
      expect(rows[0]?.def).toMatch(
        /^EXCLUDE USING gist \(technician WITH =, tstzrange\(starts_at, ends_at, '\[\)'::text\) WITH &&\) WHERE \(/,
      );
      expect(await syncSchema(store, model)).toEqual({ changed: false, applied: [], destructive: [] });
    });

    it('refuses to add the rule to a table whose records already overlap, naming the rule; nothing changes', async () => {
      const without = buildModel({
        ...SPEC,
        entities: { ...SPEC.entities, visit: { ...SPEC.entities.visit, exclusive: undefined } },
      } as unknown as AppSpec);
      const options = await database.freshOptions();
      if (database.kind === 'pglite') await seedEmptyPglite(options.dataDir);
      const fresh = await openStore(options);
      try {
        await syncSchema(fresh, without);
        const freshOps = createOps({ model: without, db: fresh.db });
        const dispatcher = await createActor(fresh.db, ['agent'], 'Dispatcher');
        const tech = await freshOps.create(dispatcher, 'technician', { name: 'Busy' });
        for (const title of ['One', 'Two'])
          await freshOps.create(dispatcher, 'visit', { title, technician: tech.id, startsAt: at(9), endsAt: at(10) });
        const failure = await syncSchema(fresh, model).then(
          () => null,
          (error: unknown) => error as Error,
        );
        expect(failure?.message).toMatch(
          /^Records already in visit overlap, which breaks the rule "Visit \(visit\): A technician's visits never overlap \(Starts at to Ends at\), except cancelled ones" \(for example .+ and .+\), so its exclusion constraint could not be added\. Change those records \(or the rule\) and start again\. Nothing was changed\.$/,
        );
        // The visits' rule is not there; the room bookings' (in both models) is.
        const { rows } = await sql<{
          table: string;
        }>`select conrelid::regclass::text as table from pg_constraint where contype = 'x'`.execute(fresh.db);
        expect(rows.map((r) => r.table)).toEqual(['room_booking']);
        expect(await countRows(fresh.db, 'visit')).toBe(2);
        // Once the records no longer overlap, the same sync adds it; without the rule, the next drops it.
        await fresh.db.deleteFrom('visit').where('title', '=', 'Two').execute();
        const added = await syncSchema(fresh, model);
        expect(added.applied.map((step) => step.kind)).toEqual(['add-exclusion']);
        const dropped = await syncSchema(fresh, without);
        expect(dropped.applied.map((step) => step.kind)).toEqual(['drop-exclusion']);
        expect(dropped.destructive).toEqual([]);
      } finally {
        await fresh.close();
      }
    });
  });
});
