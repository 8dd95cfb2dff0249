import { beforeAll, expect, it } from 'vitest';
import { createActor, testModel } from '@testing/engine/ops';
import { forEachDatabase } from '@testing/engine/store';
import { openTestEngine } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import { bindOps } from '@/engine/ops/ops';
import type { Actor } from '@/engine/ground/actor';
import type { Condition } from '@/engine/spec/types';
import { entityFor, listFor, summaryFor } from '@/engine/spec/screens/for-roles';
import { shownWidgets } from '@/ui/home/shown-widgets';
import { mayImport } from './csv/may-import';

/*
 * The helpdesk as its customers see it: a portal, not the back office. Their home has their own
 * open tickets and no desk machinery (no Overdue, no priorities, no chart); their ticket list has
 * their columns (no SLA), no bulk panel and no import; pending reads in their words. An agent's
 * home and list are as before, and so are those of a user who is also staff.
 */
forEachDatabase('per-role screens of the helpdesk', (database) => {
  let engine: TestEngine;
  let customer: Actor;
  let neighbour: Actor;
  let agent: Actor;
  let both: Actor;
  const ticket = testModel.entitiesByName.ticket!;
  const home = testModel.home!;
  const titles = (actor: Actor) => shownWidgets(home.widgets, bindOps(engine.ops, actor), actor).map((w) => w.title);

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    [customer, neighbour, agent, both] = await Promise.all([
      createActor(engine.store.db, ['customer'], 'Portal Customer'),
      createActor(engine.store.db, ['customer'], 'Other Customer'),
      createActor(engine.store.db, ['agent'], 'Portal Agent'),
      createActor(engine.store.db, ['agent', 'customer'], 'Agent And Customer'),
    ]);
  });

  it("shows a customer 'My tickets' and no desk machinery on the home; an agent the desk's widgets", () => {
    expect(titles(customer)).toEqual(['My tickets', 'Tickets by state']);
    expect(titles(agent)).toEqual([
      'Tickets by state',
      'Tickets by priority',
      'Needs my action',
      'Overdue',
      'Created and resolved per day',
    ]);
    // One staff role is enough for the desk's widgets; the customer's own list is theirs too.
    expect(titles(both)).toEqual([
      'My tickets',
      'Tickets by state',
      'Tickets by priority',
      'Needs my action',
      'Overdue',
      'Created and resolved per day',
    ]);
    expect(summaryFor(testModel, customer)).toMatch(/^Ask us for help here/);
    expect(summaryFor(testModel, agent)).toBe(testModel.summary);
    expect(summaryFor(testModel, both)).toBe(testModel.summary);
  });

  it("lists in 'My tickets' the customer's own tickets still in hand, latest first", async () => {
    const mine = await engine.ops.create(customer, 'ticket', { subject: 'My printer is jammed' });
    const done = await engine.ops.create(customer, 'ticket', { subject: 'My screen flickers' });
    await engine.ops.create(neighbour, 'ticket', { subject: 'Not theirs at all' });
    const started = await engine.ops.transition(agent, 'ticket', done.id, 'start', {
      version: done.version,
      input: { assignee: agent.userId },
    });
    await engine.ops.transition(agent, 'ticket', done.id, 'resolve', { version: started.version });
    const widget = home.widgets.find((w) => w.title === 'My tickets');
    if (widget?.kind !== 'list') throw new Error('the helpdesk has a list widget "My tickets"');
    const page = await engine.ops.list(customer, 'ticket', { where: widget.where as Condition, sort: widget.sort, limit: widget.limit });
    expect(page.rows.map((r) => r.subject)).toEqual(['My printer is jammed']);
    expect(page.rows[0]!.id).toBe(mine.id);
  });

  it("gives a customer their own list: no SLA column or filter, no bulk panel, no import; an agent's is unchanged", async () => {
    const theirs = listFor(ticket, customer);
    expect(theirs.columns).toEqual(['id', 'subject', 'state', 'updatedAt', 'replyCount']);
    expect(theirs.columns).not.toContain('slaDueAt');
    expect(theirs.filters).toEqual(['state']);
    expect(theirs).toMatchObject({ bulk: false, import: false, sort: { field: 'updatedAt', direction: 'desc' } });
    expect(listFor(ticket, agent)).toBe(ticket.list);
    expect(listFor(ticket, agent).columns).toContain('slaDueAt');
    expect(listFor(ticket, both)).toBe(ticket.list);
    expect(mayImport(engine.ops, customer, ticket)).toBe(false);
    expect(mayImport(engine.ops, agent, ticket)).toBe(true);
    expect(mayImport(engine.ops, both, ticket)).toBe(true);
    // Their list reads through ops as any list does, in its own order.
    const page = await engine.ops.list(customer, 'ticket', { sort: '-updatedAt' });
    expect(page.rows.length).toBeGreaterThan(0);
    expect(page.rows.every((r) => r.requester === customer.userId)).toBe(true);
  });

  it('names the pending state in the customer’s words, the agent’s in the desk’s', () => {
    const words = (actor: Actor) => entityFor(ticket, actor).workflow!.states.find((s) => s.name === 'pending')!;
    expect(words(customer)).toMatchObject({ label: 'Waiting for your reply', description: expect.stringMatching(/^We answered you/) });
    expect(words(agent)).toMatchObject({ label: 'Pending', description: 'Waiting for the customer.' });
    expect(entityFor(ticket, agent)).toBe(ticket);
    // Built once per set of roles: pages of one viewer share it.
    expect(entityFor(ticket, customer)).toBe(entityFor(ticket, { roles: ['customer'] }));
  });
});
