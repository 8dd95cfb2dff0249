import { defineApp } from 'ninefold';

/**
 * A desk whose tickets are posted to a CRM (tests/browser/webhooks.test.ts): `crm` is set by the
 * test's environment, `offline` never is, so /admin/webhooks shows one on and one off.
 */
export default defineApp({
  name: 'webhooks-test',
  purpose: { title: 'Webhook desk' },
  roles: { agent: { label: 'Agent' }, partner: { label: 'Partner' } },
  entities: {
    ticket: {
      titleField: 'subject',
      fields: { subject: { type: 'text', required: true, maxLength: 120 }, notes: { type: 'text' } },
    },
  },
  permissions: {
    ticket: {
      agent: { list: true, read: true, create: true, update: true },
      partner: { list: true, read: true, hiddenFields: ['notes'] },
    },
  },
  webhooks: {
    crm: {
      url: { env: 'TEST_CRM_URL' },
      secret: { env: 'TEST_CRM_SECRET' },
      events: ['ticket.created', 'ticket.updated'],
      role: 'partner',
      description: 'Keeps the CRM in step',
    },
    offline: { url: { env: 'TEST_OFFLINE_URL' }, secret: { env: 'TEST_OFFLINE_SECRET' }, events: ['ticket.created'], role: 'agent' },
  },
});
