import { defineApp } from 'ninefold';

/**
 * A small spec that lets visitors in (the built-in `public` role reads notices and sends messages)
 * with a per-address limit of 5 requests a minute, for the visitors' page limit
 * (tests/browser/visitor-rate-limit.test.ts).
 */
export default defineApp({
  name: 'visitors-limited',
  purpose: { title: 'Notices' },
  roles: { public: { label: 'Reader' } },
  entities: {
    notice: {
      label: 'Notice',
      titleField: 'title',
      fields: { title: { type: 'text', required: true, maxLength: 200 } },
    },
    message: {
      label: 'Message',
      titleField: 'subject',
      fields: { subject: { type: 'text', required: true, maxLength: 200 } },
    },
  },
  permissions: {
    notice: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      public: { list: true, read: true },
    },
    message: {
      admin: { list: true, read: true },
      public: { create: true },
    },
  },
  constants: {
    apiRateLimitPerIpPerMinute: { value: 5, description: 'Small, so that a test reaches it.' },
  },
});
