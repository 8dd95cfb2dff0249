import { beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../spec/build';
import { AUDIT_TABLE } from '../store/schema/desired';
import type { Store } from '../store/types';
import { forEachDatabase } from '@testing/engine/store';
import { createActor, expectRefused, ninefoldError, openSyncedQuickly } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import type { RecordData } from './types';
import { lending } from './consequences.fixture';

const model = buildModel(lending);

forEachDatabase('consequences of writes', (database) => {
  let store: Store;
  let ops: Ops;
  let staff: Actor;
  let clerk: Actor;
  let manager: Actor;
  let counter = 0;

  /** Every row of the tables the writes touch, history included: a refused write leaves them all as they were. */
  const everything = async () => {
    const tables: Record<string, unknown[]> = {};
    for (const table of ['item', 'equipment', 'loan', AUDIT_TABLE])
      tables[table] = await store.db.selectFrom(table).selectAll().orderBy('id').execute();
    return tables;
  };
  const newItem = () => ops.create(staff, 'item', { name: `Item ${++counter}` });
  const newEquipment = (input: Record<string, unknown> = {}) => ops.create(staff, 'equipment', { name: `Drill ${++counter}`, ...input });
  const newLoan = (input: Record<string, unknown>, actor = staff) => ops.create(actor, 'loan', { code: `L${++counter}`, ...input });
  const read = async (entity: string, id: number) => (await ops.get(manager, entity, id)).record;
  /** Equipment that has broken down: ready to be returned to service. */
  const brokenEquipment = async (input: Record<string, unknown> = {}) => {
    const equipment = await newEquipment(input);
    return ops.transition(staff, 'equipment', equipment.id, 'breakDown', { version: equipment.version });
  };
  const activeLoan = async (input: Record<string, unknown> = {}): Promise<RecordData> => {
    const loan = await newLoan({ item: (await newItem()).id, ...input });
    return ops.transition(staff, 'loan', loan.id, 'checkOut', { version: loan.version });
  };

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    staff = await createActor(store.db, ['staff'], 'Lending Staff');
    clerk = await createActor(store.db, ['clerk'], 'Lending Clerk');
    manager = await createActor(store.db, ['manager'], 'Lending Manager');
  });

  describe('an effect that sets a field of the referenced record', () => {
    it('sets it as the actor, in the transition, with history on both records naming the cause', async () => {
      const item = await newItem();
      const loan = await newLoan({ item: item.id });
      const taken = await ops.transition(staff, 'loan', loan.id, 'checkOut', { version: loan.version });
      expect(taken.state).toBe('active');
      const after = await read('item', item.id);
      expect(after).toMatchObject({ status: 'onLoan', version: item.version + 1, updatedBy: staff.userId });

      const itemHistory = (await ops.history(manager, 'item', item.id)).entries;
      expect(itemHistory[0]).toMatchObject({
        action: 'update',
        actor: { id: staff.userId },
        changes: { status: { from: 'available', to: 'onLoan' } },
        cause: { entity: 'loan', recordId: loan.id, action: 'checkOut', text: `by transition Check out of Loan #${loan.id}` },
      });
      // Who may not read loans sees the change without its cause.
      const auditor = await createActor(store.db, ['auditor'], 'Lending Auditor');
      const [seen] = (await ops.history(auditor, 'item', item.id)).entries;
      expect(seen).toMatchObject({ action: 'update', changes: { status: { from: 'available', to: 'onLoan' } } });
      expect(seen!.cause).toBeUndefined();
      const loanHistory = (await ops.history(manager, 'loan', loan.id)).entries;
      expect(loanHistory[0]).toMatchObject({ action: 'transition', transition: { name: 'checkOut', from: 'requested', to: 'active' } });
      expect(loanHistory[0]!.cause).toBeUndefined();
    });

    it('refuses the whole transition when the actor may not change the referenced record: nothing is saved', async () => {
      const item = await newItem();
      const loan = await newLoan({ item: item.id }, clerk);
      // A clerk may take "Check out" but may not update items: the effect's refusal is the answer.
      await expectRefused(everything, 'FORBIDDEN_FIELD', () =>
        ops.transition(clerk, 'loan', loan.id, 'checkOut', { version: loan.version }),
      );
      expect(await read('loan', loan.id)).toMatchObject({ state: 'requested', version: loan.version });
      expect(await read('item', item.id)).toMatchObject({ status: 'available', version: item.version });
    });

    it('sets it as the system without the actor being allowed to', async () => {
      const loan = await activeLoan();
      const equipment = await brokenEquipment({ keeper: manager.userId });
      const withEquipment = await ops.update(staff, 'loan', loan.id, { equipment: equipment.id }, loan.version);
      const done = await ops.transition(staff, 'loan', loan.id, 'complete', { version: withEquipment.version });
      expect(done.state).toBe('done');
      expect(await read('item', Number(loan.item))).toMatchObject({ status: 'available' });
    });
  });

  describe('an effect that takes a transition of the referenced record', () => {
    it('as the system: taken though the actor is not allowed to, the guards about the user skipped', async () => {
      const equipment = await brokenEquipment({ keeper: manager.userId });
      const loan = await activeLoan();
      const withEquipment = await ops.update(staff, 'loan', loan.id, { equipment: equipment.id }, loan.version);
      // Staff may not take "Return to service", and are not its keeper: the engine takes it.
      await ops.transition(staff, 'loan', loan.id, 'complete', { version: withEquipment.version });
      const after = await read('equipment', equipment.id);
      expect(after).toMatchObject({ state: 'free', version: equipment.version + 1, updatedBy: staff.userId });
      const [entry] = (await ops.history(manager, 'equipment', equipment.id)).entries;
      expect(entry).toMatchObject({
        action: 'transition',
        transition: { name: 'returnToService', from: 'repair', to: 'free' },
        cause: { entity: 'loan', recordId: loan.id, action: 'complete', text: `by transition Complete of Loan #${loan.id}` },
      });
    });

    it('as the system: a guard that does not read the user still holds, and refuses the whole write with its code', async () => {
      const equipment = await brokenEquipment({ name: 'Broken for good' });
      const loan = await activeLoan();
      const withEquipment = await ops.update(staff, 'loan', loan.id, { equipment: equipment.id }, loan.version);
      await expectRefused(everything, 'BEYOND_REPAIR', () =>
        ops.transition(staff, 'loan', loan.id, 'complete', { version: withEquipment.version }),
      );
    });

    it('as the system: the referenced record must be in a state the transition leaves', async () => {
      const equipment = await newEquipment(); // free, not in repair
      const loan = await activeLoan();
      const withEquipment = await ops.update(staff, 'loan', loan.id, { equipment: equipment.id }, loan.version);
      const error = await expectRefused(everything, 'TRANSITION_NOT_ALLOWED', () =>
        ops.transition(staff, 'loan', loan.id, 'complete', { version: withEquipment.version }),
      );
      expect(error.message).toContain('Return to service');
    });

    it('as the actor: their allow and guards apply', async () => {
      const equipment = await brokenEquipment({ keeper: manager.userId });
      const loan = await activeLoan();
      const withEquipment = await ops.update(staff, 'loan', loan.id, { equipment: equipment.id }, loan.version);
      // Staff are not in "Return to service"'s allow.
      await expectRefused(everything, 'TRANSITION_NOT_ALLOWED', () =>
        ops.transition(staff, 'loan', loan.id, 'hand', { version: withEquipment.version }),
      );
      // The manager is, and is its keeper.
      const done = await ops.transition(manager, 'loan', loan.id, 'hand', { version: withEquipment.version });
      expect(done.state).toBe('done');
      expect(await read('equipment', equipment.id)).toMatchObject({ state: 'free', updatedBy: manager.userId });
    });

    it('as the actor: a guard about the user refuses with its own code', async () => {
      const equipment = await brokenEquipment({ keeper: staff.userId });
      const loan = await activeLoan();
      const withEquipment = await ops.update(staff, 'loan', loan.id, { equipment: equipment.id }, loan.version);
      await expectRefused(everything, 'NOT_KEEPER', () =>
        ops.transition(manager, 'loan', loan.id, 'hand', { version: withEquipment.version }),
      );
    });

    it('on create (onCreate): reserves the equipment as the system, or refuses the create and saves nothing', async () => {
      const equipment = await newEquipment();
      const loan = await newLoan({ item: (await newItem()).id, equipment: equipment.id });
      expect(await read('equipment', equipment.id)).toMatchObject({ state: 'reserved' });
      const [entry] = (await ops.history(manager, 'equipment', equipment.id)).entries;
      expect(entry?.cause).toMatchObject({ action: 'create', text: `by creating Loan #${loan.id}` });

      // Reserved already: "Reserve" cannot be taken again, so the second loan is not created.
      const item = await newItem();
      await expectRefused(everything, 'TRANSITION_NOT_ALLOWED', () => newLoan({ item: item.id, equipment: equipment.id }));
      // Without equipment there is nothing to act on.
      expect((await newLoan({ item: item.id })).state).toBe('requested');
    });
  });

  describe('a target chosen by the data', () => {
    it('enters the first target whose condition holds, else the last', async () => {
      const small = await activeLoan({ amount: 10000 });
      expect(small.state).toBe('active');
      const big = await newLoan({ item: (await newItem()).id, amount: 10001 });
      const waiting = await ops.transition(staff, 'loan', big.id, 'checkOut', { version: big.version });
      expect(waiting.state).toBe('secondApproval');
      const [entry] = (await ops.history(manager, 'loan', big.id)).entries;
      expect(entry?.transition).toMatchObject({ from: 'requested', to: 'secondApproval' });
    });

    it("reads the record with the transition's input applied", async () => {
      const loan = await newLoan({ item: (await newItem()).id, amount: 5 });
      const waiting = await ops.transition(staff, 'loan', loan.id, 'checkOut', { version: loan.version, input: { amount: 20000 } });
      expect(waiting).toMatchObject({ state: 'secondApproval', amount: 20000 });
    });
  });

  describe('rules and uniqueWhen with their own codes', () => {
    it('refuses with the rule code, its status, and the message on its field', async () => {
      const item = await newItem();
      const error = await expectRefused(everything, 'NEGATIVE_AMOUNT', () => newLoan({ item: item.id, amount: -1 }));
      expect(error.status).toBe(422);
      expect(error.fieldErrors).toEqual([{ field: 'amount', code: 'noNegative', message: 'The amount cannot be negative.' }]);
    });

    it('refuses a second active loan of an item with LOAN_EXISTS (409), on the item field', async () => {
      const loan = await activeLoan();
      const second = await newLoan({ item: loan.item });
      const error = await expectRefused(everything, 'LOAN_EXISTS', () =>
        ops.transition(staff, 'loan', second.id, 'checkOut', { version: second.version }),
      );
      expect(error.status).toBe(409);
      expect(error.fieldErrors).toEqual([{ field: 'item', code: 'unique', message: 'This item is already out.' }]);
      expect((await ninefoldError(ops.update(staff, 'loan', loan.id, { amount: -5 }, loan.version))).code).toBe('NEGATIVE_AMOUNT');
    });
  });
});
