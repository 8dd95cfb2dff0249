import { beforeAll, describe, expect, it } from 'vitest';
import { importCsv } from '../csv/import-csv';
import { buildModel } from '../spec/build';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { countRows, createActor, expectRefused, ninefoldError, openSyncedQuickly, testModel } from '@testing/engine/ops';
import type { RecordData } from './types';
import type { Actor } from '../ground/actor';

const NOT_STAFF = 'Assignee must be an agent or an administrator.';
const NOT_CUSTOMER = 'Requester must be a customer.';

/** A field that defaults to the actor and may be held by agents only, and one anybody may hold. */
const taskModel = buildModel({
  name: 'tasks',
  roles: { agent: { label: 'Agent' }, customer: { label: 'Customer' } },
  entities: {
    task: {
      titleField: 'title',
      fields: {
        title: { type: 'text', required: true },
        owner: { type: 'user', default: 'actor', roles: ['agent'] },
        reviewer: { type: 'user' },
      },
    },
  },
  workflows: {
    task: {
      states: { open: { initial: true }, taken: {} },
      // Anyone may try to take a task; the effect makes them its owner, so only agents succeed.
      transitions: { take: { from: 'open', to: 'taken', allow: ['agent', 'customer'], effects: [{ set: 'owner', to: 'actor' }] } },
    },
  },
  permissions: {
    task: {
      agent: { list: true, read: true, create: true },
      customer: { list: true, read: true, create: true },
    },
  },
});

forEachDatabase('user fields: names for pickers, and the roles that may hold them', (database) => {
  let store: Store;
  let ops: Ops;
  let admin: Actor;
  let agent: Actor;
  let twin: Actor;
  let customer: Actor;
  let ticket: RecordData;

  beforeAll(async () => {
    store = await openSyncedQuickly(database, testModel);
    ops = createOps({ model: testModel, db: store.db });
    admin = await createActor(store.db, ['admin'], 'Ada Admin');
    agent = await createActor(store.db, ['agent'], 'Grace Agent');
    // A namesake: told apart by the id where emails are not shown.
    twin = await createActor(store.db, ['agent'], 'Grace Agent');
    customer = await createActor(store.db, ['customer'], 'Carl Customer');
    // A customer files their own: the requester defaults to them.
    ticket = await ops.create(customer, 'ticket', { subject: 'Printer on fire' });
  });

  describe('choices', () => {
    it('show administrators names with emails, searchable by either', async () => {
      const { choices } = await ops.choices(admin, 'ticket', 'assignee');
      expect(choices).toContainEqual({ id: agent.userId, title: `Grace Agent <${agent.email}>` });
      expect(choices).toContainEqual({ id: twin.userId, title: `Grace Agent <${twin.email}>` });
      expect((await ops.choices(admin, 'ticket', 'assignee', { q: agent.email })).choices.map((c) => c.id)).toEqual([agent.userId]);
    });

    it('show everyone else names only (namesakes with their id), and do not search emails', async () => {
      const { choices } = await ops.choices(agent, 'ticket', 'assignee');
      expect(choices.filter((c) => c.title.includes('@'))).toEqual([]);
      expect(choices).toContainEqual({ id: admin.userId, title: 'Ada Admin' });
      expect(choices).toContainEqual({ id: agent.userId, title: `Grace Agent (#${agent.userId})` });
      expect(choices).toContainEqual({ id: twin.userId, title: `Grace Agent (#${twin.userId})` });
      expect((await ops.choices(agent, 'ticket', 'assignee', { q: agent.email })).choices).toEqual([]);
      expect((await ops.choices(agent, 'ticket', 'assignee', { q: 'ada' })).choices).toEqual([{ id: admin.userId, title: 'Ada Admin' }]);
      // The requester's picker offers customers, by name too (a field without `roles`: the tasks below).
      const requesters = await ops.choices(agent, 'ticket', 'requester');
      expect(requesters.choices).toContainEqual({ id: customer.userId, title: 'Carl Customer' });
    });

    it('offer only the users holding one of the field roles', async () => {
      const ids = (await ops.choices(admin, 'ticket', 'assignee')).choices.map((c) => c.id);
      expect(ids).toEqual(expect.arrayContaining([admin.userId, agent.userId, twin.userId]));
      expect(ids).not.toContain(customer.userId);
      const requesters = (await ops.choices(admin, 'ticket', 'requester')).choices.map((c) => c.id);
      expect(requesters).toContain(customer.userId);
      for (const staff of [admin, agent, twin]) expect(requesters).not.toContain(staff.userId);
    });

    it('name users in records and history without their email', async () => {
      const assigned = await ops.update(agent, 'ticket', ticket.id, { assignee: twin.userId }, ticket.version);
      ticket = assigned;
      const view = await ops.get(agent, 'ticket', ticket.id);
      expect(JSON.stringify(view)).not.toContain('@');
      const history = await ops.history(agent, 'ticket', ticket.id);
      expect(JSON.stringify(history)).not.toContain('@');
    });
  });

  describe('writes', () => {
    const snapshot = () => store.db.selectFrom('ticket').selectAll().orderBy('id').execute();

    it('refuse a user without one of the roles on create, update and transition, with the roles in words', async () => {
      const created = await expectRefused(snapshot, 'VALIDATION_FAILED', () =>
        ops.create(agent, 'ticket', { subject: 'Give it to Carl', requester: customer.userId, assignee: customer.userId }),
      );
      expect(created.fieldErrors).toEqual([{ field: 'assignee', code: 'user_role', message: NOT_STAFF }]);
      // A user that does not exist is refused alike (nothing to tell apart).
      const nobody = await expectRefused(snapshot, 'VALIDATION_FAILED', () =>
        ops.create(agent, 'ticket', { subject: 'Give it to no one', requester: customer.userId, assignee: 999_999 }),
      );
      expect(nobody.fieldErrors).toEqual([{ field: 'assignee', code: 'user_role', message: NOT_STAFF }]);
      const updated = await expectRefused(snapshot, 'VALIDATION_FAILED', () =>
        ops.update(admin, 'ticket', ticket.id, { assignee: customer.userId }, ticket.version),
      );
      expect(updated.fieldErrors.map((e) => e.message)).toEqual([NOT_STAFF]);
      const fresh = await ops.create(agent, 'ticket', { subject: 'To be started', requester: customer.userId });
      const started = await expectRefused(snapshot, 'VALIDATION_FAILED', () =>
        ops.transition(agent, 'ticket', fresh.id, 'start', { version: fresh.version, input: { assignee: customer.userId } }),
      );
      expect(started.fieldErrors.map((e) => e.field)).toEqual(['assignee']);
      // The right people still go through.
      const ok = await ops.transition(agent, 'ticket', fresh.id, 'start', { version: fresh.version, input: { assignee: agent.userId } });
      expect(ok.assignee).toBe(agent.userId);
    });

    it('take a customer as the requester: staff filing a ticket name one, and may not name themselves or another agent', async () => {
      // Without a requester, the default (the actor) is staff: refused on the requester, nothing written.
      for (const staff of [agent, admin]) {
        const unnamed = await expectRefused(snapshot, 'VALIDATION_FAILED', () =>
          ops.create(staff, 'ticket', { subject: 'Caller cannot print' }),
        );
        expect(unnamed.fieldErrors).toEqual([{ field: 'requester', code: 'user_role', message: NOT_CUSTOMER }]);
      }
      for (const named of [agent, twin, admin]) {
        const staffRequester = await expectRefused(snapshot, 'VALIDATION_FAILED', () =>
          ops.create(agent, 'ticket', { subject: 'Filed for a colleague', requester: named.userId }),
        );
        expect(staffRequester.fieldErrors).toEqual([{ field: 'requester', code: 'user_role', message: NOT_CUSTOMER }]);
      }
      // Nor can an update or an import hand a ticket to staff.
      const moved = await expectRefused(snapshot, 'VALIDATION_FAILED', () =>
        ops.update(admin, 'ticket', ticket.id, { requester: agent.userId }, ticket.version),
      );
      expect(moved.fieldErrors).toEqual([{ field: 'requester', code: 'user_role', message: NOT_CUSTOMER }]);
      const before = await countRows(store.db, 'ticket');
      const many = await ops.createMany(agent, 'ticket', [{ subject: 'Many for staff', requester: twin.userId }]);
      expect(JSON.stringify(many)).toContain(NOT_CUSTOMER);
      expect(await countRows(store.db, 'ticket')).toBe(before);

      // Naming the customer goes through: theirs, filed by the agent.
      for (const staff of [agent, admin]) {
        const filed = await ops.create(staff, 'ticket', { subject: 'Caller cannot print', requester: customer.userId });
        expect(filed).toMatchObject({ requester: customer.userId, createdBy: staff.userId, state: 'new' });
        expect((await ops.get(customer, 'ticket', filed.id)).record.requester).toBe(customer.userId);
      }
    });

    it('refuse the row of a CSV import that names such a user, and write nothing', async () => {
      const before = await countRows(store.db, 'ticket');
      const csv = [
        'Subject,Requester,Assignee',
        `Fine,${customer.email},${agent.email}`,
        `Not staff,${customer.email},${customer.email}`,
      ].join('\n');
      const report = await importCsv(ops, testModel, admin, 'ticket', new TextEncoder().encode(csv), {
        maxBytes: 1 << 20,
        goodRows: false,
      });
      expect(report.created).toBe(0);
      expect(report.refused.map((r) => [r.line, r.problems])).toEqual([[3, [{ column: 'Assignee', message: NOT_STAFF }]]]);
      expect(await countRows(store.db, 'ticket')).toBe(before);
      const many = await ops.createMany(admin, 'ticket', [
        { subject: 'Many one', requester: customer.userId, assignee: agent.userId },
        { subject: 'Many two', requester: customer.userId, assignee: customer.userId },
      ]);
      expect(JSON.stringify(many)).toContain(NOT_STAFF);
      expect(await countRows(store.db, 'ticket')).toBe(before);
    });
  });
});

forEachDatabase('user fields: a default of the actor with roles', (database) => {
  let store: Store;
  let ops: Ops;
  beforeAll(async () => {
    store = await openSyncedQuickly(database, taskModel);
    ops = createOps({ model: taskModel, db: store.db });
  });

  it('takes the actor when they hold a role, and refuses the record when they do not', async () => {
    const agent = await createActor(store.db, ['agent'], 'Agnes Agent');
    const customer = await createActor(store.db, ['customer'], 'Cora Customer');
    expect((await ops.create(agent, 'task', { title: 'Mine' })).owner).toBe(agent.userId);
    const refused = await ninefoldError(ops.create(customer, 'task', { title: 'Not mine to hold' }));
    expect(refused.code).toBe('VALIDATION_FAILED');
    expect(refused.fieldErrors).toEqual([{ field: 'owner', code: 'user_role', message: 'Owner must be an agent.' }]);
    // The customer may still give the task to an agent.
    expect((await ops.create(customer, 'task', { title: 'For Agnes', owner: agent.userId })).owner).toBe(agent.userId);
    expect(await countRows(store.db, 'task')).toBe(2);
  });

  it('offers every active user for a field without roles, and refuses an id that is no user as an unknown reference', async () => {
    const agent = await createActor(store.db, ['agent'], 'Ava Agent');
    const customer = await createActor(store.db, ['customer'], 'Cal Customer');
    const ids = (await ops.choices(agent, 'task', 'reviewer')).choices.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining([agent.userId, customer.userId]));
    expect((await ops.create(agent, 'task', { title: 'Reviewed by a customer', reviewer: customer.userId })).reviewer).toBe(
      customer.userId,
    );
    const before = await countRows(store.db, 'task');
    const missing = await ninefoldError(ops.create(agent, 'task', { title: 'Reviewed by no one', reviewer: 987_654_322 }));
    expect(missing.code).toBe('VALIDATION_FAILED');
    expect(missing.fieldErrors).toEqual([{ field: 'reviewer', code: 'unknown_reference', message: 'Reviewer: no record #987654322.' }]);
    expect(await countRows(store.db, 'task')).toBe(before);
  });

  it('refuses a transition whose effect would make a user without the roles the holder', async () => {
    const agent = await createActor(store.db, ['agent'], 'Abe Agent');
    const customer = await createActor(store.db, ['customer'], 'Cy Customer');
    const task = await ops.create(agent, 'task', { title: 'Take me' });
    const refused = await ninefoldError(ops.transition(customer, 'task', task.id, 'take', { version: task.version }));
    expect(refused.code).toBe('VALIDATION_FAILED');
    expect(refused.fieldErrors.map((e) => e.message)).toEqual(['Owner must be an agent.']);
    expect((await ops.get(agent, 'task', task.id)).record).toMatchObject({ state: 'open', owner: agent.userId });
    expect(await ops.transition(agent, 'task', task.id, 'take', { version: task.version })).toMatchObject({
      state: 'taken',
      owner: agent.userId,
    });
  });
});
