import { sql } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestEngine } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import { createActor, testModel } from '@testing/engine/ops';
import type { RecordData } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import { forEachDatabase } from '@testing/engine/store';
import { VERSION_INPUT } from '@/ui/forms/state';
import { counterpartOf } from './counterpart';
import { isRedirect, submitUpdate } from './record-actions';
import { relatedSections } from './related-sections';

vi.mock('server-only', () => ({}));

/*
 * What the ticket page builds around its conversation: the reply box's two modes (a reply, an
 * internal note) for whoever may write the marker; the notice a requester reads before replying
 * on a ticket their reply can no longer reopen (the reply is still saved); who the conversation is
 * with and their other tickets, as the viewer may list them; and one field saved in place.
 */
forEachDatabase('the ticket page around its conversation', (database) => {
  let engine: TestEngine;
  let admin: Actor;
  let agent: Actor;
  let customer: Actor;
  let other: Actor;
  let ticket: RecordData;
  let second: RecordData;
  const entity = () => engine.model.entitiesByName.ticket!;

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    admin = await createActor(engine.store.db, ['admin'], 'Admin Conversation');
    agent = await createActor(engine.store.db, ['agent'], 'Agent Conversation');
    customer = await createActor(engine.store.db, ['customer'], 'Customer Conversation');
    other = await createActor(engine.store.db, ['customer'], 'Other Conversation');
    ticket = await engine.ops.create(customer, 'ticket', { subject: 'Printer on fire' });
    second = await engine.ops.create(customer, 'ticket', { subject: 'Scanner too' });
    await engine.ops.create(other, 'ticket', { subject: 'Not theirs' });
  });

  async function sections(actor: Actor, id: number) {
    const view = await engine.ops.get(actor, 'ticket', id);
    return { view, sections: await relatedSections(engine, actor, entity(), view, {}, 'UTC') };
  }
  async function replyBox(actor: Actor, id: number) {
    const { sections: shown } = await sections(actor, id);
    return shown.find((s) => s.entity.name === 'comment')!.add;
  }

  describe('the reply box', () => {
    it('offers an agent a reply and an internal note as two modes, not a checkbox', async () => {
      const box = await replyBox(agent, ticket.id);
      expect(box?.mode).toEqual({ field: 'internal', label: 'Internal note', note: 'Visible to agents only' });
      expect(box?.fields.map((f) => f.name)).not.toContain('internal');
    });

    it('offers a customer, who may not write the marker, the reply alone', async () => {
      const box = await replyBox(customer, ticket.id);
      expect(box?.mode).toBeNull();
      expect(box?.fields.map((f) => f.name)).not.toContain('internal');
    });

    it('tells the requester beforehand when their reply will not reopen a resolved ticket, and saves it all the same', async () => {
      const started = await engine.ops.transition(agent, 'ticket', second.id, 'start', {
        version: second.version,
        input: { assignee: agent.userId },
      });
      await engine.ops.transition(agent, 'ticket', second.id, 'resolve', { version: started.version });
      // Within the reopen window the reply reopens: nothing to say.
      expect((await replyBox(customer, second.id))?.notice).toBeNull();

      const { table } = entity();
      const column = entity().fieldsByName.resolvedAt!.column;
      await sql`update ${sql.table(table)} set ${sql.ref(column)} = now() - interval '30 days' where id = ${second.id}`.execute(
        engine.store.db,
      );
      const notice = (await replyBox(customer, second.id))?.notice;
      expect(notice).toMatch(/^Your reply will be added, but it will not reopen this ticket: /);
      expect(notice).toContain('resolved too long ago');
      // Nothing to say to the agent, whose reply was never to reopen it.
      expect((await replyBox(agent, second.id))?.notice).toBeNull();

      await engine.ops.create(customer, 'comment', { ticket: second.id, body: 'Still broken' });
      const after = await engine.ops.get(agent, 'ticket', second.id);
      expect(after.record.state).toBe('resolved');
    });
  });

  describe('who the conversation is with', () => {
    it("shows the requester's other tickets in progress, as the viewer may list them", async () => {
      const { view, sections: shown } = await sections(agent, ticket.id);
      const counterpart = await counterpartOf(engine, agent, entity(), view, shown);
      expect(counterpart).toMatchObject({ field: 'requester', userId: customer.userId, name: 'Customer Conversation' });
      // The ticket shown is not among them; a ticket of someone else is not either.
      expect(counterpart!.others.map((r) => r.subject)).toEqual(['Scanner too']);
      expect(counterpart!.count).toEqual({ count: 1, more: false });
    });

    it('leaves out a final ticket', async () => {
      const current = await engine.ops.get(admin, 'ticket', second.id);
      await engine.ops.transition(admin, 'ticket', second.id, 'close', { version: current.record.version });
      const { view, sections: shown } = await sections(agent, ticket.id);
      expect((await counterpartOf(engine, agent, entity(), view, shown))!.others).toEqual([]);
    });
  });

  describe('one field saved in place', () => {
    function posted(fields: Record<string, string>): FormData {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      return form;
    }
    const state = { values: {}, fieldErrors: {}, message: null, attempt: 0 };

    it('writes the posted field alone, version-checked', async () => {
      const before = await engine.ops.get(agent, 'ticket', ticket.id);
      const saved = await submitUpdate(
        engine,
        agent,
        'ticket',
        ticket.id,
        state,
        posted({ priority: 'high', [VERSION_INPUT]: String(before.record.version) }),
        'UTC',
      );
      expect(isRedirect(saved)).toBe(true);
      const history = await engine.ops.history(agent, 'ticket', ticket.id, { limit: 1 });
      // The SLA due time follows the priority: the engine's own consequence, not a field posted.
      expect(Object.keys(history.entries[0]!.changes)).toEqual(['priority', 'slaDueAt']);

      // The same version again: someone (this very save) changed it meanwhile.
      const stale = await submitUpdate(
        engine,
        agent,
        'ticket',
        ticket.id,
        state,
        posted({ priority: 'low', [VERSION_INPUT]: String(before.record.version) }),
        'UTC',
      );
      expect(isRedirect(stale)).toBe(false);
      expect((await engine.ops.get(agent, 'ticket', ticket.id)).record.priority).toBe('high');
    });
  });
});
