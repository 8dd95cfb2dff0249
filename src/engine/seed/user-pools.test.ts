import { describe, expect, it } from 'vitest';
import crm from '../../../examples/crm/ninefold.spec';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { buildModel } from '../spec/build';
import type { AppSpec } from '../spec/types';
import { owningRoles, rolesForUserField } from './user-pools';

const helpdeskModel = buildModel(helpdesk);
const crmModel = buildModel(crm);

describe('rolesForUserField', () => {
  it("gives a field that scopes a role's records to that role (the requester: customers)", () => {
    expect(rolesForUserField(helpdeskModel, helpdeskModel.entitiesByName.ticket!, 'requester')).toEqual(['customer']);
    expect(rolesForUserField(crmModel, crmModel.entitiesByName.deal!, 'owner')).toEqual(['sales']);
  });

  it('gives a field a transition requires to the roles taking it, the built-in admin left out (the assignee: agents)', () => {
    expect(rolesForUserField(helpdeskModel, helpdeskModel.entitiesByName.ticket!, 'assignee')).toEqual(['agent']);
  });

  it('falls back to the roles that create, then update, then every role', () => {
    const spec: AppSpec = {
      name: 'review',
      entities: { paper: { fields: { title: { type: 'text' }, author: { type: 'user', default: 'actor' }, reviewer: { type: 'user' } } } },
      roles: { admin: {}, writer: {}, editor: {} },
      permissions: {
        paper: {
          writer: { list: true, read: true, create: true },
          editor: { list: true, read: true, update: true },
        },
      },
    };
    const model = buildModel(spec);
    const paper = model.entitiesByName.paper!;
    expect(rolesForUserField(model, paper, 'author')).toEqual(['writer']);
    expect(rolesForUserField(model, paper, 'reviewer')).toEqual(['editor']);
    const open = buildModel({ ...spec, permissions: {} });
    expect(rolesForUserField(open, open.entitiesByName.paper!, 'reviewer')).toEqual(['admin']);
  });
});

describe('owningRoles', () => {
  it('names the roles whose users own records, which the demo needs more of as it grows', () => {
    expect([...owningRoles(helpdeskModel)]).toEqual(['customer']);
    expect([...owningRoles(crmModel)]).toEqual(['sales']);
  });
});
