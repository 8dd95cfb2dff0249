import { sql } from 'kysely';
import { beforeAll, expect, it, vi } from 'vitest';
import { openTestEngine } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import { createActor, testModel } from '@testing/engine/ops';
import type { RecordData } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import { forEachDatabase } from '@testing/engine/store';
import { relatedSections } from './related-sections';

vi.mock('server-only', () => ({}));

/*
 * What a ticket's page offers under it: the reply box only where ops would take the reply. The
 * helpdesk's customers read their organization's tickets but reply only on their own (the
 * comment's create scope: `ticket.requester` is the user), so a customer reading a colleague's
 * ticket gets the thread and no box to type into.
 */

forEachDatabase('related sections: the reply box is offered where ops take the reply', (database) => {
  let engine: TestEngine;
  let agent: Actor;
  let customer: Actor;
  let colleague: Actor;
  let stranger: Actor;
  let own: RecordData;
  let colleagues: RecordData;

  /** A customer of the organization, as administrators set it on the account. */
  async function customerOf(organization: number, name: string): Promise<Actor> {
    const actor = await createActor(engine.store.db, ['customer'], name);
    await sql`update nf_user set f_organization = ${organization} where id = ${actor.userId}`.execute(engine.store.db);
    return { ...actor, fields: { organization } };
  }

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    const admin = await createActor(engine.store.db, ['admin'], 'Admin Sections');
    agent = await createActor(engine.store.db, ['agent'], 'Agent Sections');
    const acme = await engine.ops.create(admin, 'organization', { name: 'Acme Sections' });
    customer = await customerOf(acme.id, 'Customer Sections');
    colleague = await customerOf(acme.id, 'Colleague Sections');
    stranger = await createActor(engine.store.db, ['customer'], 'Stranger Sections');
    own = await engine.ops.create(customer, 'ticket', { subject: 'My printer' });
    colleagues = await engine.ops.create(colleague, 'ticket', { subject: "My colleague's printer" });
  });

  async function replyBox(actor: Actor, ticket: RecordData) {
    const view = await engine.ops.get(actor, 'ticket', ticket.id);
    const sections = await relatedSections(engine, actor, engine.model.entitiesByName.ticket!, view, {}, 'UTC');
    const comments = sections.find((s) => s.entity.name === 'comment');
    expect(comments, 'the comment thread is shown').toBeDefined();
    return comments!.add;
  }

  it("offers a customer the reply box on their own ticket, not on a colleague's they read", async () => {
    expect(await replyBox(customer, own)).not.toBeNull();
    expect(await replyBox(customer, colleagues)).toBeNull();
    // The agent replies on either.
    expect(await replyBox(agent, colleagues)).not.toBeNull();
  });

  it('asks ops, whose answer is what a create does', async () => {
    expect(await engine.ops.mayCreate(customer, 'comment', { ticket: own.id })).toBe(true);
    expect(await engine.ops.mayCreate(customer, 'comment', { ticket: colleagues.id })).toBe(false);
    await expect(engine.ops.create(customer, 'comment', { ticket: colleagues.id, body: 'Me too' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    // A ticket the customer cannot read, or a user who may create no comment at all.
    expect(await engine.ops.mayCreate(stranger, 'comment', { ticket: own.id })).toBe(false);
    expect(await engine.ops.mayCreate({ ...agent, roles: [] }, 'comment', { ticket: own.id })).toBe(false);
    expect(await engine.ops.mayCreate(agent, 'comment', { ticket: colleagues.id })).toBe(true);
    const reply = await engine.ops.create(customer, 'comment', { ticket: own.id, body: 'Any news?' });
    expect(reply.id).toBeGreaterThan(0);
  });
});
