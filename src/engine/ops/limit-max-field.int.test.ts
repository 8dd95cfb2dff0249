import { beforeAll, describe, expect, it } from 'vitest';
import { NinefoldError } from '../errors/ninefold-error';
import { buildModel } from '../spec/build';
import type { AppSpec } from '../spec/types';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { countRows, createActor, expectRefused, ninefoldError, openSyncedQuickly } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';

/** Confirmed bookings per event, up to the event's own capacity (none: no limit). */
const SPEC = {
  name: 'events',
  entities: {
    event: {
      titleField: 'name',
      fields: { name: { type: 'text', required: true }, capacity: { type: 'integer' } },
    },
    booking: {
      titleField: 'code',
      fields: { code: { type: 'text', required: true }, event: { type: 'reference', to: 'event', required: true } },
      limits: {
        confirmedPerEvent: {
          per: 'event',
          max: { field: 'event.capacity' },
          where: { field: 'state', op: 'eq', value: 'confirmed' },
          message: 'This event is full ({max} places).',
        },
      },
    },
  },
  workflows: {
    booking: {
      states: { confirmed: { initial: true }, cancelled: {} },
      transitions: {
        cancel: { from: 'confirmed', to: 'cancelled', allow: ['agent'] },
        confirm: { from: 'cancelled', to: 'confirmed', allow: ['agent'] },
      },
    },
  },
  roles: { agent: { label: 'Agent' } },
  permissions: {
    event: { agent: { list: true, read: true, create: true, update: true } },
    booking: { agent: { list: true, read: true, create: true } },
  },
} as const;

const model = buildModel(SPEC as unknown as AppSpec);

/** What a write settled as: its result, or the catalogue error (anything else fails the test). */
async function settle<T>(write: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: NinefoldError }> {
  try {
    return { ok: true, value: await write };
  } catch (error) {
    if (error instanceof NinefoldError) return { ok: false, error };
    throw error;
  }
}

forEachDatabase('limits whose maximum is a field of the referenced record', (database) => {
  let store: Store;
  let ops: Ops;
  let agent: Actor;
  let counter = 0;
  const bookings = () => countRows(store.db, 'booking');
  const book = (event: number) => ops.create(agent, 'booking', { code: `B${++counter}`, event });
  const newEvent = (capacity: number | null) => ops.create(agent, 'event', { name: `Event ${++counter}`, capacity });

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    agent = await createActor(store.db, ['agent'], 'Organiser');
  });

  it("caps confirmed bookings at the event's capacity, each event apart, with the capacity in the message", async () => {
    const [small, big] = [await newEvent(2), await newEvent(3)];
    const first = await book(small.id);
    await book(small.id);
    const error = await expectRefused(bookings, 'LIMIT_EXCEEDED', () => book(small.id));
    expect(error.message).toBe('This event is full (2 places).');
    expect(error.details).toEqual({ limit: 'confirmedPerEvent', max: 2, field: 'event.capacity' });
    for (let i = 0; i < 3; i++) await book(big.id);
    // A cancelled booking frees its seat; confirming it again counts again.
    const cancelled = await ops.transition(agent, 'booking', first.id, 'cancel', { version: first.version });
    await book(small.id);
    expect((await ninefoldError(ops.transition(agent, 'booking', cancelled.id, 'confirm', { version: cancelled.version }))).code).toBe(
      'LIMIT_EXCEEDED',
    );
  });

  it('follows a changed capacity at once; an empty capacity means no limit', async () => {
    const event = await newEvent(1);
    await book(event.id);
    await expectRefused(bookings, 'LIMIT_EXCEEDED', () => book(event.id));
    const raised = await ops.update(agent, 'event', event.id, { capacity: 2 }, event.version);
    await book(event.id);
    expect((await ninefoldError(book(event.id))).message).toBe('This event is full (2 places).');
    // Lowered below what is booked: nothing booked is touched, no new booking is taken.
    const lowered = await ops.update(agent, 'event', event.id, { capacity: 0 }, raised.version);
    expect((await ninefoldError(book(event.id))).message).toBe('This event is full (0 places).');
    // Below zero (the field has no minimum) allows none, as zero does.
    const negative = await ops.update(agent, 'event', event.id, { capacity: -1 }, lowered.version);
    expect((await ninefoldError(book(event.id))).message).toBe('This event is full (0 places).');
    await ops.update(agent, 'event', event.id, { capacity: null }, negative.version);
    for (let i = 0; i < 4; i++) await book(event.id);
  });

  it('holds under a race: six bookings for the last seat, exactly one wins', async () => {
    const event = await newEvent(3);
    await book(event.id);
    await book(event.id);
    const results = await Promise.all(Array.from({ length: 6 }, () => settle(book(event.id))));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => (r as { error: NinefoldError }).error.code)).toEqual(Array(5).fill('LIMIT_EXCEEDED'));
    expect(await store.db.selectFrom('booking').select('id').where('event', '=', event.id).execute()).toHaveLength(3);
  });

  describe('in the model', () => {
    it('has no fixed maximum, and knows where to read it', () => {
      expect(model.entitiesByName.booking!.limits.confirmedPerEvent).toMatchObject({
        maxValue: null,
        maxField: { entity: 'event', field: 'capacity', column: 'capacity', text: "the event's capacity" },
      });
    });
  });
});
