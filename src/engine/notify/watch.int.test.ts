import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';
import { createActor, ninefoldError } from '@testing/engine/ops';
import { deskModel } from '@testing/engine/notify';
import { createOps } from '../ops/create-ops';
import type { Ops } from '../ops/ops';
import type { Store } from '../store/types';
import type { Actor } from '../ground/actor';
import { INBOX_TABLE, WATCH_TABLE } from '../store/schema/notify-tables';
import { dispatchOutbox } from './dispatch';
import { setWatch, watchState } from './watch';

forEachDatabase('notifications: watching and muting', (database) => {
  let store: Store;
  let ops: Ops;
  let agent: Actor;
  let watcher: Actor;
  let customer: Actor;
  let stranger: Actor;

  beforeAll(async () => {
    store = await database.openSynced(deskModel);
    ops = createOps({ model: deskModel, db: store.db });
    agent = await createActor(store.db, ['agent'], 'Ada Agent');
    watcher = await createActor(store.db, ['agent'], 'Walt Watcher');
    customer = await createActor(store.db, ['customer'], 'Cora Customer');
    stranger = await createActor(store.db, ['customer'], 'Stan Stranger');
  });
  afterAll(() => store.close());

  const ctx = () => ({ model: deskModel, db: store.db });
  const told = async (user: Actor, recordId: number, kind: string) =>
    (
      await store.db
        .selectFrom(INBOX_TABLE)
        .select('id')
        .where('user_id', '=', user.userId)
        .where('kind', '=', kind)
        .where('record_id', '=', recordId)
        .execute()
    ).length;
  const drain = () => dispatchOutbox(ctx(), {}, Date.now() + 10_000);

  it('lets the roles of `watch` watch a record they may read; others may only mute what concerns them, and cannot probe ids', async () => {
    const ticket = await ops.create(customer, 'ticket', { subject: 'Watch me' });
    expect(await watchState(ctx(), watcher, 'ticket', ticket.id)).toEqual({ canWatch: true, canMute: true, mode: null });
    expect(await watchState(ctx(), customer, 'ticket', ticket.id)).toEqual({ canWatch: false, canMute: true, mode: null });
    expect((await ninefoldError(setWatch(ctx(), customer, 'ticket', ticket.id, 'watch'))).code).toBe('FORBIDDEN');
    expect((await ninefoldError(setWatch(ctx(), stranger, 'ticket', ticket.id, 'mute'))).code).toBe('NOT_FOUND');
    expect((await ninefoldError(watchState(ctx(), stranger, 'ticket', ticket.id))).code).toBe('NOT_FOUND');
    const rows = await store.db.selectFrom(WATCH_TABLE).select('user_id').where('record_id', '=', ticket.id).execute();
    expect(rows).toHaveLength(0);

    await setWatch(ctx(), watcher, 'ticket', ticket.id, 'watch');
    expect((await watchState(ctx(), watcher, 'ticket', ticket.id)).mode).toBe('watch');
    const reply = await ops.create(agent, 'reply', { ticket: ticket.id, body: 'On it' });
    await drain();
    expect(await told(watcher, reply.id, 'replied')).toBe(1);
    expect(await told(customer, reply.id, 'replied')).toBe(1);

    await setWatch(ctx(), watcher, 'ticket', ticket.id, null);
    const second = await ops.create(agent, 'reply', { ticket: ticket.id, body: 'Still on it' });
    await drain();
    expect(await told(watcher, second.id, 'replied')).toBe(0);
    expect(await told(customer, second.id, 'replied')).toBe(1);
  });

  it('muting a ticket silences it and its replies (told through it), for that user only', async () => {
    const ticket = await ops.create(customer, 'ticket', { subject: 'Mute me' });
    await setWatch(ctx(), watcher, 'ticket', ticket.id, 'watch');
    await setWatch(ctx(), customer, 'ticket', ticket.id, 'mute');
    expect((await watchState(ctx(), customer, 'ticket', ticket.id)).mode).toBe('mute');
    const reply = await ops.create(agent, 'reply', { ticket: ticket.id, body: 'Shh' });
    await ops.transition(agent, 'ticket', ticket.id, 'resolve', { version: ticket.version });
    await drain();
    expect(await told(customer, reply.id, 'replied')).toBe(0);
    expect(await told(customer, ticket.id, 'ticketResolved')).toBe(0);
    expect(await told(watcher, reply.id, 'replied')).toBe(1);
    expect(await told(watcher, ticket.id, 'ticketResolved')).toBe(1);
  });
});
