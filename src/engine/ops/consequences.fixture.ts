import { defineApp } from '../spec/define';

/* A spec whose writes have consequences, for the tests of ops and the API (test code only). */

/**
 * Lending: checking a loan out marks its item on loan (as the user, so their grants apply) and
 * needs a second approval above an amount (the target chosen by the data); completing it returns
 * its equipment to service on the engine's authority (`complete`) or the user's (`hand`);
 * creating a loan reserves its equipment. One active loan per item (LOAN_EXISTS), never a
 * negative amount (NEGATIVE_AMOUNT).
 */
export const lending = defineApp({
  name: 'lending',
  entities: {
    item: {
      titleField: 'name',
      fields: {
        name: { type: 'text', required: true },
        status: { type: 'enum', values: ['available', 'onLoan'], default: 'available', required: true },
      },
    },
    equipment: {
      titleField: 'name',
      fields: { name: { type: 'text', required: true }, keeper: { type: 'user' } },
    },
    loan: {
      titleField: 'code',
      fields: {
        code: { type: 'text', required: true },
        item: { type: 'reference', to: 'item', required: true },
        equipment: { type: 'reference', to: 'equipment' },
        amount: { type: 'integer', default: 0 },
      },
      uniqueWhen: {
        fields: ['item'],
        where: { field: 'state', op: 'eq', value: 'active' },
        message: 'This item is already out.',
        error: 'LOAN_EXISTS',
      },
      onCreate: [{ on: 'equipment', transition: 'reserve', as: 'system' }],
    },
  },
  rules: {
    loan: {
      noNegative: {
        assert: { field: 'amount', op: 'gte', value: 0 },
        field: 'amount',
        message: 'The amount cannot be negative.',
        error: 'NEGATIVE_AMOUNT',
      },
    },
  },
  workflows: {
    equipment: {
      states: { free: { initial: true }, reserved: {}, repair: {} },
      transitions: {
        reserve: { from: 'free', to: 'reserved', allow: ['manager'] },
        breakDown: { from: ['free', 'reserved'], to: 'repair', allow: ['staff', 'manager'] },
        returnToService: {
          from: 'repair',
          to: 'free',
          allow: ['manager'],
          guard: [
            { when: { field: 'name', op: 'ne', value: 'Broken for good' }, error: 'BEYOND_REPAIR' },
            { when: { field: 'keeper', op: 'eq', value: { actor: 'id' } }, error: 'NOT_KEEPER' },
          ],
        },
      },
    },
    loan: {
      states: { requested: { initial: true }, secondApproval: {}, active: {}, done: { final: true } },
      transitions: {
        checkOut: {
          from: 'requested',
          to: [
            { when: { field: 'amount', op: 'gt', value: { $constant: 'secondApprovalOver' } }, state: 'secondApproval' },
            { state: 'active' },
          ],
          allow: ['staff', 'manager', 'clerk'],
          effects: [{ on: 'item', set: 'status', to: 'onLoan' }],
        },
        approve: { from: 'secondApproval', to: 'active', allow: ['manager'] },
        complete: {
          from: 'active',
          to: 'done',
          allow: ['staff', 'manager'],
          effects: [
            { on: 'equipment', transition: 'returnToService', as: 'system' },
            { on: 'item', set: 'status', to: 'available', as: 'system' },
          ],
        },
        hand: { from: 'active', to: 'done', allow: ['staff', 'manager'], effects: [{ on: 'equipment', transition: 'returnToService' }] },
      },
    },
  },
  // An auditor reads items only: an item's history does not name the loans that changed it.
  roles: { staff: {}, manager: {}, clerk: {}, auditor: {} },
  permissions: {
    item: {
      staff: { list: true, read: true, create: true, update: true },
      manager: { list: true, read: true, create: true, update: true },
      clerk: { list: true, read: true },
      auditor: { list: true, read: true },
    },
    equipment: {
      staff: { list: true, read: true, create: true, update: true },
      manager: { list: true, read: true, create: true, update: true },
      clerk: { list: true, read: true },
    },
    loan: {
      staff: { list: true, read: true, create: true, update: true },
      manager: { list: true, read: true, create: true, update: true },
      clerk: { list: true, read: true, create: true, update: true },
    },
  },
  errors: {
    LOAN_EXISTS: { status: 409, title: 'Loan exists', message: 'This item is already out.' },
    NEGATIVE_AMOUNT: { status: 422, title: 'Negative amount', message: 'The amount cannot be negative.' },
    BEYOND_REPAIR: { status: 409, title: 'Beyond repair', message: 'This equipment cannot be returned to service.' },
    NOT_KEEPER: { status: 403, title: 'Not the keeper', message: 'Only its keeper returns equipment to service.' },
  },
  constants: { secondApprovalOver: { value: 10000 } },
});
