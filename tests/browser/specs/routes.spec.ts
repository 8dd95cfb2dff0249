import { createElement } from 'react';
import { defineApp } from 'ninefold';

/**
 * A small spec for the custom routes the helpdesk does not declare: one record, a dashboard,
 * a component of the spec's own, and text and boolean parameters.
 */
export default defineApp({
  name: 'routes-test',
  purpose: { title: 'Route test' },
  screens: {
    routes: {
      note: { path: '/notes/{id}/page', title: 'One note', params: { id: 'integer' }, show: { record: 'note', id: 'id' } },
      board: {
        path: '/board',
        title: 'Board',
        navigation: true,
        show: { widgets: [{ kind: 'counts', entity: 'note', by: 'pinned', title: 'Notes by pin' }] },
      },
      tagged: {
        path: '/tagged/{tag}/{pinned}/notes',
        title: 'Tagged notes',
        params: { tag: 'text', pinned: 'boolean' },
        show: {
          list: 'note',
          where: {
            all: [
              { field: 'tag', op: 'eq', value: { param: 'tag' } },
              { field: 'pinned', op: 'eq', value: { param: 'pinned' } },
            ],
          },
          sort: 'title',
          columns: ['title', 'tag'],
        },
      },
      hello: {
        path: '/hello',
        title: 'Hello',
        navigation: true,
        // A React Server Component of the spec's own: it reads through ops, under the viewer's access.
        show: {
          component: async ({ actor, ops }) => {
            const { count } = await ops.count('note', {});
            return createElement('p', { 'data-testid': 'hello' }, `Hello ${actor.name || actor.email}, ${count} notes are yours to read.`);
          },
        },
      },
    },
  },
  entities: {
    note: {
      titleField: 'title',
      fields: {
        title: { type: 'text', required: true, maxLength: 100 },
        tag: { type: 'text', maxLength: 40 },
        pinned: { type: 'boolean', default: false },
      },
    },
  },
  permissions: { note: { admin: { list: true, read: true, create: true, update: true, delete: true } } },
});
