import { beforeAll, expect, it } from 'vitest';
import { createIdentity } from '../identity/identity';
import { buildModel } from '../spec/build';
import type { AppSpec } from '../spec/types';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { forgetCachedReads } from '../store/write-clock';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { openSyncedQuickly } from '@testing/engine/ops';
import type { RecordData } from './types';
import type { Actor } from '../ground/actor';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

/**
 * Records titled by what they refer to, as specs written outside the team title them: a loan is
 * named by its item, a fine by its loan (so by the item, two hops on), a shift by its nurse.
 * Wherever such a record is named through ops (references of other records, choices, history),
 * it reads as the item or the nurse, in the same statements whatever the number of rows, and
 * never tells a viewer what they may not read.
 */
const spec: AppSpec = {
  name: 'titles',
  entities: {
    item: { titleField: 'name', fields: { name: { type: 'text', required: true }, code: { type: 'integer' } } },
    loan: { titleField: 'item', fields: { item: { type: 'reference', to: 'item', required: true }, note: { type: 'text' } } },
    fine: { titleField: 'reason', fields: { reason: { type: 'text' }, loan: { type: 'reference', to: 'loan', required: true } } },
    // Two hops: a renewal is named by its loan, so by the loan's item.
    renewal: { titleField: 'loan', fields: { loan: { type: 'reference', to: 'loan', required: true } } },
    receipt: { fields: { amount: { type: 'integer' }, renewal: { type: 'reference', to: 'renewal' } } },
    shift: { titleField: 'nurse', fields: { nurse: { type: 'user' } } },
    handover: { fields: { note: { type: 'text' }, shift: { type: 'reference', to: 'shift' } } },
  },
  roles: { librarian: {}, clerk: {} },
  permissions: {
    item: {
      librarian: { list: true, read: true, create: true, update: true },
      clerk: { list: { where: { field: 'code', op: 'eq', value: 1 } }, read: { where: { field: 'code', op: 'eq', value: 1 } } },
    },
    loan: {
      librarian: { list: true, read: true, create: true, update: true },
      clerk: { list: true, read: true },
    },
    fine: { librarian: { list: true, read: true, create: true, update: true }, clerk: { list: true, read: true } },
    renewal: { librarian: { list: true, read: true, create: true }, clerk: { list: true, read: true } },
    receipt: { librarian: { list: true, read: true, create: true }, clerk: { list: true, read: true } },
    shift: { librarian: { list: true, read: true, create: true } },
    handover: { librarian: { list: true, read: true, create: true } },
  },
};
const model = buildModel(spec);

forEachDatabase('ops: records titled by a reference', (database) => {
  let store: Store;
  let ops: Ops;
  let librarian: Actor;
  let clerk: Actor;
  let users = 0;
  const items: RecordData[] = [];
  const loans: RecordData[] = [];

  async function actor(roles: string[], name: string): Promise<Actor> {
    users += 1;
    const account = await createIdentity(store.db, Object.keys(spec.roles!)).createUser(SYSTEM_ACTOR, {
      email: `${roles.join('-')}.${users}.${process.pid}@example.com`,
      password: 'correct horse battery',
      name,
      roles,
    });
    return { userId: account.id, email: account.email, name: account.name, roles: account.roles };
  }

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
    librarian = await actor(['librarian'], 'Lena Librarian');
    clerk = await actor(['clerk'], 'Carl Clerk');
    // Item 0 is the clerk's to read (code 1); the others are not.
    for (const [i, name] of ['Atlas of Birds', 'Cordless Drill', 'Board Game', 'Tent'].entries()) {
      items.push(await ops.create(librarian, 'item', { name, code: i === 0 ? 1 : 2 }));
    }
    for (const item of items) loans.push(await ops.create(librarian, 'loan', { item: item.id }));
  });

  it('names a record titled by a reference by that record’s title where it is referred to', async () => {
    const fine = await ops.create(librarian, 'fine', { loan: loans[1]!.id });
    expect((await ops.get(librarian, 'fine', fine.id)).references.loan).toEqual({ [loans[1]!.id]: 'Cordless Drill' });
    const { rows, references } = await ops.list(librarian, 'fine', {});
    expect(rows.map((r) => references.loan![r.loan as number])).toContain('Cordless Drill');
  });

  it('follows titles that refer on (a renewal is named by its loan, so by its item), each hop as the viewer sees it', async () => {
    const renewals = [
      await ops.create(librarian, 'renewal', { loan: loans[0]!.id }),
      await ops.create(librarian, 'renewal', { loan: loans[3]!.id }),
    ];
    const receipts = await Promise.all(renewals.map((r) => ops.create(librarian, 'receipt', { amount: 1, renewal: r.id })));
    const titled = async (who: Actor) =>
      Object.assign({}, ...(await Promise.all(receipts.map(async (r) => (await ops.get(who, 'receipt', r.id)).references.renewal))));
    expect(await titled(librarian)).toEqual({ [renewals[0]!.id]: 'Atlas of Birds', [renewals[1]!.id]: 'Tent' });
    // The clerk reads the loans, but of the items only the first: the other loan is "Loan #id" to
    // them, and so is its renewal, as the renewal's own page names it (by its loan's title).
    expect(await titled(clerk)).toEqual({ [renewals[0]!.id]: 'Atlas of Birds', [renewals[1]!.id]: `Loan #${loans[3]!.id}` });
    expect((await ops.choices(librarian, 'receipt', 'renewal', { q: 'tent' })).choices).toEqual([{ id: renewals[1]!.id, title: 'Tent' }]);
  });

  it('offers such records by that title, ordered and searched by it', async () => {
    const all = await ops.choices(librarian, 'fine', 'loan');
    expect(all.choices.map((c) => c.title)).toEqual(['Atlas of Birds', 'Board Game', 'Cordless Drill', 'Tent']);
    expect((await ops.choices(librarian, 'fine', 'loan', { q: 'drill' })).choices).toEqual([{ id: loans[1]!.id, title: 'Cordless Drill' }]);
  });

  it('names one by a user by their name', async () => {
    const shift = await ops.create(librarian, 'shift', { nurse: clerk.userId });
    const handover = await ops.create(librarian, 'handover', { shift: shift.id, note: 'quiet night' });
    expect((await ops.get(librarian, 'handover', handover.id)).references.shift).toEqual({ [shift.id]: 'Carl Clerk' });
    expect((await ops.choices(librarian, 'handover', 'shift', { q: 'carl' })).choices).toEqual([{ id: shift.id, title: 'Carl Clerk' }]);
  });

  it('tells nothing a viewer may not read: "<Label> #<id>" instead', async () => {
    const fine = await ops.create(librarian, 'fine', { reason: 'late', loan: loans[2]!.id });
    // The clerk reads every loan but only item 0: a loan of another item is "Loan #id" to them.
    expect((await ops.get(clerk, 'fine', fine.id)).references.loan).toEqual({ [loans[2]!.id]: `Loan #${loans[2]!.id}` });
    const titles = Object.fromEntries((await ops.choices(clerk, 'fine', 'loan')).choices.map((c) => [c.id, c.title]));
    expect(titles[loans[0]!.id]).toBe('Atlas of Birds');
    expect(titles[loans[2]!.id]).toBe(`Loan #${loans[2]!.id}`);
    // Searching for a title they may not see finds nothing.
    expect((await ops.choices(clerk, 'fine', 'loan', { q: 'board' })).choices).toEqual([]);
  });

  it('names past values in a history by their titles, within what the viewer may read', async () => {
    const fine = await ops.create(librarian, 'fine', { loan: loans[0]!.id });
    await ops.update(librarian, 'fine', fine.id, { loan: loans[3]!.id }, fine.version);
    const history = await ops.history(librarian, 'fine', fine.id);
    expect(history.references.loan).toEqual({ [loans[0]!.id]: 'Atlas of Birds', [loans[3]!.id]: 'Tent' });
    expect((await ops.history(clerk, 'fine', fine.id)).references.loan).toEqual({
      [loans[0]!.id]: 'Atlas of Birds',
      [loans[3]!.id]: `Loan #${loans[3]!.id}`,
    });
  });

  it('costs the same statements for 5 rows as for 50, and for a history of 2 entries as of 40 (no query per row)', async () => {
    for (let i = 0; i < 50; i++) await ops.create(librarian, 'fine', { reason: `fine ${i}`, loan: loans[i % loans.length]!.id });
    const small = await statementsOf(() => ops.list(librarian, 'fine', { limit: 5 }));
    const large = await statementsOf(() => ops.list(librarian, 'fine', { limit: 50 }));
    expect(large).toBe(small);
    // The page, the users (created and updated by), the loans with their items' titles.
    expect(small).toBeLessThanOrEqual(3);

    const fine = await ops.create(librarian, 'fine', { loan: loans[0]!.id });
    const short = await statementsOf(() => ops.history(librarian, 'fine', fine.id));
    let version = fine.version;
    for (let i = 1; i <= 39; i++)
      version = (await ops.update(librarian, 'fine', fine.id, { loan: loans[i % loans.length]!.id }, version)).version;
    const long = await statementsOf(async () => expect((await ops.history(librarian, 'fine', fine.id)).entries).toHaveLength(40));
    expect(long).toBe(short);
  });
});
