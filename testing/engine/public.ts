import type { AppSpec } from '@/engine/spec/types';

/**
 * A small spec with visitors (the built-in `public` role), for tests: a notice board whose
 * published notices anyone reads (but not their internal note), and a contact form anyone may
 * send and only desk agents read. Nothing else in it is open to visitors.
 */
export const noticeBoardSpec: AppSpec = {
  name: 'notice-board',
  purpose: { title: 'Notice board', summary: 'Desk agents post notices; anyone reads the published ones and may write to the desk.' },
  entities: {
    notice: {
      label: 'Notice',
      titleField: 'title',
      fields: {
        title: { type: 'text', required: true, minLength: 3, maxLength: 200 },
        body: { type: 'markdown', maxLength: 5000 },
        note: { type: 'text', label: 'Internal note', maxLength: 200 },
        author: { type: 'user', default: 'actor' },
      },
    },
    message: {
      label: 'Message',
      titleField: 'subject',
      fields: {
        subject: { type: 'text', required: true, minLength: 3, maxLength: 200 },
        email: { type: 'email', required: true },
        // Who sent it when signed in; empty for a visitor, who has no account.
        sender: { type: 'user', default: 'actor' },
      },
    },
    board: {
      label: 'Board',
      titleField: 'name',
      fields: { name: { type: 'text', required: true, maxLength: 80 } },
    },
  },
  workflows: {
    notice: {
      states: { draft: { label: 'Draft', initial: true }, published: { label: 'Published' } },
      transitions: { publish: { label: 'Publish', from: 'draft', to: 'published', allow: ['agent'] } },
    },
  },
  roles: {
    agent: { label: 'Desk agent' },
    public: { label: 'Reader' },
  },
  permissions: {
    notice: {
      agent: { list: true, read: true, create: true, update: true, delete: true, transitions: { publish: true } },
      public: {
        list: { where: { field: 'state', op: 'eq', value: 'published' } },
        read: { where: { field: 'state', op: 'eq', value: 'published' } },
        hiddenFields: ['note'],
      },
    },
    message: {
      agent: { list: true, read: true, delete: true },
      public: { create: true },
    },
    board: {
      agent: { list: true, read: true, create: true },
    },
  },
};
