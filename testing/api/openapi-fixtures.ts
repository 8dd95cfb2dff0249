import helpdesk from '../../examples/helpdesk/ninefold.spec';
import { buildModel } from '@/engine/spec/build';
import { defineApp } from '@/engine/spec/define';
import type { AppModel } from '@/engine/spec/model';
import { ADMIN_ROLE } from '@/engine/access/policy';

/** Specs the OpenAPI tests generate documents from (test code only). */

/** One field of every type, every kind of constraint, and a call beside a generated path. */
export const everyFieldSpec = defineApp({
  name: 'inventory',
  purpose: { title: 'Inventory' },
  entities: {
    user: {
      label: 'User',
      fields: { handle: { type: 'text', required: true, pattern: '^[a-z]+$', maxLength: 20 } },
    },
    lineItem: {
      label: 'Line item',
      description: 'One line of an order.',
      fields: {
        code: { type: 'text', required: true, minLength: 2, maxLength: 10 },
        host: { type: 'text', format: 'hostname' },
        notes: { type: 'markdown', maxLength: 500 },
        quantity: { type: 'integer', min: 1, max: { $constant: 'maxQuantity' }, default: 1, required: true },
        price: { type: 'decimal', precision: 10, scale: 2, min: 0 },
        paid: { type: 'boolean', default: false },
        kind: { type: 'enum', values: ['part', 'labour'] },
        due: { type: 'date' },
        seenAt: { type: 'datetime', default: 'now' },
        contact: { type: 'email' },
        link: { type: 'url' },
        owner: { type: 'user', default: 'actor', required: true },
        buyer: { type: 'reference', to: 'user' },
        checkedAt: { type: 'datetime', readOnly: true },
      },
    },
  },
  roles: { clerk: {} },
  calls: {
    openItems: {
      method: 'GET',
      path: '/line-items/open',
      summary: 'Line items not paid yet',
      output: { count: { type: 'integer', required: true }, oldest: { type: 'date' } },
      roles: ['clerk'],
      handler: async () => ({ count: 0, oldest: null }),
    },
    restock: {
      method: 'POST',
      path: '/line-items/{id}/restock',
      params: { id: 'integer' },
      input: { amount: { type: 'integer', required: true, min: 1 }, note: { type: 'text' } },
      output: 'lineItem',
      roles: ['clerk'],
      errors: ['OUT_OF_STOCK', 'NOT_FOUND'],
      handler: async () => null,
    },
    purge: {
      method: 'DELETE',
      path: '/purge/{before}/{dryRun}',
      params: { before: 'text', dryRun: 'boolean' },
      roles: ['clerk'],
      handler: async () => undefined,
    },
  },
  errors: { OUT_OF_STOCK: { status: 409, title: 'Out of stock', message: 'Nothing left.' } },
  constants: { maxQuantity: { value: 999 }, apiMaxPageSize: { value: 40 } },
});

export const helpdeskModel: AppModel = buildModel(helpdesk);
export const everyFieldModel: AppModel = buildModel(everyFieldSpec);

/** The helpdesk with the escalate call, as the REST door's spec declares it. */
export const helpdeskWithEscalate: AppModel = buildModel(
  defineApp({
    ...helpdesk,
    calls: {
      escalate: {
        method: 'POST',
        path: '/tickets/{id}/escalate',
        summary: 'Raise the priority one step',
        params: { id: 'integer' },
        input: { reason: { type: 'text', required: true, maxLength: 500 } },
        output: 'ticket',
        roles: ['agent', ADMIN_ROLE],
        errors: ['NOT_FOUND', 'TICKET_CLOSED'],
        handler: async () => null,
      },
    },
  }),
);
