import { describe, expect, it } from 'vitest';
import helpdesk from '../../../../examples/helpdesk/ninefold.spec';
import { buildModel } from '../build';
import type { AppSpec } from '../types';

describe('detail pages: sections of related records', () => {
  it("builds the helpdesk's conversation with every default filled in", () => {
    const model = buildModel(helpdesk);
    expect(model.entitiesByName.ticket!.details).toEqual({
      related: [
        {
          key: 'comment',
          entity: 'comment',
          via: 'ticket',
          param: 'comments',
          label: 'Comments',
          display: 'thread',
          body: 'body',
          columns: ['body', 'internal', 'createdAt'],
          sort: 'createdAt',
          pageSize: 50,
          add: true,
          addWhenFinal: false,
          badges: ['internal'],
          transitions: { requester: ['reply', 'reopen'] },
          replyWith: ['wait', 'resolve'],
        },
      ],
      replyTransitions: ['reply'],
    });
  });

  it('shows every reverse reference as a table by default, without the reference among the columns', () => {
    const organization = buildModel(helpdesk).entitiesByName.organization!.details;
    expect(organization.related).toHaveLength(1);
    expect(organization.related[0]).toMatchObject({
      key: 'ticket',
      entity: 'ticket',
      via: 'organization',
      display: 'table',
      body: null,
      pageSize: 10,
      add: true,
    });
    expect(organization.related[0]!.columns).not.toContain('organization');
    expect(organization.replyTransitions).toEqual([]);
    // Nothing refers to a comment.
    expect(buildModel(helpdesk).entitiesByName.comment!.details.related).toEqual([]);
  });

  it('keys sections by "entity.field" and gives each its own cursor parameter when an entity refers twice', () => {
    const spec: AppSpec = {
      ...helpdesk,
      entities: {
        ...helpdesk.entities,
        link: { fields: { from: { type: 'reference', to: 'ticket' }, to: { type: 'reference', to: 'ticket' }, note: { type: 'text' } } },
      },
      screens: { ...helpdesk.screens, details: undefined },
    };
    const related = buildModel(spec).entitiesByName.ticket!.details.related;
    expect(related.map((s) => [s.key, s.param, s.label])).toEqual([
      ['comment', 'comments', 'Comments'],
      ['link.from', 'links.from', 'Links (From)'],
      ['link.to', 'links.to', 'Links (To)'],
    ]);
  });

  it('shows only the declared sections, in their order, with what they say', () => {
    const spec: AppSpec = {
      ...helpdesk,
      screens: {
        ...helpdesk.screens,
        details: {
          organization: {
            related: { ticket: { label: 'Open tickets', columns: ['subject', 'state'], sort: '-createdAt', pageSize: 5, add: false } },
          },
        },
      },
    };
    expect(buildModel(spec).entitiesByName.organization!.details.related).toEqual([
      expect.objectContaining({
        key: 'ticket',
        label: 'Open tickets',
        columns: ['subject', 'state'],
        sort: '-createdAt',
        pageSize: 5,
        add: false,
      }),
    ]);
    // A page declared with no sections shows none.
    const none = buildModel({ ...helpdesk, screens: { ...helpdesk.screens, details: { ticket: { related: {} } } } });
    expect(none.entitiesByName.ticket!.details.related).toEqual([]);
  });
});
