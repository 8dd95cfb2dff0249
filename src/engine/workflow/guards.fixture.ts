import type { AppSpec } from '../spec/types';

/* A spec whose transition has several guards, for the tests of every door (test code only). */

/**
 * Expense requests approved by managers: never one's own (OWN_REQUEST), and only up to the
 * approval limit (OVER_APPROVAL_LIMIT); a director's approval has no limit.
 */
export const approvals: AppSpec = {
  name: 'approvals',
  entities: {
    expense: {
      titleField: 'purpose',
      fields: {
        purpose: { type: 'text', required: true },
        amount: { type: 'integer', required: true, min: 1 },
        author: { type: 'user', default: 'actor', required: true, readOnly: true },
      },
    },
  },
  workflows: {
    expense: {
      states: { submitted: { initial: true }, approved: {}, paid: { final: true } },
      transitions: {
        approve: {
          from: 'submitted',
          to: 'approved',
          allow: ['manager'],
          guard: [
            {
              when: { field: 'author', op: 'ne', value: { actor: 'id' } },
              error: 'OWN_REQUEST',
              message: 'You cannot approve your own request.',
            },
            { when: { field: 'amount', op: 'lte', value: { $constant: 'approvalLimit' } }, error: 'OVER_APPROVAL_LIMIT' },
          ],
        },
        pay: { from: 'approved', to: 'paid', allow: ['manager'], guard: [{ when: { field: 'amount', op: 'gt', value: 0 } }] },
      },
    },
  },
  roles: { manager: {} },
  permissions: { expense: { manager: { list: true, read: true, create: true, transitions: { approve: true, pay: true } } } },
  errors: {
    OWN_REQUEST: { status: 403, title: 'Own request', message: 'Someone else must approve this.' },
    OVER_APPROVAL_LIMIT: { status: 409, title: 'Over the approval limit', message: 'Amounts over the approval limit need a director.' },
  },
  constants: { approvalLimit: { value: 5000, unit: 'EUR' } },
};
