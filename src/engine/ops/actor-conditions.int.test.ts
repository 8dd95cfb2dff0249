import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { createIdentity } from '../identity/identity';
import { buildModel } from '../spec/build';
import type { AppSpec } from '../spec/types';
import { forEachDatabase } from '@testing/engine/store';
import type { DynamicDatabase, Store } from '../store/types';
import { visibleChanges } from '../live/visible';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { ninefoldError, openSyncedQuickly, testModel } from '@testing/engine/ops';
import type { RecordData } from './types';
import type { Actor } from '../ground/actor';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

/**
 * An approval chain with teams: written against the spec format only. Employees file requests
 * for their team, managers see and approve their team's (never their own: four eyes), auditors
 * see the requests of open teams (a path in a scope); a closed team takes no requests (a path in
 * a rule), and a team without budget lets none be submitted (a path in a guard).
 */
const approvalsSpec: AppSpec = {
  name: 'approvals',
  users: { fields: { team: { type: 'reference', to: 'team' } } },
  roles: { employee: { label: 'Employee' }, manager: { label: 'Manager' }, auditor: { label: 'Auditor' } },
  entities: {
    team: {
      titleField: 'name',
      fields: { name: { type: 'text', required: true }, budget: { type: 'integer' }, open: { type: 'boolean', default: true } },
    },
    request: {
      titleField: 'title',
      fields: {
        title: { type: 'text', required: true },
        team: { type: 'reference', to: 'team', required: true },
        author: { type: 'user', default: 'actor', required: true },
      },
      // A path in a limit: one request at a time per employee among the teams that ration them.
      limits: {
        rationed: {
          max: 1,
          per: 'author',
          where: { field: 'team.budget', op: 'eq', value: 1 },
          exempt: ['admin', 'manager'],
          message: 'One request at a time on a rationed team.',
        },
      },
    },
  },
  workflows: {
    request: {
      states: { draft: { initial: true }, submitted: {}, approved: { final: true } },
      transitions: {
        submit: {
          from: 'draft',
          to: 'submitted',
          allow: [{ owner: 'author' }, 'manager'],
          guard: { field: 'team.budget', op: 'gt', value: 0 },
          guardMessage: 'The team has no budget left.',
        },
        approve: {
          from: 'submitted',
          to: 'approved',
          allow: ['manager'],
          guard: { field: 'author', op: 'ne', value: { actor: 'id' } },
          guardMessage: 'Someone other than the author must approve it.',
        },
      },
    },
  },
  rules: {
    request: {
      openTeam: { field: 'team', message: 'This team takes no new requests.', assert: { field: 'team.open', op: 'eq', value: true } },
    },
  },
  permissions: {
    team: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      employee: { list: true, read: true },
      manager: { list: true, read: true },
    },
    request: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      employee: {
        list: { own: 'author' },
        read: { own: 'author' },
        create: { where: { field: 'team', op: 'eq', value: { actor: 'team' } } },
        update: { own: 'author' },
      },
      manager: {
        list: { where: { field: 'team', op: 'eq', value: { actor: 'team' } } },
        read: { where: { field: 'team', op: 'eq', value: { actor: 'team' } } },
        create: { where: { field: 'team', op: 'eq', value: { actor: 'team' } } },
        update: { where: { field: 'team', op: 'eq', value: { actor: 'team' } } },
      },
      auditor: {
        list: { where: { field: 'team.open', op: 'eq', value: true } },
        read: { where: { field: 'team.open', op: 'eq', value: true } },
      },
    },
  },
};
const approvals = buildModel(approvalsSpec);

let counter = 0;
/** A user with these roles and (by hand, as the session would load them) these user fields. */
async function actorWith(
  db: DynamicDatabase,
  roles: readonly string[],
  knownRoles: readonly string[],
  fields: Record<string, number | null> = {},
): Promise<Actor> {
  counter += 1;
  const account = await createIdentity(db, knownRoles).createUser(SYSTEM_ACTOR, {
    email: `h3.${process.pid}.${counter}@example.com`,
    password: 'correct horse battery',
    name: `${roles.join('-')} ${counter}`,
    roles,
  });
  return { userId: account.id, email: account.email, name: account.name, roles: account.roles, fields };
}

const ids = (rows: readonly RecordData[]) => rows.map((r) => r.id).sort((a, b) => a - b);

forEachDatabase('conditions on the user and their fields, and paths: an approval chain with teams', (database) => {
  let store: Store;
  let ops: Ops;
  let admin: Actor;
  let red: RecordData;
  let blue: RecordData;
  let closed: RecordData;

  beforeAll(async () => {
    store = await openSyncedQuickly(database, approvals);
    ops = createOps({ model: approvals, db: store.db });
    const roles = ['admin', 'employee', 'manager', 'auditor'];
    admin = await actorWith(store.db, ['admin'], roles);
    red = await ops.create(admin, 'team', { name: 'Red', budget: 100 });
    blue = await ops.create(admin, 'team', { name: 'Blue', budget: 0 });
    closed = await ops.create(admin, 'team', { name: 'Closed', budget: 10 });
  });

  const roles = ['admin', 'employee', 'manager', 'auditor'];

  it("managers see their team's requests, and a manager without a team sees none", async () => {
    const writer = await actorWith(store.db, ['employee'], roles, { team: red.id });
    const other = await actorWith(store.db, ['employee'], roles, { team: blue.id });
    const mine = await ops.create(writer, 'request', { title: 'New chairs', team: red.id });
    const theirs = await ops.create(other, 'request', { title: 'New desks', team: blue.id });
    const manager = await actorWith(store.db, ['manager'], roles, { team: red.id });
    const seen = ids((await ops.list(manager, 'request', { limit: 100 })).rows);
    expect(seen).toContain(mine.id);
    expect(seen).not.toContain(theirs.id);
    expect((await ninefoldError(ops.get(manager, 'request', theirs.id))).code).toBe('NOT_FOUND');
    const teamless = await actorWith(store.db, ['manager'], roles, { team: null });
    expect((await ops.list(teamless, 'request', { limit: 100 })).rows).toEqual([]);
  });

  it("refuses a create outside the user's team (the create scope compares with their field)", async () => {
    const writer = await actorWith(store.db, ['employee'], roles, { team: red.id });
    expect((await ninefoldError(ops.create(writer, 'request', { title: 'Elsewhere', team: blue.id }))).code).toBe('FORBIDDEN');
  });

  it('a limit through a path counts only the records whose reference meets it', async () => {
    const rationed = await ops.create(admin, 'team', { name: 'Rationed', budget: 1 });
    const writer = await actorWith(store.db, ['employee'], roles, { team: rationed.id });
    await ops.create(writer, 'request', { title: 'The one', team: rationed.id });
    const refusal = await ninefoldError(ops.create(writer, 'request', { title: 'One more', team: rationed.id }));
    expect(refusal.code).toBe('LIMIT_EXCEEDED');
    // A message that does not name the maximum is followed by it.
    expect(refusal.message).toBe('One request at a time on a rationed team. At most 1.');
    // Another team is not rationed: its requests neither count nor are counted.
    const elsewhere = await actorWith(store.db, ['employee'], roles, { team: red.id });
    await ops.create(elsewhere, 'request', { title: 'First', team: red.id });
    expect((await ops.create(elsewhere, 'request', { title: 'Second', team: red.id })).title).toBe('Second');
  });

  it('four eyes: a manager may not approve their own request, another manager may', async () => {
    const manager = await actorWith(store.db, ['manager'], roles, { team: red.id });
    const colleague = await actorWith(store.db, ['manager'], roles, { team: red.id });
    const own = await ops.create(manager, 'request', { title: 'A new laptop', team: red.id });
    const submitted = await ops.transition(manager, 'request', own.id, 'submit', { version: own.version });
    const refusal = await ninefoldError(ops.transition(manager, 'request', own.id, 'approve', { version: submitted.version }));
    expect(refusal.code).toBe('TRANSITION_NOT_ALLOWED');
    expect(refusal.message).toBe('Someone other than the author must approve it.');
    // The offer says so too, before trying.
    const offered = (await ops.get(manager, 'request', own.id)).transitions.find((t) => t.name === 'approve');
    expect(offered).toMatchObject({ available: false, blockedReason: 'Someone other than the author must approve it.' });
    expect((await ops.transition(colleague, 'request', own.id, 'approve', { version: submitted.version })).state).toBe('approved');
  });

  it('a guard through a path reads the record the reference points at', async () => {
    const writer = await actorWith(store.db, ['employee'], roles, { team: blue.id });
    const request = await ops.create(writer, 'request', { title: 'Paper', team: blue.id });
    const refusal = await ninefoldError(ops.transition(writer, 'request', request.id, 'submit', { version: request.version }));
    expect(refusal.message).toBe('The team has no budget left.');
    expect((await ops.get(writer, 'request', request.id)).transitions.find((t) => t.name === 'submit')).toMatchObject({ available: false });
    await ops.update(admin, 'team', blue.id, { budget: 5 }, (await ops.get(admin, 'team', blue.id)).record.version);
    expect((await ops.transition(writer, 'request', request.id, 'submit', { version: request.version })).state).toBe('submitted');
  });

  it('a rule through a path refuses with its message, on create and on update', async () => {
    await ops.update(admin, 'team', closed.id, { open: false }, closed.version);
    const refusal = await ninefoldError(ops.create(admin, 'request', { title: 'Too late', team: closed.id }));
    expect(refusal.code).toBe('VALIDATION_FAILED');
    expect(refusal.fieldErrors).toEqual([{ field: 'team', code: 'openTeam', message: 'This team takes no new requests.' }]);
    const fine = await ops.create(admin, 'request', { title: 'In time', team: red.id });
    const moved = await ninefoldError(ops.update(admin, 'request', fine.id, { team: closed.id }, fine.version));
    expect(moved.fieldErrors.map((e) => e.code)).toEqual(['openTeam']);
    // An import checks it row by row too.
    const imported = await ops.createMany(
      admin,
      'request',
      [
        { title: 'Row one', team: red.id },
        { title: 'Row two', team: closed.id },
      ],
      { goodRows: true },
    );
    expect(imported.created).toBe(1);
    expect(imported.refused.map((r) => [r.index, r.fieldErrors.map((e) => e.code)])).toEqual([[1, ['openTeam']]]);
  });

  it('a scope through a path: auditors see the requests of open teams only, in lists, counts and reads', async () => {
    const auditor = await actorWith(store.db, ['auditor'], roles);
    const open = await ops.create(admin, 'request', { title: 'Audited', team: red.id });
    const team = await ops.create(admin, 'team', { name: 'Closing', budget: 1 });
    const closing = await ops.create(admin, 'request', { title: 'Soon hidden', team: team.id });
    expect(ids((await ops.list(auditor, 'request', { limit: 500 })).rows)).toEqual(expect.arrayContaining([open.id, closing.id]));
    await ops.update(admin, 'team', team.id, { open: false }, team.version);
    const seen = ids((await ops.list(auditor, 'request', { limit: 500 })).rows);
    expect(seen).toContain(open.id);
    expect(seen).not.toContain(closing.id);
    expect((await ninefoldError(ops.get(auditor, 'request', closing.id))).code).toBe('NOT_FOUND');
    expect((await ops.count(auditor, 'request')).count).toBe(seen.length);
    // Live pages ask ops.readable: the same scope decides.
    expect(await ops.readable(auditor, 'request', { ids: [open.id, closing.id] })).toEqual([open.id]);
  });

  it('live pages: a change of the record a path reads brings the records through it into view, for those who may read them', async () => {
    const auditor = await actorWith(store.db, ['auditor'], roles);
    const created = await ops.create(admin, 'team', { name: 'Reopening', budget: 1 });
    const request = await ops.create(admin, 'request', { title: 'Waiting', team: created.id });
    const team = await ops.update(admin, 'team', created.id, { open: false }, created.version);
    const reopened = { kind: 'records', entity: 'team', op: 'update', ids: [team.id], gone: null } as const;
    expect(await visibleChanges(approvals, ops, auditor, [reopened])).toEqual({});
    await ops.update(admin, 'team', team.id, { open: true }, team.version);
    expect(await visibleChanges(approvals, ops, auditor, [reopened])).toEqual({ request: [request.id] });
    // A deleted request is judged on its last image (its team), through the path too.
    const gone = {
      kind: 'records',
      entity: 'request',
      op: 'delete',
      ids: [request.id],
      gone: [{ id: request.id, team: team.id }],
    } as const;
    expect(await visibleChanges(approvals, ops, auditor, [gone])).toEqual({ request: [request.id] });
    const manager = await actorWith(store.db, ['manager'], roles, { team: red.id });
    expect(await visibleChanges(approvals, ops, manager, [gone, reopened])).toEqual({ team: [team.id] });
  });
});

forEachDatabase("the helpdesk: customers see their organization's tickets", (database) => {
  let store: Store;
  let ops: Ops;
  let acme: RecordData;
  let globex: RecordData;
  let alice: Actor;
  let bob: Actor;
  let carol: Actor;
  let loner: Actor;
  const tickets: Record<string, RecordData> = {};

  /** A customer of the organization, its value stored on the account as administrators set it. */
  async function customer(organization: number | null): Promise<Actor> {
    const actor = await actorWith(store.db, ['customer'], ['admin', 'agent', 'customer'], { organization });
    await sql`update nf_user set f_organization = ${organization} where id = ${actor.userId}`.execute(store.db);
    return actor;
  }

  beforeAll(async () => {
    store = await openSyncedQuickly(database, testModel);
    ops = createOps({ model: testModel, db: store.db });
    const admin = await actorWith(store.db, ['admin'], ['admin', 'agent', 'customer']);
    acme = await ops.create(admin, 'organization', { name: 'Acme' });
    globex = await ops.create(admin, 'organization', { name: 'Globex' });
    alice = await customer(acme.id);
    bob = await customer(acme.id);
    carol = await customer(globex.id);
    loner = await customer(null);
    for (const [name, who] of [
      ['alice', alice],
      ['bob', bob],
      ['carol', carol],
      ['loner', loner],
    ] as const) {
      tickets[name] = await ops.create(who, 'ticket', { subject: `Ticket of ${name}` });
    }
  });

  it('a customer lists and reads their own tickets and those of their organization, never others', async () => {
    const seen = ids((await ops.list(alice, 'ticket', { limit: 100 })).rows);
    expect(seen).toEqual(ids([tickets.alice!, tickets.bob!]));
    expect((await ops.get(alice, 'ticket', tickets.bob!.id)).record.subject).toBe('Ticket of bob');
    expect((await ninefoldError(ops.get(alice, 'ticket', tickets.carol!.id))).code).toBe('NOT_FOUND');
    expect(ids((await ops.list(carol, 'ticket', { limit: 100 })).rows)).toEqual([tickets.carol!.id]);
  });

  it('a customer without an organization sees only their own tickets (and nobody sees theirs through it)', async () => {
    expect(ids((await ops.list(loner, 'ticket', { limit: 100 })).rows)).toEqual([tickets.loner!.id]);
    const other = await customer(null);
    expect((await ops.list(other, 'ticket', { limit: 100 })).rows).toEqual([]);
  });

  it("updates and replies stay their own: a colleague's ticket is read-only to them", async () => {
    const refusal = await ninefoldError(ops.update(alice, 'ticket', tickets.bob!.id, { subject: 'Mine now' }, tickets.bob!.version));
    expect(refusal.code).toBe('FORBIDDEN');
    const reply = await ninefoldError(ops.create(alice, 'comment', { ticket: tickets.bob!.id, body: 'Me too' }));
    expect(['FORBIDDEN', 'VALIDATION_FAILED']).toContain(reply.code);
    expect((await ops.create(alice, 'comment', { ticket: tickets.alice!.id, body: 'Any news?' })).ticket).toBe(tickets.alice!.id);
    // Comments follow the ticket: Bob reads Alice's reply on her ticket.
    const comments = (await ops.list(bob, 'comment', { limit: 100 })).rows.map((c) => c.body);
    expect(comments).toContain('Any news?');
  });

  it('a customer who moves to another organization sees its tickets at once', async () => {
    const mover = await customer(globex.id);
    expect(ids((await ops.list(mover, 'ticket', { limit: 100 })).rows)).toEqual([tickets.carol!.id]);
    await sql`update nf_user set f_organization = ${acme.id} where id = ${carol.userId}`.execute(store.db);
    // Carol's ticket now belongs to Acme's people: the scope reads the requester's account as it is.
    expect(ids((await ops.list(alice, 'ticket', { limit: 100 })).rows)).toEqual(ids([tickets.alice!, tickets.bob!, tickets.carol!]));
    await sql`update nf_user set f_organization = ${globex.id} where id = ${carol.userId}`.execute(store.db);
  });
});
