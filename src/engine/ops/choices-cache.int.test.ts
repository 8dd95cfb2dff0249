import { beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { createActor, openSyncedQuickly, testModel } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';

/**
 * Choices (the options of a filter on every list page) and the titles of referenced records are
 * served from memory while this process writes nothing (store/write-clock.ts); a new or renamed
 * record shows at once.
 */
forEachDatabase('choices served from memory', (database) => {
  let store: Store;
  let ops: Ops;
  let admin: Actor;
  let customer: Actor;

  const statementsOf = async <T>(run: () => Promise<T>): Promise<{ value: T; statements: number }> => {
    const before = store.statementCount();
    const value = await run();
    return { value, statements: store.statementCount() - before };
  };
  const titles = async (actor: Actor, field: string) => (await ops.choices(actor, 'ticket', field)).choices.map((c) => c.title);

  beforeAll(async () => {
    store = await openSyncedQuickly(database, testModel);
    ops = createOps({ model: testModel, db: store.db });
    admin = await createActor(store.db, ['admin'], 'Ida Admin');
    customer = await createActor(store.db, ['customer'], 'Cy Customer');
    await ops.create(admin, 'organization', { name: 'Acme' });
  });

  it('asks the database once for the same choices, then answers from memory', async () => {
    const first = await statementsOf(() => ops.choices(admin, 'ticket', 'organization'));
    const again = await statementsOf(() => ops.choices(admin, 'ticket', 'organization'));
    expect(first.statements).toBe(1);
    expect(again).toEqual({ value: first.value, statements: 0 });
    expect((await statementsOf(() => ops.choices(admin, 'ticket', 'assignee'))).statements).toBe(1);
    expect((await statementsOf(() => ops.choices(admin, 'ticket', 'assignee'))).statements).toBe(0);
  });

  it('shows a new or renamed record, and a new user, on the next call', async () => {
    expect(await titles(admin, 'organization')).toEqual(['Acme']);
    const globex = await ops.create(admin, 'organization', { name: 'Globex' });
    expect(await titles(admin, 'organization')).toEqual(['Acme', 'Globex']);
    await ops.update(admin, 'organization', globex.id, { name: 'Initech' }, globex.version);
    expect(await titles(admin, 'organization')).toEqual(['Acme', 'Initech']);
    const before = await titles(admin, 'assignee');
    await createActor(store.db, ['agent'], 'Zed Newcomer');
    expect(await titles(admin, 'assignee')).toHaveLength(before.length + 1);
  });

  it('shows a renamed record under its new name in a list shown again (reference titles)', async () => {
    const org = await ops.create(admin, 'organization', { name: 'Umbrella' });
    const ticket = await ops.create(admin, 'ticket', { subject: 'Titles', requester: customer.userId, organization: org.id });
    const titleIn = async () => (await ops.list(admin, 'ticket', { limit: 5 })).references.organization?.[org.id];
    expect(await titleIn()).toBe('Umbrella');
    expect(await titleIn()).toBe('Umbrella');
    await ops.update(admin, 'organization', org.id, { name: 'Umbrella Corp' }, org.version);
    expect(await titleIn()).toBe('Umbrella Corp');
    expect(ticket.id).toBeGreaterThan(0);
  });

  it('still decides access on every call: an actor who may not choose is refused, cached or not', async () => {
    await ops.choices(admin, 'ticket', 'assignee');
    // The helpdesk's customers cannot read or write a ticket's assignee.
    await expect(ops.choices(customer, 'ticket', 'assignee')).rejects.toMatchObject({ code: 'FORBIDDEN_FIELD' });
  });
});
