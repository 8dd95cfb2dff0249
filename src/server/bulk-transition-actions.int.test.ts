import { beforeAll, expect, it } from 'vitest';
import { openTestEngine } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import { asNinefoldError } from '@/engine/errors/ninefold-error';
import { createActor, testSpec } from '@testing/engine/ops';
import type { RecordData } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import { buildModel } from '@/engine/spec/build';
import type { AppSpec } from '@/engine/spec/types';
import { forEachDatabase } from '@testing/engine/store';
import {
  BULK_COMMENT_INPUT,
  BULK_ROW_INPUT,
  BULK_CHOICE_INPUT,
  initialBulkActionState,
  type BulkActionState,
} from '@/ui/record/bulk-action-state';
import { CONFIRM_INPUT, CONFIRM_VALUE } from '@/ui/confirm/confirm-input';
import { submitBulkTransition } from './bulk-transition-actions';

/*
 * The list page's bulk-transition door, as a plain function over a real engine and database: what
 * a browser posts (the transition, a comment, "<id>:<version>" per selected row) and the report
 * that comes back (how many moved, each refused row with why, named only as far as the actor may
 * see it). Refused rows and refused submissions change nothing.
 */

// The helpdesk, with a comment required to wait for the customer.
const workflow = testSpec.workflows!.ticket!;
const spec: AppSpec = {
  ...testSpec,
  workflows: {
    ...testSpec.workflows,
    ticket: { ...workflow, transitions: { ...workflow.transitions, wait: { ...workflow.transitions.wait!, comment: 'required' } } },
  },
};
const model = buildModel(spec);

function posted(transition: string, rows: readonly string[], comment?: string): FormData {
  const data = new FormData();
  data.append(BULK_CHOICE_INPUT, transition);
  for (const row of rows) data.append(BULK_ROW_INPUT, row);
  if (comment !== undefined) data.append(BULK_COMMENT_INPUT, comment);
  return data;
}

const seen = (record: RecordData) => `${record.id}:${record.version}`;

forEachDatabase('bulk transition actions', (database) => {
  let engine: TestEngine;
  let admin: Actor;
  let agent: Actor;

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    admin = await createActor(engine.store.db, ['admin']);
    agent = await createActor(engine.store.db, ['agent'], 'Agent Smith');
  });

  const submit = (
    actor: Actor,
    transition: string,
    rows: readonly string[],
    comment?: string,
    state: BulkActionState = initialBulkActionState,
  ) => submitBulkTransition(engine, actor, 'ticket', state, posted(transition, rows, comment), 'UTC');
  const read = async (id: number) => (await engine.ops.get(admin, 'ticket', id)).record;
  const newTicket = (customer: Actor, subject: string) => engine.ops.create(customer, 'ticket', { subject });

  it('moves the rows it may and reports each refused row with why: a missing assignee, a stale version, a record out of sight', async () => {
    const customer = await createActor(engine.store.db, ['customer']);
    const created = await newTicket(customer, 'Assigned and ready');
    const ready = await engine.ops.update(agent, 'ticket', created.id, { assignee: agent.userId }, created.version);
    const unassigned = await newTicket(customer, 'Printer on fire');
    const stale = await newTicket(customer, 'Changed meanwhile');
    await engine.ops.update(admin, 'ticket', stale.id, { priority: 'high' }, stale.version);
    const gone = await newTicket(customer, 'Deleted meanwhile');
    await engine.ops.delete(admin, 'ticket', gone.id, gone.version);

    const state = await submit(agent, 'start', [seen(ready), seen(unassigned), seen(stale), seen(gone)]);

    expect(state.message).toBeNull();
    expect(state.attempt).toBe(1);
    expect(state.values).toEqual({ choice: 'start' });
    expect(state.outcome).toEqual({
      summary: '“Start” taken on 1 ticket; it is now Open.',
      done: 1,
      refusedTitle: '“Start” was not taken on 3 tickets:',
      refused: [
        {
          id: unassigned.id,
          title: `#${unassigned.id} Printer on fire`,
          href: `/tickets/${unassigned.id}`,
          code: 'TRANSITION_NOT_ALLOWED',
          message: 'Needs an assignee.',
        },
        {
          id: stale.id,
          title: `#${stale.id} Changed meanwhile`,
          href: `/tickets/${stale.id}`,
          code: 'STALE_VERSION',
          message: 'Changed by someone else after the list was loaded; the list now shows it as it is.',
        },
        { id: gone.id, title: `#${gone.id}`, href: null, code: 'NOT_FOUND', message: 'This ticket does not exist, or you cannot see it.' },
      ],
    });
    expect(await read(ready.id)).toMatchObject({ state: 'open', version: ready.version + 1 });
    expect(await read(unassigned.id)).toMatchObject({ state: 'new', version: unassigned.version });
    expect(await read(stale.id)).toMatchObject({ state: 'new', priority: 'high', version: stale.version + 1 });
    const { entries } = await engine.ops.history(agent, 'ticket', ready.id);
    expect(entries[0]).toMatchObject({
      action: 'transition',
      actor: { id: agent.userId },
      transition: { name: 'start', from: 'new', to: 'open' },
    });
  });

  it('reports a row refused by a record rule on a field nobody touched with the rule and the field', async () => {
    const customer = await createActor(engine.store.db, ['customer']);
    const created = await newTicket(customer, 'Due before it was opened');
    const ticket = await engine.ops.update(agent, 'ticket', created.id, { assignee: agent.userId }, created.version);
    // A due time stored before the rule held (older data, or a rule added to the spec since).
    await engine.store.db
      .updateTable('ticket')
      .set({ due_at: new Date(Date.parse(String(ticket.createdAt)) - 86_400_000) })
      .where('id', '=', ticket.id)
      .execute();
    const state = await submit(agent, 'start', [seen(ticket)]);
    expect(state.outcome?.refused).toEqual([
      {
        id: ticket.id,
        title: `#${ticket.id} Due before it was opened`,
        href: `/tickets/${ticket.id}`,
        code: 'VALIDATION_FAILED',
        message: 'Due: The due time must be in the future.',
      },
    ]);
    expect(await read(ticket.id)).toMatchObject({ state: 'new', version: ticket.version });
  });

  it('sets the fields a transition requires on every row it is taken on, and keeps what was typed when the submission is refused', async () => {
    const customer = await createActor(engine.store.db, ['customer']);
    const first = await newTicket(customer, 'No assignee yet');
    const second = await newTicket(customer, 'Nobody on it either');
    const withAssignee = (rows: readonly string[], assignee: string) => {
      const data = posted('start', rows);
      data.append('assignee', assignee);
      return data;
    };

    const refused = await submitBulkTransition(
      engine,
      agent,
      'ticket',
      initialBulkActionState,
      withAssignee([], String(agent.userId)),
      'UTC',
    );
    expect(refused).toMatchObject({
      message: 'Select at least one ticket first.',
      values: { choice: 'start', fields: { assignee: String(agent.userId) } },
    });

    const state = await submitBulkTransition(
      engine,
      agent,
      'ticket',
      refused,
      withAssignee([seen(first), seen(second)], String(agent.userId)),
      'UTC',
    );
    expect(state.outcome).toMatchObject({ summary: '“Start” taken on 2 tickets; they are now Open.', refused: [] });
    for (const ticket of [first, second]) expect(await read(ticket.id)).toMatchObject({ state: 'open', assignee: agent.userId });

    // A field the chosen transition does not require is not sent: waiting keeps the assignee.
    const waitPosted = posted('wait', [seen(await read(first.id))], 'Which printer?');
    waitPosted.append('assignee', String(admin.userId));
    const waited = await submitBulkTransition(engine, agent, 'ticket', initialBulkActionState, waitPosted, 'UTC');
    expect(waited.outcome).toMatchObject({ done: 1 });
    expect(await read(first.id)).toMatchObject({ state: 'pending', assignee: agent.userId });
  });

  it("names a refused row only as far as the actor may see it: another customer's ticket is a number, nothing more", async () => {
    const customer = await createActor(engine.store.db, ['customer']);
    const stranger = await createActor(engine.store.db, ['customer']);
    const mine = await newTicket(customer, 'My pending question');
    const theirs = await newTicket(stranger, 'Secret subject of a stranger');
    const pending: RecordData[] = [];
    for (const ticket of [mine, theirs]) {
      const assigned = await engine.ops.update(agent, 'ticket', ticket.id, { assignee: agent.userId }, ticket.version);
      const [started] = await engine.ops.bulkTransition(agent, 'ticket', 'start', [{ id: ticket.id, version: assigned.version }]);
      const [waiting] = await engine.ops.bulkTransition(agent, 'ticket', 'wait', [{ id: ticket.id, version: assigned.version + 1 }], {
        comment: 'Which printer?',
      });
      expect([started!.ok, waiting!.ok]).toEqual([true, true]);
      pending.push(await read(ticket.id));
    }

    const state = await submit(customer, 'reply', pending.map(seen));

    expect(state.outcome).toMatchObject({
      summary: '“Reply” taken on 1 ticket; it is now Open.',
      refused: [{ id: theirs.id, title: `#${theirs.id}`, href: null, code: 'NOT_FOUND' }],
    });
    expect(JSON.stringify(state)).not.toContain('Secret subject');
    expect(await read(mine.id)).toMatchObject({ state: 'open' });
    expect(await read(theirs.id)).toMatchObject({ state: 'pending', version: pending[1]!.version });
  });

  it('says what is wrong with the whole submission without changing anything: nothing selected, no transition, a broken row, a missing comment, too many rows', async () => {
    const customer = await createActor(engine.store.db, ['customer']);
    const ticket = await newTicket(customer, 'Untouched');
    const assigned = await engine.ops.update(agent, 'ticket', ticket.id, { assignee: agent.userId }, ticket.version);
    const row = seen(assigned);

    expect(await submit(agent, 'start', [], 'keep me')).toEqual({
      message: 'Select at least one ticket first.',
      values: { choice: 'start', comment: 'keep me' },
      outcome: null,
      attempt: 1,
    });
    expect((await submit(agent, '', [row])).message).toBe('Choose what to do with the selected rows.');
    expect((await submit(agent, 'teleport', [row])).message).toBe('Choose what to do with the selected rows.');
    expect((await submit(agent, 'start', [String(assigned.id)])).message).toBe(
      'The selection could not be read. Reload the list and select the rows again.',
    );
    expect((await submit(agent, 'start', [`${assigned.id}:x`])).message).toBe(
      'The selection could not be read. Reload the list and select the rows again.',
    );
    const tooMany = Array.from({ length: 201 }, (_, i) => `${assigned.id + 100_000 + i}:1`);
    expect(await submit(agent, 'start', tooMany)).toMatchObject({ message: 'At most 200 records at once.', outcome: null });
    // The attempt counts on from the state it was given, so the toolbar's inputs remount.
    expect((await submit(agent, 'start', [], undefined, { ...initialBulkActionState, attempt: 4 })).attempt).toBe(5);

    await submit(agent, 'start', [row]);
    const open = await read(ticket.id);
    expect(open).toMatchObject({ state: 'open', version: assigned.version + 1 });
    expect(await submit(agent, 'wait', [seen(open)], '   ')).toMatchObject({
      message: '"Wait for customer" needs a comment.',
      outcome: null,
    });
    expect(await read(ticket.id)).toMatchObject({ state: 'open', version: open.version });

    const waited = await submit(agent, 'wait', [seen(open)], 'Which printer?');
    expect(waited).toMatchObject({ message: null, values: { choice: 'wait' }, outcome: { done: 1, refused: [] } });
    const { entries } = await engine.ops.history(agent, 'ticket', ticket.id);
    expect(entries[0]).toMatchObject({ transition: { name: 'wait', from: 'open', to: 'pending', comment: 'Which printer?' } });
  });

  it('refuses every row a transition that is not the actor to take, and counts none as moved', async () => {
    const customer = await createActor(engine.store.db, ['customer']);
    const ticket = await newTicket(customer, 'Not yours to start');
    const state = await submit(customer, 'start', [seen(ticket)]);
    expect(state.outcome).toMatchObject({
      summary: null,
      done: 0,
      refusedTitle: '“Start” was not taken on 1 ticket:',
      refused: [{ id: ticket.id, code: 'TRANSITION_NOT_ALLOWED' }],
    });
    expect(await read(ticket.id)).toMatchObject({ state: 'new', version: ticket.version });
  });

  it('takes a transition into a final state only with the confirmation: without it nothing changes and the toolbar asks, with the rows', async () => {
    const customer = await createActor(engine.store.db, ['customer']);
    const resolved: RecordData[] = [];
    for (const subject of ['Done once', 'Done twice']) {
      const created = await newTicket(customer, subject);
      const started = await engine.ops.transition(agent, 'ticket', created.id, 'start', {
        version: created.version,
        input: { assignee: agent.userId },
      });
      resolved.push(await engine.ops.transition(agent, 'ticket', created.id, 'resolve', { version: started.version }));
    }
    const rows = resolved.map(seen);
    const before = await engine.store.db
      .selectFrom('ticket')
      .selectAll()
      .where(
        'id',
        'in',
        resolved.map((r) => r.id),
      )
      .orderBy('id')
      .execute();

    const asked = await submit(agent, 'close', rows, 'All fixed', { ...initialBulkActionState, attempt: 1 });
    expect(asked).toEqual({
      message: null,
      values: { choice: 'close', comment: 'All fixed', rows },
      outcome: null,
      confirm: true,
      attempt: 2,
    });
    expect(
      await engine.store.db
        .selectFrom('ticket')
        .selectAll()
        .where(
          'id',
          'in',
          resolved.map((r) => r.id),
        )
        .orderBy('id')
        .execute(),
    ).toEqual(before);
    // A submission refused for another reason says that reason rather than ask.
    expect(await submit(agent, 'close', [])).toMatchObject({ message: 'Select at least one ticket first.', outcome: null });

    // The question's form posts the rows again; a browser may also send them checked in the table: each is taken once.
    const confirmed = posted('close', [...rows, ...rows], 'All fixed');
    confirmed.append(CONFIRM_INPUT, CONFIRM_VALUE);
    const state = await submitBulkTransition(engine, agent, 'ticket', asked, confirmed, 'UTC');
    expect(state.outcome).toMatchObject({ summary: '“Close” taken on 2 tickets; they are now Closed.', done: 2, refused: [] });
    for (const record of resolved) expect(await read(record.id)).toMatchObject({ state: 'closed', version: record.version + 1 });
  });

  it('answers NOT_FOUND (the 404 page) for an unknown entity or one without a workflow', async () => {
    const codeOf = async (entity: string) => {
      try {
        await submitBulkTransition(engine, agent, entity, initialBulkActionState, posted('start', ['1:1']), 'UTC');
      } catch (error) {
        return asNinefoldError(error)?.code;
      }
      return 'answered';
    };
    expect(await codeOf('nothing')).toBe('NOT_FOUND');
    expect(await codeOf('organization')).toBe('NOT_FOUND');
    expect(await codeOf('__proto__')).toBe('NOT_FOUND');
  });
});
