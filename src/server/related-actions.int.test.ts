import { beforeAll, expect, it } from 'vitest';
import { openTestEngine } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import { createActor, testModel } from '@testing/engine/ops';
import type { RecordData } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import { forEachDatabase } from '@testing/engine/store';
import type { RecordFormState } from '@/ui/forms/state';
import { REPLY_WITH_INPUT } from '@/ui/record/related-state';
import type { Redirect } from './record-actions';
import { submitRelated } from './related-actions';

/*
 * The reply box of a detail page, as a plain function over a real engine and database: the
 * ticket comes from the bound arguments, never from what the form posted; a chosen transition is
 * taken with the reply or neither is saved; a refusal comes back as the form with what was typed.
 */

const EMPTY: RecordFormState = { values: {}, fieldErrors: {}, message: null, attempt: 0 };

function posted(values: Readonly<Record<string, string>>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.append(name, value);
  return data;
}

function refused(result: RecordFormState | Redirect): RecordFormState {
  if ('redirectTo' in result) expect.fail(`expected a refusal, got a redirect to ${result.redirectTo}`);
  return result;
}

forEachDatabase('related actions: the reply box', (database) => {
  let engine: TestEngine;
  let agent: Actor;
  let customer: Actor;
  let other: Actor;

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    agent = await createActor(engine.store.db, ['agent'], 'Agent Reply');
    customer = await createActor(engine.store.db, ['customer'], 'Customer Reply');
    other = await createActor(engine.store.db, ['customer'], 'Other Customer');
  });

  async function openTicket(): Promise<RecordData> {
    const ticket = await engine.ops.create(customer, 'ticket', { subject: 'The fax is jammed' });
    return engine.ops.transition(agent, 'ticket', ticket.id, 'start', { version: ticket.version, input: { assignee: agent.userId } });
  }
  const comments = async (ticketId: number) =>
    (await engine.ops.list(agent, 'comment', { filters: { ticket: String(ticketId) }, sort: 'createdAt' })).rows;

  it('sets the reference from the page, not from the form, and goes back to the thread', async () => {
    const ticket = await openTicket();
    const decoy = await engine.ops.create(other, 'ticket', { subject: 'Someone else entirely' });
    const result = await submitRelated(
      engine,
      customer,
      'ticket',
      ticket.id,
      'comment',
      EMPTY,
      posted({ body: 'Any news?', ticket: String(decoy.id) }),
      'UTC',
    );
    expect(result).toEqual({ redirectTo: `/tickets/${ticket.id}#related-comment` });
    expect((await comments(ticket.id)).map((c) => c.body)).toEqual(['Any news?']);
    expect(await comments(decoy.id)).toEqual([]);
  });

  it('takes the chosen transition with the reply, or saves neither and says why', async () => {
    const ticket = await openTicket();
    await submitRelated(
      engine,
      agent,
      'ticket',
      ticket.id,
      'comment',
      EMPTY,
      posted({ body: 'Which model is it?', [REPLY_WITH_INPUT]: 'wait' }),
      'UTC',
    );
    expect((await engine.ops.get(agent, 'ticket', ticket.id)).record.state).toBe('pending');
    const again = refused(
      await submitRelated(
        engine,
        agent,
        'ticket',
        ticket.id,
        'comment',
        EMPTY,
        posted({ body: 'Still waiting', [REPLY_WITH_INPUT]: 'wait' }),
        'UTC',
      ),
    );
    expect(again).toMatchObject({
      code: 'TRANSITION_NOT_ALLOWED',
      message: '"Wait for customer" cannot be taken while the ticket is Pending.',
      values: { body: 'Still waiting' },
      attempt: 1,
    });
    expect((await comments(ticket.id)).map((c) => c.body)).toEqual(['Which model is it?']);
  });

  it("refuses a reply to a ticket the user cannot see as if it did not exist, and an unknown section's", async () => {
    const ticket = await openTicket();
    const hidden = refused(await submitRelated(engine, other, 'ticket', ticket.id, 'comment', EMPTY, posted({ body: 'Let me in' }), 'UTC'));
    expect(hidden.code).toBe('VALIDATION_FAILED');
    expect(hidden.message).toContain('no record #');
    await expect(
      submitRelated(engine, agent, 'ticket', ticket.id, 'attachment', EMPTY, posted({ body: 'x' }), 'UTC'),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await comments(ticket.id)).toEqual([]);
  });
});
