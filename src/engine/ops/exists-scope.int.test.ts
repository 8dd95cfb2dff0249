import { beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../spec/build';
import type { AppSpec } from '../spec/types';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { createActor, ninefoldError, openSyncedQuickly } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';

/** A clinic where a practitioner sees the patients they have (or had) an appointment with, and no others. */
const SPEC = {
  name: 'clinic-exists',
  entities: {
    practitioner: {
      titleField: 'name',
      fields: { name: { type: 'text', required: true }, account: { type: 'user', required: true, unique: true } },
    },
    patient: { titleField: 'name', fields: { name: { type: 'text', required: true } } },
    appointment: {
      titleField: 'reason',
      fields: {
        reason: { type: 'text', required: true },
        practitioner: { type: 'reference', to: 'practitioner', required: true },
        patient: { type: 'reference', to: 'patient', required: true },
        referredBy: { type: 'reference', to: 'patient' },
        cancelled: { type: 'boolean', default: false, required: true },
      },
    },
  },
  roles: { receptionist: {}, practitioner: {} },
  permissions: {
    practitioner: { receptionist: { list: true, read: true, create: true } },
    patient: {
      receptionist: { list: true, read: true, create: true, update: true },
      practitioner: {
        list: {
          where: { exists: 'appointment', via: 'patient', where: { field: 'practitioner.account', op: 'eq', value: { actor: 'id' } } },
        },
        read: {
          where: { exists: 'appointment', via: 'patient', where: { field: 'practitioner.account', op: 'eq', value: { actor: 'id' } } },
        },
      },
    },
    appointment: {
      receptionist: { list: true, read: true, create: true, update: true },
      practitioner: { list: { where: { field: 'practitioner.account', op: 'eq', value: { actor: 'id' } } } },
    },
  },
} as const;

const model = buildModel(SPEC as unknown as AppSpec);

forEachDatabase('exists in conditions', (database) => {
  let store: Store;
  let ops: Ops;
  let desk: Actor;
  let doctorA: Actor;
  let doctorB: Actor;
  const patients: Record<string, number> = {};

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    desk = await createActor(store.db, ['receptionist'], 'Desk');
    doctorA = await createActor(store.db, ['practitioner'], 'Doctor A');
    doctorB = await createActor(store.db, ['practitioner'], 'Doctor B');
    const a = await ops.create(desk, 'practitioner', { name: 'A', account: doctorA.userId });
    const b = await ops.create(desk, 'practitioner', { name: 'B', account: doctorB.userId });
    for (const name of ['onlyA', 'onlyB', 'both', 'nobody', 'referrer']) patients[name] = (await ops.create(desk, 'patient', { name })).id;
    const book = (practitioner: number, patient: string, input: Record<string, unknown> = {}) =>
      ops.create(desk, 'appointment', { reason: 'Check-up', practitioner, patient: patients[patient], ...input });
    await book(a.id, 'onlyA');
    await book(b.id, 'onlyB', { referredBy: patients.referrer });
    await book(a.id, 'both');
    await book(b.id, 'both');
  });

  const names = async (actor: Actor, where?: Parameters<Ops['list']>[2]) =>
    (await ops.list(actor, 'patient', { limit: 100, ...where })).rows.map((r) => r.name).sort();

  it('lists to a practitioner only the patients they have an appointment with', async () => {
    expect(await names(doctorA)).toEqual(['both', 'onlyA']);
    expect(await names(doctorB)).toEqual(['both', 'onlyB']);
    expect(await names(desk)).toEqual(['both', 'nobody', 'onlyA', 'onlyB', 'referrer']);
  });

  it('reads a patient of theirs, and answers NOT_FOUND for one of another practitioner', async () => {
    expect((await ops.get(doctorA, 'patient', patients.onlyA!)).record.name).toBe('onlyA');
    expect((await ninefoldError(ops.get(doctorA, 'patient', patients.onlyB!))).code).toBe('NOT_FOUND');
    // The referrer is referenced by an appointment of B, but not through `via: 'patient'`.
    expect((await ninefoldError(ops.get(doctorB, 'patient', patients.referrer!))).code).toBe('NOT_FOUND');
  });

  it("follows a new appointment at once: the patient comes into the practitioner's view", async () => {
    const practitioner = (await ops.list(desk, 'practitioner', { filters: {}, limit: 10 })).rows.find((r) => r.name === 'A')!;
    const patient = await ops.create(desk, 'patient', { name: 'new' });
    expect(await names(doctorA)).not.toContain('new');
    await ops.create(desk, 'appointment', { reason: 'First visit', practitioner: practitioner.id, patient: patient.id });
    expect(await names(doctorA)).toContain('new');
  });

  describe('in a list condition', () => {
    it('asks for no related record with not, and through the reference `via` names', async () => {
      expect(await names(desk, { where: { not: { exists: 'appointment', via: 'patient' } } })).toEqual(['nobody', 'referrer']);
      expect(await names(desk, { where: { exists: 'appointment', via: 'referredBy' } })).toEqual(['referrer']);
    });
  });
});
