import { beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../spec/build';
import type { AppSpec } from '../spec/types';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { createActor, ninefoldError, openSyncedQuickly } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';

/**
 * Tasks with an owner: customers see their own, agents every one, admins every one without
 * `secret` (the role names the test identity knows).
 */
const spec: AppSpec = {
  name: 'tasks',
  entities: {
    task: {
      fields: {
        title: { type: 'text', required: true },
        owner: { type: 'user', default: 'actor', required: true },
        status: { type: 'enum', values: ['todo', 'doing', 'done'], default: 'todo', required: true },
        secret: { type: 'text' },
      },
    },
  },
  // The home counts tasks by status: the running totals keep the count per status (and per owner).
  screens: { home: { widgets: [{ kind: 'counts', entity: 'task', by: 'status', title: 'Tasks by status' }] } },
  roles: { customer: {}, agent: {}, admin: {} },
  permissions: {
    task: {
      customer: { list: { own: 'owner' }, read: { own: 'owner' }, create: { own: 'owner' } },
      agent: { list: true, read: true, create: true },
      admin: { list: true, read: true, hiddenFields: ['secret'] },
    },
  },
};
const model = buildModel(spec);

forEachDatabase('count and spec-declared list conditions', (database) => {
  let store: Store;
  let ops: Ops;
  let ana: Actor;
  let ben: Actor;
  let lead: Actor;
  let viewer: Actor;

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    ana = await createActor(store.db, ['customer'], 'Ana');
    ben = await createActor(store.db, ['customer'], 'Ben');
    lead = await createActor(store.db, ['agent'], 'Lee');
    viewer = await createActor(store.db, ['admin'], 'Vi');
    for (let i = 0; i < 5; i++) await ops.create(ana, 'task', { title: `Ana ${i}`, status: i < 2 ? 'doing' : 'todo' });
    for (let i = 0; i < 3; i++) await ops.create(ben, 'task', { title: `Ben ${i}`, status: 'doing', secret: 'x' });
  });

  describe('ops.count', () => {
    it('counts only the records in the actor scope, with the same filters as the list', async () => {
      expect(await ops.count(ana, 'task')).toEqual({ count: 5, more: false });
      expect(await ops.count(ben, 'task')).toEqual({ count: 3, more: false });
      expect(await ops.count(lead, 'task')).toEqual({ count: 8, more: false });
      expect(await ops.count(lead, 'task', { filters: { status: 'doing' } })).toEqual({ count: 5, more: false });
      expect(await ops.count(ana, 'task', { filters: { status: 'doing' } })).toEqual({ count: 2, more: false });
    });

    it('stops at the cap and says there are more', async () => {
      const titled = { where: { field: 'title', op: 'present' } } as const;
      expect(await ops.count(lead, 'task', titled, 3)).toEqual({ count: 3, more: true });
      expect(await ops.count(lead, 'task', titled, 8)).toEqual({ count: 8, more: false });
    });

    it('past the cap, says the exact number the running totals keep: the number the home says', async () => {
      // Everyone's totals (an agent lists every task), and a customer's own.
      expect(await ops.count(lead, 'task', {}, 3)).toEqual({ count: 8, more: false });
      expect(await ops.count(ana, 'task', {}, 2)).toEqual({ count: 5, more: false });
      expect(await ops.count(ben, 'task', { filters: { status: 'doing' } }, 1)).toEqual({ count: 3, more: false });
      expect(await ops.count(lead, 'task', { filters: { status: 'doing' } }, 2)).toEqual({ count: 5, more: false });
      const home = await ops.groupTotals(lead, 'task', { by: 'status' });
      expect(home.total).toBe(8);
      expect(home.groups.find((g) => g.value === 'doing')?.amount).toBe(5);
    });

    it('past the cap, stays capped where the totals do not answer: a search, a condition, two filters, an untallied field', async () => {
      const doingByAna = { filters: { status: 'doing', owner: String(ana.userId) } };
      expect(await ops.count(lead, 'task', doingByAna, 1)).toEqual({ count: 1, more: true });
      expect(await ops.count(lead, 'task', { filters: { owner: String(ana.userId) } }, 1)).toEqual({ count: 1, more: true });
      expect(await ops.count(lead, 'task', { where: { field: 'status', op: 'eq', value: 'doing' } }, 2)).toEqual({ count: 2, more: true });
    });

    it('refuses what the list refuses: no list grant, a hidden field in a filter', async () => {
      expect((await ninefoldError(ops.count(viewer, 'task', { where: { field: 'secret', op: 'present' } }))).code).toBe('FORBIDDEN_FIELD');
      const nobody = await createActor(store.db, [], 'Nobody');
      expect((await ninefoldError(ops.count(nobody, 'task'))).code).toBe('FORBIDDEN');
    });
  });

  describe('a condition declared by the spec', () => {
    const mine = { field: 'owner', op: 'eq', value: { actor: true } } as const;

    it('{ actor: true } is the user looking, inside their scope', async () => {
      const titles = async (actor: Actor) => (await ops.list(actor, 'task', { where: mine, sort: 'title' })).rows.map((r) => r.title);
      expect(await titles(lead)).toEqual([]);
      expect(await titles(ana)).toEqual(['Ana 0', 'Ana 1', 'Ana 2', 'Ana 3', 'Ana 4']);
      expect(await ops.count(ben, 'task', { where: mine })).toEqual({ count: 3, more: false });
    });

    it('{ param } takes the value given, and a missing one matches nothing', async () => {
      const byStatus = { field: 'status', op: 'eq', value: { param: 'status' } } as const;
      expect((await ops.count(lead, 'task', { where: byStatus, params: { status: 'doing' } })).count).toBe(5);
      expect((await ops.count(lead, 'task', { where: byStatus, params: { status: 'todo' } })).count).toBe(3);
      expect((await ops.count(lead, 'task', { where: byStatus })).count).toBe(0);
    });

    it('combines with filters and keyset pages', async () => {
      const doing = { field: 'status', op: 'eq', value: 'doing' } as const;
      const first = await ops.list(lead, 'task', { where: doing, sort: 'title', limit: 3 });
      const second = await ops.list(lead, 'task', { where: doing, sort: 'title', limit: 3, cursor: first.nextCursor! });
      expect([...first.rows, ...second.rows].map((r) => r.title)).toEqual(['Ana 0', 'Ana 1', 'Ben 0', 'Ben 1', 'Ben 2']);
      expect(second.nextCursor).toBeNull();
    });
  });
});
