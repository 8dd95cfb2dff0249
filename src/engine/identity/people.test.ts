import { describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { buildOpenApiDocument } from '../../api/openapi/document';
import { buildModel } from '../spec/build';
import { describeMarkdown } from '../spec/describe';
import { holderRolesMessage, mayManageUsers, personChoiceTitle } from './people';

const model = buildModel(helpdesk);
const ticket = model.entitiesByName.ticket!;

describe('people: who sees emails, and who may hold a user field', () => {
  it('shows emails to those who manage users only', () => {
    const ann = { name: 'Ann Lee', email: 'ann@example.com' };
    expect(mayManageUsers({ roles: ['admin'] })).toBe(true);
    expect(personChoiceTitle({ roles: ['agent', 'admin'] }, ann)).toBe('Ann Lee <ann@example.com>');
    expect(mayManageUsers({ roles: ['agent'] })).toBe(false);
    expect(personChoiceTitle({ roles: ['agent'] }, ann)).toBe('Ann Lee');
    expect(personChoiceTitle({ roles: [] }, ann)).toBe('Ann Lee');
  });

  it("words the helpdesk assignee's and requester's roles from their labels", () => {
    expect(ticket.fieldsByName.assignee!.holderRoles).toEqual(['agent', 'admin']);
    expect(ticket.fieldsByName.requester!.holderRoles).toEqual(['customer']);
    expect(holderRolesMessage(model, ticket.fieldsByName.assignee!)).toBe('Assignee must be an agent or an administrator.');
    expect(holderRolesMessage(model, ticket.fieldsByName.requester!)).toBe('Requester must be a customer.');
  });

  it('prints the roles in /spec and in the OpenAPI document', () => {
    expect(describeMarkdown(model)).toContain('held only by users with the role agent or admin');
    expect(describeMarkdown(model)).toContain('held only by users with the role customer');
    const schemas = JSON.stringify(buildOpenApiDocument(model).components.schemas);
    expect(schemas).toContain('The id of a user with the role agent or admin (anyone else is refused).');
    expect(schemas).toContain('The id of a user with the role customer (anyone else is refused).');
  });
});
