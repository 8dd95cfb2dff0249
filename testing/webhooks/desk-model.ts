import { buildModel } from '@/engine/spec/build';
import type { AppSpec } from '@/engine/spec/types';

/**
 * A small helpdesk with two webhooks, for the webhooks' tests: `crm` reads tickets as the
 * partner, who may not read the agents' notes; `offline`'s variables are never set by the tests'
 * environment unless a test sets them.
 */
export const webhookDeskSpec: AppSpec = {
  name: 'desk',
  entities: {
    ticket: {
      titleField: 'subject',
      fields: { subject: { type: 'text', required: true }, notes: { type: 'text' } },
    },
  },
  workflows: {
    ticket: {
      states: { open: { initial: true }, resolved: { final: true } },
      transitions: { resolve: { from: 'open', to: 'resolved', allow: ['agent'] } },
    },
  },
  roles: { agent: {}, partner: {} },
  permissions: {
    ticket: {
      agent: { list: true, read: true, create: true, update: true, delete: true },
      // The CRM partner reads tickets but not the agents' notes.
      partner: { list: true, read: true, hiddenFields: ['notes'] },
    },
  },
  webhooks: {
    crm: {
      url: { env: 'TEST_CRM_URL' },
      secret: { env: 'TEST_CRM_SECRET' },
      events: ['ticket.created', 'ticket.updated', 'ticket.resolve', 'ticket.deleted'],
      role: 'partner',
    },
    offline: { url: { env: 'TEST_OFFLINE_URL' }, secret: { env: 'TEST_OFFLINE_SECRET' }, events: ['ticket.created'], role: 'agent' },
  },
};

export const webhookDeskModel = buildModel(webhookDeskSpec);
