import { describe, expect, it } from 'vitest';
import publication from '../../../examples/publication/ninefold.spec';
import { testModel } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import { ledgerSpec } from '@testing/engine/call-door';
import { defineApp } from '../spec/define';
import { ADMIN_ROLE, isAdmin, policyOf, rolesOf, visitorMay, visitorsWelcome, writtenOnlyByCalls, fieldWrittenOnlyByCalls } from './policy';

const publicationModel = buildModel(publication);
const actor = (roles: string[]) => ({ userId: 7, email: 'someone@example.com', name: 'Someone', roles });

describe('the compiled policy', () => {
  it('names the administrator once: isAdmin reads a role or an actor', () => {
    expect(isAdmin(ADMIN_ROLE)).toBe(true);
    expect(isAdmin('agent')).toBe(false);
    expect(isAdmin(actor(['agent', ADMIN_ROLE]))).toBe(true);
    expect(isAdmin(actor(['agent']))).toBe(false);
  });

  it('is compiled once per entity of a model, and again for another build of the spec', () => {
    const ticket = testModel.entitiesByName.ticket!;
    expect(policyOf(ticket)).toBe(policyOf(ticket));
    expect(policyOf(buildModel(publication).entitiesByName.article!)).not.toBe(policyOf(publicationModel.entitiesByName.article!));
  });

  it('gives the built-in admin alone everything on an entity without declared permissions', () => {
    const model = buildModel(defineApp({ name: 'notes', entities: { note: { fields: { body: { type: 'text' } } } } }));
    const note = model.entitiesByName.note!;
    expect(policyOf(note).declared).toBe(false);
    expect(rolesOf(note, actor(['editor']))).toEqual([]);
    const [admin] = rolesOf(note, actor([ADMIN_ROLE]));
    expect(admin?.scopes).toEqual({ list: true, read: true, create: true, update: true, delete: true });
    expect(policyOf(note).hiddenFromSomeRole.size).toBe(0);
    expect(visitorsWelcome(model)).toBe(false);
  });

  it('hides the authors from visitors and compiles what each role may write', () => {
    const enquiry = publicationModel.entitiesByName.enquiry!;
    const policy = policyOf(enquiry);
    expect(policy.roles.get('public')?.hidden.has('createdBy')).toBe(true);
    expect(policy.hiddenFromSomeRole.has('updatedBy')).toBe(true);
    expect(visitorMay(enquiry, 'create')).toBe(true);
    expect(visitorMay(enquiry, 'list')).toBe(false);
    expect(visitorsWelcome(publicationModel)).toBe(true);
    // Visitors send enquiries; nobody may change one, so no field is writable on update.
    expect(policy.doorWritable.create.map((f) => f.name)).toEqual(enquiry.fields.filter((f) => !f.readOnly).map((f) => f.name));
    expect(policy.doorWritable.update).toEqual([]);
  });

  it('says which entities and fields only the spec calls write', () => {
    const entities = testModel.entities.filter((e) => writtenOnlyByCalls(e)).map((e) => e.name);
    const fields = testModel.entities.flatMap((e) =>
      e.fields.filter((f) => fieldWrittenOnlyByCalls(e, f)).map((f) => `${e.name}.${f.name}`),
    );
    expect({ entities, fields }).toEqual({ entities: [], fields: [] });
    const model = buildModel(ledgerSpec);
    expect(writtenOnlyByCalls(model.entitiesByName.payment!)).toBe(true);
    expect(policyOf(model.entitiesByName.payment!).doorWritable.create).toEqual([]);
    expect(fieldWrittenOnlyByCalls(model.entitiesByName.account!, 'balance')).toBe(true);
    expect(fieldWrittenOnlyByCalls(model.entitiesByName.account!, 'name')).toBe(false);
    expect(policyOf(model.entitiesByName.account!).doorWritable.create.map((f) => f.name)).toEqual(['name', 'note']);
  });
});
