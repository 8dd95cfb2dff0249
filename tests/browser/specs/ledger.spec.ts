import { defineApp } from 'ninefold';

/**
 * Payments only the spec's calls write, and an account balance only the `pay` call writes, for
 * the pages' side of `writtenBy: 'calls'` (tests/browser/written-by.test.ts). The bootstrap
 * administrator is the clerk here.
 */
export default defineApp({
  name: 'ledger-test',
  purpose: { title: 'Ledger' },
  roles: { admin: { label: 'Administrator' } },
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
      },
    },
  },
  workflows: {
    payment: {
      states: { recorded: { initial: true }, refunded: { final: true } },
      transitions: { refund: { from: 'recorded', to: 'refunded', allow: ['admin'] } },
    },
  },
  screens: { details: { account: { related: { payment: {} } } } },
  permissions: {
    account: { admin: { list: true, read: true, create: true, update: true, delete: true } },
    payment: { admin: { list: true, read: true, create: true, update: true, delete: true, transitions: { refund: true } } },
  },
  calls: {
    pay: {
      method: 'POST',
      path: '/accounts/{id}/pay',
      params: { id: 'integer' },
      input: { amount: { type: 'integer', required: true, min: 1 }, memo: { type: 'text', required: true } },
      output: 'payment',
      roles: ['admin'],
      handler: async ({ params, input, ops }) => {
        const id = Number(params.id);
        const payment = await ops.create('payment', { account: id, amount: input.amount, memo: input.memo });
        const { record } = await ops.get('account', id);
        await ops.update('account', id, { balance: Number(record.balance) + Number(input.amount) }, record.version);
        return payment;
      },
    },
  },
});
