import { describe, expect, it } from 'vitest';
import { buildModel } from '../build';
import { showsWidgetTo } from './home';

const model = buildModel({
  name: 'desk',
  roles: { editor: {}, reader: {} },
  entities: { note: { fields: { title: { type: 'text' }, done: { type: 'boolean' } } } },
  permissions: { note: { editor: { list: true, read: true }, reader: { list: true, read: true }, public: { list: true, read: true } } },
  screens: {
    home: {
      widgets: [
        { kind: 'counts', entity: 'note', by: 'done', title: 'Everyone' },
        { kind: 'counts', entity: 'note', by: 'done', title: 'Editors', roles: ['editor'] },
      ],
    },
    routes: {
      wall: {
        path: '/wall',
        title: 'Wall',
        roles: ['public'],
        show: { widgets: [{ kind: 'counts', entity: 'note', by: 'done', title: 'Open', roles: ['public'] }] },
      },
    },
  },
});
const everyone = model.home!.widgets[0]!;
const editors = model.home!.widgets[1]!;
const wall = model.routes[0]!.show;

describe('who is shown a widget', () => {
  it('shows one without roles to everyone who opens the page', () => {
    for (const roles of [['editor'], ['reader'], ['admin'], ['public']]) expect(showsWidgetTo(everyone, roles)).toBe(true);
  });

  it('shows one with roles only to users holding one of them: not readers, nor administrators it does not name', () => {
    expect(showsWidgetTo(editors, ['editor'])).toBe(true);
    expect(showsWidgetTo(editors, ['reader', 'editor'])).toBe(true);
    expect(showsWidgetTo(editors, ['reader'])).toBe(false);
    expect(showsWidgetTo(editors, ['admin'])).toBe(false);
  });

  it('shows one for `public` to anyone, signed in or not', () => {
    if (wall.kind !== 'widgets') throw new Error('a dashboard route');
    for (const roles of [['public'], ['reader'], ['admin']]) expect(showsWidgetTo(wall.widgets[0]!, roles)).toBe(true);
  });
});
