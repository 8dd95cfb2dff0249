import { beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { forgetCachedReads } from '../store/write-clock';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { createActor, openSyncedQuickly, testModel } from '@testing/engine/ops';
import type { ListQuery, RecordData } from './types';
import type { Actor } from '../ground/actor';

const model = testModel;

/**
 * Reading must cost a fixed number of statements whatever the number of rows: one for the page,
 * one per referenced entity and one for users (no query per row).
 */
forEachDatabase('statement counts', (database) => {
  let store: Store;
  let ops: Ops;
  let admin: Actor;
  let agents: Actor[];
  let tickets: RecordData[];

  /** Statements of a cold call: reads kept in memory (store/write-clock.ts) are dropped first. */
  async function statementsOf(run: () => Promise<unknown>): Promise<number> {
    forgetCachedReads(store.db);
    const before = store.statementCount();
    await run();
    return store.statementCount() - before;
  }

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    admin = await createActor(store.db, ['admin'], 'Ida Admin');
    agents = [await createActor(store.db, ['agent'], 'Al Agent'), await createActor(store.db, ['agent'], 'Bo Agent')];
    const organizations: number[] = [];
    for (let i = 0; i < 6; i++) organizations.push((await ops.create(admin, 'organization', { name: `Customer ${i}` })).id);
    const rows = Array.from({ length: 60 }, (_, i) => ({
      subject: `Problem number ${i}`,
      description: 'it is broken',
      priority: 'normal',
      state: 'new',
      organization: organizations[i % organizations.length],
      requester: admin.userId,
      assignee: agents[i % 2]!.userId,
      created_by: agents[(i + 1) % 2]!.userId,
      updated_by: admin.userId,
    }));
    tickets = [];
    for (const row of rows)
      tickets.push((await store.db.insertInto('ticket').values(row).returningAll().executeTakeFirstOrThrow()) as unknown as RecordData);
    for (const ticket of tickets.slice(0, 50)) await ops.create(agents[0]!, 'comment', { ticket: ticket.id, body: 'seen' });
  });

  it('a list page of 5 rows costs what a page of 50 costs', async () => {
    const small = await statementsOf(async () => expect((await ops.list(admin, 'ticket', { limit: 5 })).rows).toHaveLength(5));
    const large = await statementsOf(async () => expect((await ops.list(admin, 'ticket', { limit: 50 })).rows).toHaveLength(50));
    expect(large).toBe(small);
    // The page, the users (requester, assignee, created and updated by), the organizations.
    expect(small).toBeLessThanOrEqual(3);
  });

  it('so does a later page, a nullable sort, a filtered, searched or scoped list', async () => {
    const first = await ops.list(admin, 'ticket', { limit: 5, sort: 'subject' });
    const variants: [Actor, ListQuery][] = [
      [admin, { sort: 'subject', cursor: first.nextCursor! }],
      // A nullable column is read as two index ranges: the values, then the empty ones.
      [admin, { sort: '-dueAt' }],
      [admin, { q: 'broken', filters: { priority: 'normal' } }],
      [agents[0]!, { filters: { assignee: String(agents[0]!.userId) } }],
    ];
    for (const [actor, query] of variants) {
      const small = await statementsOf(() => ops.list(actor, 'ticket', { ...query, limit: 5 }));
      const large = await statementsOf(() => ops.list(actor, 'ticket', { ...query, limit: 25 }));
      expect(large, JSON.stringify(query)).toBe(small);
      expect(small).toBeLessThanOrEqual(4);
    }
  });

  it('comments referring to 5 or 50 tickets cost the same', async () => {
    const small = await statementsOf(() => ops.list(admin, 'comment', { limit: 5 }));
    const large = await statementsOf(() => ops.list(admin, 'comment', { limit: 50 }));
    expect(large).toBe(small);
  });

  it('a record costs a constant number, whichever it is', async () => {
    const costs = new Set<number>();
    for (const ticket of [tickets[0], tickets[17], tickets[59]]) {
      costs.add(await statementsOf(() => ops.get(admin, 'ticket', ticket!.id)));
    }
    expect(costs.size).toBe(1);
    expect([...costs][0]).toBeLessThanOrEqual(3);
  });

  it('a list shown again takes its reference titles from memory: only the page is read', async () => {
    await ops.list(admin, 'ticket', { limit: 50 });
    const before = store.statementCount();
    const again = await ops.list(admin, 'ticket', { limit: 50 });
    expect(store.statementCount() - before).toBe(1);
    expect(Object.keys(again.references.organization ?? {})).not.toHaveLength(0);
  });

  it('choices for a reference field cost one statement', async () => {
    expect(await statementsOf(() => ops.choices(admin, 'ticket', 'organization'))).toBe(1);
    expect(await statementsOf(() => ops.choices(admin, 'ticket', 'assignee', { q: 'agent' }))).toBe(1);
  });
});
