import { beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { createActor, expectRefused, ninefoldError, openSyncedQuickly, testModel } from '@testing/engine/ops';
import type { RecordData } from './types';
import type { Actor } from '../ground/actor';

forEachDatabase('ops: related records, final states, replies that take transitions', (database) => {
  let store: Store;
  let ops: Ops;
  let agent: Actor;
  let customer: Actor;
  let other: Actor;

  async function snapshot() {
    return {
      tickets: await store.db.selectFrom('ticket').selectAll().orderBy('id').execute(),
      comments: await store.db.selectFrom('comment').selectAll().orderBy('id').execute(),
      audit: await store.db.selectFrom('nf_audit').selectAll().orderBy('id').execute(),
    };
  }
  const refused = (code: string, write: () => Promise<unknown>) => expectRefused(snapshot, code, write);
  const take = (actor: Actor, ticket: RecordData, name: string, input: Record<string, unknown> = {}) =>
    ops.transition(actor, 'ticket', ticket.id, name, { version: ticket.version, input });
  const state = async (id: number) => (await ops.get(agent, 'ticket', id)).record;

  /** A customer's ticket, taken to `to` by the agent. */
  async function ticketIn(to: 'open' | 'pending' | 'resolved' | 'closed', requester = customer): Promise<RecordData> {
    let ticket = await ops.create(requester, 'ticket', { subject: `Ticket to be ${to}` });
    ticket = await take(agent, await state(ticket.id), 'start', { assignee: agent.userId });
    if (to === 'pending') ticket = await take(agent, ticket, 'wait');
    if (to === 'resolved' || to === 'closed') ticket = await take(agent, ticket, 'resolve');
    if (to === 'closed') ticket = await take(agent, ticket, 'close');
    return ticket;
  }

  beforeAll(async () => {
    store = await openSyncedQuickly(database, testModel);
    ops = createOps({ model: testModel, db: store.db });
    agent = await createActor(store.db, ['agent'], 'Grace Agent');
    customer = await createActor(store.db, ['customer'], 'Carl Customer');
    other = await createActor(store.db, ['customer'], 'Olga Other');
  });

  describe('a section of related records', () => {
    it('lists and counts only what the viewer may see: no internal note for the customer', async () => {
      const ticket = await ticketIn('open');
      await ops.create(customer, 'comment', { ticket: ticket.id, body: 'It is broken.' });
      await ops.create(agent, 'comment', { ticket: ticket.id, body: 'Customer sounds upset.', internal: true });
      await ops.create(agent, 'comment', { ticket: ticket.id, body: 'We are on it.' });
      const section = testModel.entitiesByName.ticket!.details.related[0]!;
      expect(section).toMatchObject({ entity: 'comment', via: 'ticket', display: 'thread', sort: 'createdAt', param: 'comments' });
      const query = { filters: { [section.via]: String(ticket.id) }, sort: section.sort };

      const agentPage = await ops.list(agent, 'comment', query);
      expect(agentPage.rows.map((r) => r.body)).toEqual(['It is broken.', 'Customer sounds upset.', 'We are on it.']);
      expect(await ops.count(agent, 'comment', query)).toEqual({ count: 3, more: false });

      const customerPage = await ops.list(customer, 'comment', query);
      expect(customerPage.rows.map((r) => r.body)).toEqual(['It is broken.', 'We are on it.']);
      expect(customerPage.rows.every((r) => !('internal' in r))).toBe(true);
      expect(await ops.count(customer, 'comment', query)).toEqual({ count: 2, more: false });

      // Someone else's ticket: nothing under it, not even a count.
      expect((await ops.list(other, 'comment', query)).rows).toEqual([]);
      expect(await ops.count(other, 'comment', query)).toEqual({ count: 0, more: false });
    });
  });

  describe('final states freeze the record', () => {
    it('refuses an update of a closed ticket with TICKET_CLOSED, for the agent and the requester alike', async () => {
      const ticket = await ticketIn('closed');
      const byAgent = await refused('TICKET_CLOSED', () =>
        ops.update(agent, 'ticket', ticket.id, { subject: 'Changed after closing' }, ticket.version),
      );
      expect(byAgent.status).toBe(409);
      expect(byAgent.message).toBe('This ticket is closed and can no longer be changed.');
      await refused('TICKET_CLOSED', () => ops.update(customer, 'ticket', ticket.id, { subject: 'Changed after closing' }, ticket.version));
      // Out of scope stays out of scope: someone else's closed ticket is not found.
      await refused('NOT_FOUND', () => ops.update(other, 'ticket', ticket.id, { subject: 'Not mine' }, ticket.version));
    });

    it('refuses a comment on a closed ticket, through ops whatever the door', async () => {
      const ticket = await ticketIn('closed');
      await refused('TICKET_CLOSED', () => ops.create(customer, 'comment', { ticket: ticket.id, body: 'One more thing' }));
      await refused('TICKET_CLOSED', () =>
        ops.create(agent, 'comment', { ticket: ticket.id, body: 'Internal afterthought', internal: true }),
      );
      // Resolved is not final: comments still go in.
      const resolved = await ticketIn('resolved');
      await expect(ops.create(customer, 'comment', { ticket: resolved.id, body: 'Thanks!' })).resolves.toMatchObject({ body: 'Thanks!' });
    });

    it('uses RECORD_FINAL when the workflow names no code, and addWhenFinal lets related records in', async () => {
      const { buildModel } = await import('../spec/build');
      const spec = testModel.spec;
      const model = buildModel({
        ...spec,
        workflows: { ticket: { ...spec.workflows!.ticket!, finalError: undefined } },
        screens: { ...spec.screens, details: { ticket: { related: { comment: { thread: true, addWhenFinal: true } } } } },
      });
      const plain = createOps({ model, db: store.db });
      const ticket = await ticketIn('closed');
      const error = await ninefoldError(plain.update(agent, 'ticket', ticket.id, { subject: 'Frozen?' }, ticket.version));
      expect(error.code).toBe('RECORD_FINAL');
      expect(error.status).toBe(409);
      await expect(plain.create(agent, 'comment', { ticket: ticket.id, body: 'Post-mortem note' })).resolves.toMatchObject({
        body: 'Post-mortem note',
      });
    });
  });

  describe('what the viewer may do to one record', () => {
    it('says per record whether Edit and Delete may be offered', async () => {
      const open = await ticketIn('open');
      const closed = await ticketIn('closed');
      expect((await ops.get(customer, 'ticket', open.id)).can).toEqual({ update: true, delete: false });
      expect((await ops.get(customer, 'ticket', closed.id)).can).toEqual({ update: false, delete: false });
      expect((await ops.get(agent, 'ticket', open.id)).can).toEqual({ update: true, delete: false });
      expect((await ops.get(agent, 'ticket', closed.id)).can).toEqual({ update: false, delete: false });
      expect((await ninefoldError(ops.get(other, 'ticket', open.id))).code).toBe('NOT_FOUND');
    });
  });

  describe('the conversation is the reply', () => {
    it("takes the requester's reply transition in the same transaction: pending → open", async () => {
      const ticket = await ticketIn('pending');
      await ops.create(customer, 'comment', { ticket: ticket.id, body: 'Here is the log you asked for.' });
      const after = await state(ticket.id);
      expect(after).toMatchObject({ state: 'open', version: ticket.version + 1 });
      const history = await ops.history(agent, 'ticket', ticket.id);
      expect(history.entries[0]).toMatchObject({ action: 'transition', transition: { name: 'reply', from: 'pending', to: 'open' } });
      expect(history.entries[0]!.actor?.id).toBe(customer.userId);
    });

    it("reopens a resolved ticket with its requester's reply (the next transition named), within the reopen window only", async () => {
      const resolved = await ticketIn('resolved');
      await ops.create(customer, 'comment', { ticket: resolved.id, body: 'It broke again this morning.' });
      expect(await state(resolved.id)).toMatchObject({ state: 'open', resolvedAt: null });
      const history = await ops.history(agent, 'ticket', resolved.id);
      expect(history.entries[0]).toMatchObject({ action: 'transition', transition: { name: 'reopen', from: 'resolved', to: 'open' } });
      // Past the window the reopen's guard refuses: the reply is still saved, on the resolved ticket.
      const late = await ticketIn('resolved');
      await store.db
        .updateTable('ticket')
        .set({ resolved_at: new Date(Date.now() - 30 * 86_400_000) })
        .where('id', '=', late.id)
        .execute();
      const before = await state(late.id);
      const reply = await ops.create(customer, 'comment', { ticket: late.id, body: 'Any news?' });
      expect(reply.id).toBeGreaterThan(0);
      expect(await state(late.id)).toMatchObject({ state: 'resolved', version: before.version });
    });

    it('takes nothing when the transition is not available: an open ticket, or an agent who is not the requester', async () => {
      const open = await ticketIn('open');
      await ops.create(customer, 'comment', { ticket: open.id, body: 'Still there?' });
      expect(await state(open.id)).toMatchObject({ state: 'open', version: open.version });
      const pending = await ticketIn('pending');
      await ops.create(agent, 'comment', { ticket: pending.id, body: 'A note from the agent.' });
      expect(await state(pending.id)).toMatchObject({ state: 'pending', version: pending.version });
    });

    it('takes the transition chosen beside the reply box with the reply, or saves neither', async () => {
      const ticket = await ticketIn('open');
      await ops.create(agent, 'comment', { ticket: ticket.id, body: 'Can you send a screenshot?' }, { replyWith: 'wait' });
      const pending = await state(ticket.id);
      expect(pending.state).toBe('pending');

      // "wait" cannot be taken from pending: the reply is not saved either.
      const error = await refused('TRANSITION_NOT_ALLOWED', () =>
        ops.create(agent, 'comment', { ticket: ticket.id, body: 'Waiting again' }, { replyWith: 'wait' }),
      );
      expect(error.message).toBe('"Wait for customer" cannot be taken while the ticket is Pending.');
      // A customer may not take "resolve": nothing saved.
      await refused('TRANSITION_NOT_ALLOWED', () =>
        ops.create(customer, 'comment', { ticket: ticket.id, body: 'I resolve it myself' }, { replyWith: 'resolve' }),
      );
      // Only transitions the section offers beside the reply box.
      await refused('VALIDATION_FAILED', () =>
        ops.create(agent, 'comment', { ticket: ticket.id, body: 'And close' }, { replyWith: 'close' }),
      );

      await ops.create(agent, 'comment', { ticket: ticket.id, body: 'Fixed, closing the loop.' }, { replyWith: 'resolve' });
      expect(await state(ticket.id)).toMatchObject({ state: 'resolved' });
    });
  });
});
