import { describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import publication from '../../../examples/publication/ninefold.spec';
import { captureLog } from '../log';
import { NinefoldError } from '../errors/ninefold-error';
import type { RecordData } from '../ops/types';
import type { Actor } from '../ground/actor';
import { testModel } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import { describeMarkdown } from '../spec/describe';
import { validateSpec } from '../spec/validate';
import type { AppSpec } from '../spec/types';
import { mayTransition, rowScope } from './authorize';
import { accessFor } from './entity-access';
import { checkQueryable, checkWritable, readableFields } from './fields';
import { keepReadable } from './field-sight';

const model = testModel;
const actor = (roles: string[], userId = 7): Actor => ({
  userId,
  email: `${roles.join('-') || 'nobody'}@example.com`,
  name: 'Someone',
  roles,
});
const access = (entity: string, roles: string[]) => accessFor(model, model.entitiesByName[entity]!, actor(roles));
const ticket = model.entitiesByName.ticket!;
const comment = model.entitiesByName.comment!;

describe('accessFor (what the doors offer)', () => {
  it('gives customers their own tickets: no delete, no organization or assignee, subject, description and attachments to write', () => {
    expect(access('ticket', ['customer'])).toEqual({
      actions: { list: true, read: true, create: true, update: true, delete: false },
      transitions: { start: false, wait: false, reply: true, resolve: false, reopen: true, close: false },
      // Who wrote and changed a ticket last are read like fields: no grant of customers hides them.
      readable: [
        'subject',
        'description',
        'priority',
        'requester',
        'dueAt',
        'resolvedAt',
        'slaDueAt',
        'replyCount',
        'attachments',
        'createdBy',
        'updatedBy',
      ],
      writable: { create: ['subject', 'description', 'attachments'], update: ['subject', 'description', 'attachments'] },
      listedVia: null,
    });
    expect(access('comment', ['customer'])).toMatchObject({
      actions: { list: true, read: true, create: true, update: false, delete: false },
      readable: ['ticket', 'body', 'attachments', 'createdBy', 'updatedBy'],
      writable: { create: ['ticket', 'body', 'attachments'], update: [] },
      // Met under their ticket: no place of their own in a customer's navigation.
      listedVia: 'ticket',
    });
    expect(access('organization', ['customer']).actions).toEqual({ list: false, read: false, create: false, update: false, delete: false });
    expect(access('organization', ['customer']).readable).toEqual([]);
  });

  it('lists through a parent only when every list scope of the actor goes through it', () => {
    expect(access('comment', ['agent']).listedVia).toBeNull();
    // Roles combine: an agent who is also a customer lists every comment.
    expect(access('comment', ['agent', 'customer']).listedVia).toBeNull();
    expect(access('comment', []).listedVia).toBeNull();
  });

  it('gives agents every ticket field but no delete, and organizations to read only', () => {
    const agent = access('ticket', ['agent']);
    expect(agent.actions).toEqual({ list: true, read: true, create: true, update: true, delete: false });
    expect(agent.readable).toEqual([...ticket.fields.map((f) => f.name), 'createdBy', 'updatedBy']);
    // resolvedAt is read-only in the spec: nobody writes it.
    expect(agent.writable.update).toEqual([
      'subject',
      'description',
      'priority',
      'organization',
      'requester',
      'assignee',
      'dueAt',
      'attachments',
    ]);
    expect(agent.transitions).toMatchObject({ start: true, close: true });
    expect(access('organization', ['agent']).actions).toEqual({ list: true, read: true, create: false, update: false, delete: false });
  });

  it('opens an entity without permissions to the built-in admin only', () => {
    expect(access('contact', ['admin']).actions).toEqual({ list: true, read: true, create: true, update: true, delete: true });
    expect(access('contact', ['admin']).writable.create).toEqual(model.entitiesByName.contact!.fields.map((f) => f.name));
    for (const roles of [['agent'], ['customer'], []]) {
      expect(access('contact', roles)).toEqual({
        actions: { list: false, read: false, create: false, update: false, delete: false },
        transitions: {},
        readable: [],
        writable: { create: [], update: [] },
        listedVia: null,
      });
    }
    expect(rowScope(model, model.entitiesByName.contact!, actor(['agent']), 'read')).toBeNull();
  });

  it('denies everything to a user without roles', () => {
    for (const entity of ['ticket', 'comment', 'organization']) {
      expect(Object.values(access(entity, []).actions).every((allowed) => !allowed)).toBe(true);
    }
    expect(mayTransition(model, ticket, actor([]), 'reply')).toBe(false);
  });

  it('combines roles generously: what any role grants, a field readable when any role shows it', () => {
    const both = access('ticket', ['agent', 'customer']);
    expect(both.actions).toEqual(access('ticket', ['agent']).actions);
    expect(both.readable).toContain('assignee');
    expect(both.writable.update).toContain('assignee');
    expect(access('comment', ['agent', 'customer']).readable).toContain('internal');
  });
});

describe('field rules', () => {
  const record = { id: 1, version: 1, subject: 'S', organization: 3, assignee: 4 } as unknown as RecordData;

  it('drops the properties the actor may not read', () => {
    const shown = keepReadable(ticket, record, new Set(readableFields(ticket, actor(['customer']))));
    expect(shown).toEqual({ id: 1, version: 1, subject: 'S' });
    expect(Object.hasOwn(shown, 'assignee')).toBe(false);
    expect(keepReadable(ticket, record, new Set(readableFields(ticket, actor(['agent']))))).toBe(record);
  });

  it('refuses writing what the actor may not, with FORBIDDEN_FIELD naming every such field, and logs it without values', async () => {
    const { result, lines } = await captureLog(async () => {
      try {
        checkWritable(ticket, actor(['customer'], 42), 'update', {
          subject: 'ok',
          assignee: 9,
          state: 'closed',
          resolvedAt: 'x',
          unknown: 1,
        });
      } catch (error) {
        return error;
      }
    });
    expect(result).toBeInstanceOf(NinefoldError);
    const error = result as NinefoldError;
    expect(error.code).toBe('FORBIDDEN_FIELD');
    expect(error.status).toBe(403);
    expect(error.fieldErrors.map((e) => e.field)).toEqual(['assignee', 'state', 'resolvedAt']);
    expect(lines).toEqual([
      {
        time: expect.any(String),
        level: 'warn',
        msg: 'access refused',
        code: 'FORBIDDEN_FIELD',
        actor: 42,
        entity: 'ticket',
        action: 'update',
        field: 'assignee',
        fields: ['assignee', 'state', 'resolvedAt'],
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain('closed');
    expect(() => checkWritable(ticket, actor(['agent']), 'update', { assignee: 9 })).not.toThrow();
  });

  it('refuses filtering, sorting or searching by what the actor may not read', async () => {
    const customer = actor(['customer']);
    const readable = new Set(readableFields(comment, customer));
    const refused = async (used: Parameters<typeof checkQueryable>[3]) => {
      const { result } = await captureLog(async () => {
        try {
          checkQueryable(comment, customer, readable, used);
          return null;
        } catch (error) {
          return (error as NinefoldError).fieldErrors.map((e) => e.field);
        }
      });
      return result;
    };
    expect(await refused({ filters: ['internal'], sort: [], search: false })).toEqual(['internal']);
    expect(await refused({ filters: [], sort: ['internal'], search: false })).toEqual(['internal']);
    expect(await refused({ filters: ['ticket', 'nonsense'], sort: ['createdAt', 'id'], search: true })).toBeNull();
    // A search covers every searchable field: refused when one is hidden.
    const hiding = { ...comment, searchFields: ['body', 'internal'] };
    const { result } = await captureLog(async () => {
      try {
        checkQueryable(hiding, customer, readable, { filters: [], sort: [], search: true });
      } catch (error) {
        return (error as NinefoldError).code;
      }
    });
    expect(result).toBe('FORBIDDEN_FIELD');
  });
});

describe('validation of grants', () => {
  const withPermissions = (permissions: AppSpec['permissions']): AppSpec => ({
    ...helpdesk,
    permissions: { ...helpdesk.permissions, ...permissions },
  });
  const issues = (spec: AppSpec) => validateSpec(spec).map((i) => `${i.path}: ${i.message}`);

  it('accepts the helpdesk, and grants to the built-in admin role without declaring it', () => {
    expect(issues(helpdesk)).toEqual([]);
    const { admin: _admin, ...declared } = helpdesk.roles!;
    expect(issues({ ...helpdesk, roles: declared }).filter((issue) => issue.startsWith('permissions.'))).toEqual([]);
    expect(issues({ ...helpdesk, permissions: { ticket: { manager: { read: true } } } })).toEqual([
      'permissions.ticket.manager: unknown role "manager" (roles: admin, agent, customer)',
    ]);
  });

  it('checks that "via" names a reference field', () => {
    expect(issues(withPermissions({ comment: { customer: { read: { via: 'body' } } } }))).toEqual([
      'permissions.comment.customer.read.via: "body" is not a reference field of comment (reference fields: ticket)',
    ]);
    expect(issues(withPermissions({ comment: { customer: { read: { via: 'tiket' } } } }))[0]).toContain('"tiket" is not a reference field');
  });

  it('refuses "via" scopes that go round in a circle', () => {
    const spec: AppSpec = {
      ...helpdesk,
      entities: {
        ...helpdesk.entities,
        ticket: {
          ...helpdesk.entities!.ticket,
          fields: { ...helpdesk.entities!.ticket.fields, lastComment: { type: 'reference', to: 'comment' } },
        },
      },
      permissions: {
        ...helpdesk.permissions,
        ticket: { ...helpdesk.permissions!.ticket, customer: { ...helpdesk.permissions!.ticket.customer, read: { via: 'lastComment' } } },
      },
    };
    const found = issues(spec);
    expect(found).toContain('permissions.ticket.customer.read.via: "via" goes round in a circle: ticket → comment → ticket');
    expect(found).toContain('permissions.comment.customer.list.via: "via" goes round in a circle: comment → ticket → comment');
  });

  it('accepts transition grants that narrow whom allow names: a role in the list, or an owner it allows', () => {
    const ticket = helpdesk.permissions!.ticket;
    const narrowed = withPermissions({
      ticket: {
        ...ticket,
        // Agents (in resolve's allow list) resolve open tickets only; requesters (reopen's owner) their own, still within the window.
        agent: { ...ticket.agent, transitions: { resolve: { where: { field: 'state', op: 'eq', value: 'open' } } } },
        customer: { ...ticket.customer, transitions: { reopen: { own: 'requester' } } },
      },
    });
    expect(issues(narrowed)).toEqual([]);
  });

  it('refuses a scope with nothing in it', () => {
    expect(issues(withPermissions({ ticket: { agent: { read: {} as never } } }))).toEqual([
      'permissions.ticket.agent.read: a scope needs "own", "where", "via" or some of them (or true)',
    ]);
  });
});

describe('the spec document, point 6', () => {
  it('says that what is not granted is refused, and which entities only the built-in admin may use', () => {
    const text = describeMarkdown(model);
    expect(text).toContain('Whatever is not granted is refused');
    expect(text).toContain('No permissions are declared for contacts: only the built-in `admin` role may use them.');
    expect(text).toContain('via ticket (readable), where internal is false');
  });

  it('says that writes and transitions need the record readable, and that authors are read like fields', () => {
    const text = describeMarkdown(model);
    expect(text).toContain(
      'Update, Delete and transitions apply only to records the user may also read (Read): any other is answered as if it did not exist.',
    );
    expect(text).toContain("when they may not (a visitor's message), with its id, version and times only.");
    expect(text).toContain('Who created a record and who changed it last (`createdBy`, `updatedBy`) are read like fields');
  });

  it("says that a transition needs both its Who column and the role's grant, naming the grant beside the role", () => {
    const text = describeMarkdown(buildModel(publication));
    expect(text).toContain('| Archive (`archive`) | draft, published | archived | editor (where team is your team), admin |');
    expect(text).toContain(
      "a role's grant for a transition (point 6) says on which records, and lets no role the column leaves out take it: both must hold.",
    );
    expect(text).toContain("A role's Transitions grant says on which records it takes a transition whose Who column (point 4) names it");
  });
});
