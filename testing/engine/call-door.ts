/**
 * A small ledger for the tests of `writtenBy: 'calls'`: payments are written only by the spec's
 * calls (and the refund transition), and an account's balance only by the `pay` call, while the
 * rest of an account is edited as usual.
 */
import type { AppSpec } from '@/engine/spec/types';

export const ledgerSpec: AppSpec = {
  name: 'ledger',
  purpose: { title: 'Ledger' },
  roles: { clerk: { label: 'Clerk' }, viewer: { label: 'Viewer' } },
  entities: {
    account: {
      titleField: 'name',
      fields: {
        name: { type: 'text', required: true, maxLength: 80 },
        balance: { type: 'integer', required: true, default: 0, writtenBy: 'calls' },
        note: { type: 'text' },
      },
    },
    payment: {
      writtenBy: 'calls',
      titleField: 'memo',
      fields: {
        memo: { type: 'text', required: true },
        account: { type: 'reference', to: 'account', required: true },
        amount: { type: 'integer', required: true, min: 1 },
        refundedAt: { type: 'datetime', readOnly: true },
      },
    },
  },
  workflows: {
    payment: {
      states: { recorded: { initial: true }, refunded: { final: true } },
      transitions: { refund: { from: 'recorded', to: 'refunded', allow: ['clerk'], effects: [{ set: 'refundedAt', to: 'now' }] } },
    },
  },
  permissions: {
    account: {
      clerk: { list: true, read: true, create: true, update: true, delete: true },
      viewer: { list: true, read: true, update: true, writableFields: ['note'] },
    },
    payment: {
      clerk: { list: true, read: true, create: true, update: true, delete: true, transitions: { refund: true } },
      viewer: { list: true, read: true },
    },
  },
  calls: {
    pay: {
      method: 'POST',
      path: '/accounts/{id}/pay',
      summary: 'Records a payment and adds it to the balance',
      params: { id: 'integer' },
      input: { amount: { type: 'integer', required: true, min: 1 }, memo: { type: 'text', required: true } },
      output: 'payment',
      roles: ['clerk', 'viewer'],
      handler: async ({ params, input, ops }) => {
        const id = Number(params.id);
        const payment = await ops.create('payment', { account: id, amount: input.amount, memo: input.memo });
        const { record } = await ops.get('account', id);
        await ops.update('account', id, { balance: Number(record.balance) + Number(input.amount) }, record.version);
        return payment;
      },
    },
    amend: {
      method: 'POST',
      path: '/payments/{id}/amend',
      params: { id: 'integer' },
      input: { memo: { type: 'text', required: true } },
      output: 'payment',
      roles: ['clerk'],
      handler: async ({ params, input, ops }) => {
        const { record } = await ops.get('payment', Number(params.id));
        return ops.update('payment', record.id, { memo: input.memo }, record.version);
      },
    },
    void: {
      method: 'POST',
      path: '/payments/{id}/void',
      params: { id: 'integer' },
      roles: ['clerk'],
      handler: async ({ params, ops }) => {
        await ops.delete('payment', Number(params.id));
      },
    },
    /** Tries the doors a call must not open: a read-only field stays read-only, through calls too. */
    stamp: {
      method: 'POST',
      path: '/payments/{id}/stamp',
      params: { id: 'integer' },
      roles: ['clerk'],
      handler: async ({ params, ops }) => {
        const { record } = await ops.get('payment', Number(params.id));
        await ops.update('payment', record.id, { refundedAt: new Date().toISOString() }, record.version);
      },
    },
    /** What ops.access tells a call about the entities only calls write. */
    access: {
      method: 'GET',
      path: '/ledger/access',
      output: { paymentCreate: { type: 'boolean' }, accountWritable: { type: 'text' } },
      roles: ['clerk', 'viewer'],
      handler: async ({ ops }) => {
        return { paymentCreate: ops.access('payment').actions.create, accountWritable: ops.access('account').writable.update.join(',') };
      },
    },
  },
};
