import { beforeAll, describe, expect, it } from 'vitest';
import fieldService from '../../../examples/field-service/ninefold.spec';
import { forEachDatabase } from '@testing/engine/store';
import { createActor, ninefoldError } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import { addWorkingDays } from '../time/working-days';
import { syncSchema } from '../store/schema/sync';
import { createScheduler } from '../scheduler/scheduler';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import type { Store } from '../store/types';
import type { Actor } from '../ground/actor';

const model = buildModel(fieldService);
const HOUR_MS = 3_600_000;
/** A whole hour some days ahead, so that visits never start in the past. */
const at = (days: number, hour: number, minute = 0) => {
  const day = new Date(Date.now() + days * 24 * HOUR_MS);
  day.setUTCHours(hour, minute, 0, 0);
  return day.toISOString();
};

/*
 * The field-service example end to end through ops, as its users would live it: a customer
 * reports a broken machine (out of service at once), the dispatcher plans visits (their end
 * derived, never overlapping for one technician), parts are logged (their total derived on the
 * order), the technician completes the visit (the machine back in service), orders not started
 * in time go overdue by themselves, and a customer sees only their own sites' orders.
 */
forEachDatabase('the field-service example', (database) => {
  let store: Store;
  let ops: Ops;
  let dispatcher: Actor;
  let technician: Actor;
  let otherTechnician: Actor;
  let customer: Actor;
  let otherCustomer: Actor;
  let site: number;
  let otherSite: number;
  let pump: number;

  beforeAll(async () => {
    store = await database.openSynced(model);
    ops = createOps({ model, db: store.db });
    dispatcher = await createActor(store.db, ['dispatcher'], 'Dora Dispatcher');
    technician = await createActor(store.db, ['technician'], 'Tom Technician');
    otherTechnician = await createActor(store.db, ['technician'], 'Tia Technician');
    const acme = await ops.create(dispatcher, 'customer', { name: 'Acme Foods' });
    const globex = await ops.create(dispatcher, 'customer', { name: 'Globex' });
    customer = { ...(await createActor(store.db, ['customer'], 'Carl Customer')), fields: { customer: acme.id } };
    otherCustomer = { ...(await createActor(store.db, ['customer'], 'Olga Other')), fields: { customer: globex.id } };
    site = (await ops.create(dispatcher, 'site', { name: 'Acme bakery', customer: acme.id, address: '1 Mill Road' })).id;
    otherSite = (await ops.create(dispatcher, 'site', { name: 'Globex plant', customer: globex.id })).id;
    pump = (await ops.create(dispatcher, 'equipment', { name: 'Dough pump', serial: 'DP-100', site })).id;
  });

  it('a customer reports a broken machine for their site: it is out of service at once, and only they and staff see the order', async () => {
    const order = await ops.create(customer, 'workOrder', { title: 'Pump leaks', site, equipment: pump });
    expect(order).toMatchObject({ state: 'open', priority: 'normal' });
    expect((await ops.get(dispatcher, 'equipment', pump)).record.status).toBe('outOfService');
    expect((await ops.get(dispatcher, 'site', site)).record.openOrders).toBe(1);

    const theirs = await ops.list(otherCustomer, 'workOrder', {});
    expect(theirs.rows.map((r) => r.id)).not.toContain(order.id);
    expect((await ninefoldError(ops.get(otherCustomer, 'workOrder', order.id))).code).toBe('NOT_FOUND');
    expect(
      (await ninefoldError(ops.create(customer, 'workOrder', { title: 'Not my site', site: otherSite }))).status,
    ).toBeGreaterThanOrEqual(400);
  });

  it('plans visits whose end is derived, never two at once for one technician, and logs parts whose total is derived', async () => {
    const order = await ops.create(dispatcher, 'workOrder', { title: 'Oven service', site, equipment: pump, priority: 'high' });
    const first = await ops.create(dispatcher, 'visit', {
      workOrder: order.id,
      equipment: pump,
      technician: technician.userId,
      startsAt: at(2, 9),
      durationMinutes: 90,
    });
    expect(new Date(String(first.endsAt)).toISOString()).toBe(at(2, 10, 30));
    // Its report is due two working days on, in Berlin's week and holidays.
    const reportDue = addWorkingDays(new Date(at(2, 9)), 2, model.calendar);
    expect(new Date(String(first.reportDue)).toISOString()).toBe(reportDue.toISOString());
    expect(reportDue.getTime() - Date.parse(at(2, 9))).toBeGreaterThanOrEqual(47 * HOUR_MS);

    const overlap = await ninefoldError(
      ops.create(dispatcher, 'visit', { workOrder: order.id, technician: technician.userId, startsAt: at(2, 10), durationMinutes: 60 }),
    );
    expect(overlap).toMatchObject({ code: 'VISIT_OVERLAP', status: 409 });
    // Right after it, or at the same time by someone else: both fine.
    await ops.create(dispatcher, 'visit', {
      workOrder: order.id,
      technician: technician.userId,
      startsAt: at(2, 10, 30),
      durationMinutes: 30,
    });
    await ops.create(dispatcher, 'visit', {
      workOrder: order.id,
      technician: otherTechnician.userId,
      startsAt: at(2, 9),
      durationMinutes: 60,
    });

    await ops.create(technician, 'partLine', { workOrder: order.id, description: 'Seal kit', quantity: 2, unitPrice: '12.50' });
    await ops.create(technician, 'partLine', { workOrder: order.id, description: 'Bolt', quantity: 1, unitPrice: '3.00' });
    expect(Number((await ops.get(dispatcher, 'workOrder', order.id)).record.partsTotal)).toBe(28);
    // The customer follows the order, but its costs are the service's.
    expect((await ops.get(customer, 'workOrder', order.id)).record).not.toHaveProperty('partsTotal');

    // Completing needs the report; then the machine is back in service and the order knows its last visit.
    expect((await ninefoldError(ops.transition(technician, 'visit', first.id, 'complete', { version: first.version }))).code).toBe(
      'TRANSITION_NOT_ALLOWED',
    );
    const done = await ops.transition(technician, 'visit', first.id, 'complete', {
      version: first.version,
      input: { report: 'Replaced the seals; no more leaks.' },
    });
    expect(done.state).toBe('done');
    expect((await ops.get(dispatcher, 'equipment', pump)).record.status).toBe('inService');
    expect(new Date(String((await ops.get(dispatcher, 'workOrder', order.id)).record.lastVisit)).toISOString()).toBe(at(2, 9));
  });

  it('refuses to cancel a visit less than cancelNoticeHours before it starts, with its own code', async () => {
    const order = await ops.create(dispatcher, 'workOrder', { title: 'Check fridge', site });
    const soon = new Date(Date.now() + HOUR_MS).toISOString();
    const visit = await ops.create(dispatcher, 'visit', {
      workOrder: order.id,
      technician: otherTechnician.userId,
      startsAt: soon,
      durationMinutes: 30,
    });
    const refusal = await ninefoldError(ops.transition(dispatcher, 'visit', visit.id, 'cancel', { version: visit.version }));
    expect(refusal).toMatchObject({ code: 'TOO_LATE_TO_CANCEL', status: 409 });
    const later = await ops.create(dispatcher, 'visit', {
      workOrder: order.id,
      technician: otherTechnician.userId,
      startsAt: at(5, 14),
      durationMinutes: 30,
    });
    expect((await ops.transition(dispatcher, 'visit', later.id, 'cancel', { version: later.version })).state).toBe('cancelled');
  });

  describe('orders not started within responseHours', () => {
    it('go overdue by themselves, taken by the scheduler, and can still be started', async () => {
      const waiting = await ops.create(dispatcher, 'workOrder', { title: 'Freezer alarm', site });
      const started = await ops.create(dispatcher, 'workOrder', { title: 'Mixer noise', site });
      await ops.transition(technician, 'workOrder', started.id, 'start', { version: started.version });

      const scheduler = createScheduler({ model, db: store.db });
      await scheduler.runOnce(new Date(Date.now() + 23 * HOUR_MS));
      expect((await ops.get(dispatcher, 'workOrder', waiting.id)).record.state).toBe('open');
      await scheduler.runOnce(new Date(Date.now() + 25 * HOUR_MS));
      const overdue = (await ops.get(dispatcher, 'workOrder', waiting.id)).record;
      expect(overdue.state).toBe('overdue');
      expect((await ops.get(dispatcher, 'workOrder', started.id)).record.state).toBe('inProgress');
      const history = await ops.history(dispatcher, 'workOrder', waiting.id, {});
      expect(history.entries[0]).toMatchObject({ actor: null, transition: { name: 'goOverdue', automatic: true } });
      expect((await ops.transition(technician, 'workOrder', waiting.id, 'start', { version: overdue.version })).state).toBe('inProgress');
    });
  });

  it('keeps its schema as it is when synced again', async () => {
    await expect(syncSchema(store, model)).resolves.not.toThrow();
  });
});
