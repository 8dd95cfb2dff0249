import { defineApp } from 'ninefold';

/**
 * A newsletter whose issues publish themselves at their time and are archived a while later
 * (tests/browser/scheduled.test.ts): transitions the scheduler takes, seen live on open pages.
 */
export default defineApp({
  name: 'newsletter-test',
  purpose: { title: 'Newsletter' },
  roles: { admin: { label: 'Administrator' }, editor: { label: 'Editor' } },
  entities: {
    issue: {
      titleField: 'title',
      fields: {
        title: { type: 'text', required: true, maxLength: 120 },
        publishAt: { type: 'datetime', label: 'Publish at' },
        publishedAt: { type: 'datetime', label: 'Published at', readOnly: true },
      },
    },
  },
  workflows: {
    issue: {
      states: { draft: { initial: true }, scheduled: {}, published: {}, archived: { final: true } },
      transitions: {
        schedule: { from: 'draft', to: 'scheduled', allow: ['editor', 'admin'], requires: ['publishAt'] },
        publish: {
          from: 'scheduled',
          to: 'published',
          allow: ['editor'],
          effects: [{ set: 'publishedAt', to: 'now' }],
          auto: { after: 'publishAt' },
        },
        archive: { from: 'published', to: 'archived', allow: [], auto: { after: 'publishedAt', days: { $constant: 'archiveAfterDays' } } },
      },
    },
  },
  permissions: {
    issue: {
      admin: { list: true, read: true, create: true, update: true },
      editor: { list: true, read: true, create: true, update: true },
    },
  },
  constants: { archiveAfterDays: { value: 30, unit: 'days', description: 'How long an issue stays on the front page.' } },
});
