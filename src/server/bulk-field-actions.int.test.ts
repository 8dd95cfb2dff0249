import { beforeAll, expect, it } from 'vitest';
import { openTestEngine } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import { createActor, ninefoldError, testModel } from '@testing/engine/ops';
import type { RecordData } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import { forEachDatabase } from '@testing/engine/store';
import {
  BULK_CHOICE_INPUT,
  BULK_CLEAR_VALUE,
  BULK_ROW_INPUT,
  BULK_SET_PREFIX,
  initialBulkActionState,
  type BulkActionState,
} from '@/ui/record/bulk-action-state';
import { CONFIRM_INPUT, CONFIRM_VALUE } from '@/ui/confirm/confirm-input';
import { submitBulkAction } from './bulk-actions';
import { settableFields } from './bulk-field-actions';

/*
 * The list page's "Set <field>" and "Delete" on the selected rows, as plain functions over a real
 * engine and database: what a browser posts (the choice, the value, "<id>:<version>" per row) and
 * the report that comes back. Each row is its own update or delete with the version the user saw;
 * what the actor may write or delete is ops' to say, whatever the form posts.
 */

const seen = (record: RecordData) => `${record.id}:${record.version}`;

function posted(choice: string, rows: readonly string[], extra: Readonly<Record<string, string>> = {}): FormData {
  const data = new FormData();
  data.append(BULK_CHOICE_INPUT, choice);
  for (const row of rows) data.append(BULK_ROW_INPUT, row);
  for (const [name, value] of Object.entries(extra)) data.append(name, value);
  return data;
}

forEachDatabase('bulk field and delete actions', (database) => {
  let engine: TestEngine;
  let admin: Actor;
  let agent: Actor;
  let customer: Actor;

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    admin = await createActor(engine.store.db, ['admin']);
    agent = await createActor(engine.store.db, ['agent'], 'Agent Bulk');
    customer = await createActor(engine.store.db, ['customer']);
  });

  const submit = (actor: Actor, data: FormData, state: BulkActionState = initialBulkActionState) =>
    submitBulkAction(engine, actor, 'ticket', state, data, 'UTC');
  const setPriority = (actor: Actor, rows: readonly string[], value: string) =>
    submit(actor, posted('set:priority', rows, { [`${BULK_SET_PREFIX}priority`]: value }));
  const read = async (id: number) => (await engine.ops.get(admin, 'ticket', id)).record;
  const newTicket = (subject: string) => engine.ops.create(customer, 'ticket', { subject });
  const closed = async (subject: string) => {
    const ticket = await newTicket(subject);
    const assigned = await engine.ops.update(agent, 'ticket', ticket.id, { assignee: agent.userId }, ticket.version);
    let version = assigned.version;
    for (const name of ['start', 'resolve', 'close']) {
      version = (await engine.ops.transition(agent, 'ticket', ticket.id, name, { version })).version;
    }
    return read(ticket.id);
  };

  it('offers the enum, reference, user and date fields the viewer may update, and none of text, files or what they may not write', () => {
    const ticket = testModel.entitiesByName.ticket!;
    const offered = (actor: Actor) => settableFields(ticket, engine.ops.access(actor, 'ticket')).map((f) => f.name);
    expect(offered(agent)).toEqual(['priority', 'organization', 'requester', 'assignee', 'dueAt']);
    // A customer writes their subject, description and attachments: nothing one value could set on many rows.
    expect(offered(customer)).toEqual([]);
    const contact = testModel.entitiesByName.contact!;
    expect(settableFields(contact, engine.ops.access(admin, 'contact')).map((f) => f.name)).toEqual([
      'employer',
      'visits',
      'balance',
      'birthday',
      'active',
    ]);
  });

  it('sets the field on every row the viewer may write and reports each refused row with why: a rule, a closed ticket, a stale version', async () => {
    const first = await newTicket('Bulk priority one');
    const second = await newTicket('Bulk priority two');
    const assigned = await engine.ops.update(agent, 'ticket', first.id, { assignee: agent.userId }, first.version);
    const unassigned = second;
    const done = await closed('Bulk priority closed');
    const stale = await newTicket('Bulk priority stale');
    await engine.ops.update(admin, 'ticket', stale.id, { dueAt: '2099-01-01T00:00:00Z' }, stale.version);

    // Urgent needs an assignee (a rule of the helpdesk): the unassigned one is refused with the rule's words.
    const state = await setPriority(agent, [seen(assigned), seen(unassigned), seen(done), seen(stale)], 'urgent');

    expect(state.message).toBeNull();
    expect(state.values).toEqual({ choice: 'set:priority' });
    expect(state.outcome).toEqual({
      summary: 'Priority set to Urgent on 1 ticket.',
      done: 1,
      refusedTitle: 'Priority was not changed on 3 tickets:',
      refused: [
        {
          id: unassigned.id,
          title: `#${unassigned.id} Bulk priority two`,
          href: `/tickets/${unassigned.id}`,
          code: 'VALIDATION_FAILED',
          message: expect.stringContaining('An urgent ticket needs an assignee.'),
        },
        {
          id: done.id,
          title: `#${done.id} Bulk priority closed`,
          href: `/tickets/${done.id}`,
          code: 'TICKET_CLOSED',
          message: expect.any(String),
        },
        {
          id: stale.id,
          title: `#${stale.id} Bulk priority stale`,
          href: `/tickets/${stale.id}`,
          code: 'STALE_VERSION',
          message: 'Changed by someone else after the list was loaded; the list now shows it as it is.',
        },
      ],
    });
    expect(await read(assigned.id)).toMatchObject({ priority: 'urgent', version: assigned.version + 1 });
    expect(await read(unassigned.id)).toMatchObject({ priority: 'normal', version: unassigned.version });
    expect(await read(done.id)).toMatchObject({ priority: 'normal', version: done.version });
    expect(await read(stale.id)).toMatchObject({ priority: 'normal', version: stale.version + 1 });
    const { entries } = await engine.ops.history(agent, 'ticket', assigned.id);
    expect(entries[0]).toMatchObject({
      action: 'update',
      actor: { id: agent.userId },
      changes: { priority: { from: 'normal', to: 'urgent' } },
    });
  });

  it('names a person or a record by its title, and empties an optional field only when "None" is chosen', async () => {
    const first = await newTicket('Bulk assignee one');
    const second = await newTicket('Bulk assignee two');
    const assign = (rows: readonly string[], value: string) =>
      submit(agent, posted('set:assignee', rows, { [`${BULK_SET_PREFIX}assignee`]: value }));

    const nothingChosen = await assign([seen(first), seen(second)], '');
    expect(nothingChosen).toMatchObject({ message: 'Choose the new Assignee.', outcome: null, attempt: 1 });

    const state = await assign([seen(first), seen(second)], String(agent.userId));
    expect(state.outcome).toMatchObject({ summary: 'Assignee set to Agent Bulk on 2 tickets.', refused: [] });
    const [one, two] = [await read(first.id), await read(second.id)];
    expect([one.assignee, two.assignee]).toEqual([agent.userId, agent.userId]);

    const cleared = await assign([seen(one), seen(two)], BULK_CLEAR_VALUE);
    expect(cleared.outcome).toMatchObject({ summary: 'Assignee emptied on 2 tickets.', refused: [] });
    expect([(await read(first.id)).assignee, (await read(second.id)).assignee]).toEqual([null, null]);

    // Priority is required: "None" is refused before any row is touched.
    const required = await setPriority(agent, [seen(await read(first.id))], BULK_CLEAR_VALUE);
    expect(required).toMatchObject({ message: 'Priority cannot be empty.', outcome: null });
  });

  it('refuses a field the viewer may not write even when the form posts it, and a field of a kind the panel does not offer; nothing changes', async () => {
    const mine = await newTicket('Customer bulk forged');

    const forged = await setPriority(customer, [seen(mine)], 'urgent');
    expect(forged.outcome).toBeNull();
    expect(forged.message).toEqual(expect.any(String));
    expect(forged.message).not.toBe('');
    // ops says no for the whole call, whatever door asks.
    const refusal = await ninefoldError(
      engine.ops.bulkUpdate(customer, 'ticket', [{ id: mine.id, version: mine.version }], { priority: 'urgent' }),
    );
    expect(refusal.code).toBe('FORBIDDEN_FIELD');
    expect(forged.message).toBe(refusal.message);

    const text = await submit(agent, posted('set:subject', [seen(mine)], { [`${BULK_SET_PREFIX}subject`]: 'Renamed by a forged form' }));
    expect(text).toMatchObject({ message: 'Choose what to do with the selected rows.', outcome: null });
    const unknown = await submit(agent, posted('set:nothing', [seen(mine)], { [`${BULK_SET_PREFIX}nothing`]: 'x' }));
    expect(unknown).toMatchObject({ message: 'Choose what to do with the selected rows.', outcome: null });

    expect(await read(mine.id)).toMatchObject({ subject: 'Customer bulk forged', priority: 'normal', version: mine.version });
  });

  it('deletes only with the confirmation, only where the viewer may, and reports each row it could not delete', async () => {
    const [first, second, stale] = [
      await newTicket('Bulk delete one'),
      await newTicket('Bulk delete two'),
      await newTicket('Bulk delete stale'),
    ];
    await engine.ops.update(admin, 'ticket', stale.id, { priority: 'high' }, stale.version);
    const rows = [seen(first), seen(second), seen(stale)];

    // An agent may not delete tickets: refused as a whole, nothing deleted (even with the confirmation).
    const agentTry = await submit(agent, posted(':delete', rows, { [CONFIRM_INPUT]: CONFIRM_VALUE }));
    expect(agentTry.outcome).toBeNull();
    expect(agentTry.message).toEqual(expect.stringMatching(/not allowed/i));
    expect((await ninefoldError(engine.ops.bulkDelete(agent, 'ticket', [{ id: first.id }]))).code).toBe('FORBIDDEN');

    // Without the confirmation the server asks, carrying the rows to post again.
    const asked = await submit(admin, posted(':delete', rows));
    expect(asked).toMatchObject({ confirm: true, outcome: null, values: { choice: ':delete', rows } });
    for (const ticket of [first, second, stale]) expect((await read(ticket.id)).id).toBe(ticket.id);

    const state = await submit(
      admin,
      posted(':delete', [...(asked.values.rows ?? []), ...rows], { [CONFIRM_INPUT]: CONFIRM_VALUE }),
      asked,
    );
    expect(state.outcome).toEqual({
      summary: '2 tickets deleted.',
      done: 2,
      refusedTitle: '1 ticket not deleted:',
      refused: [
        {
          id: stale.id,
          title: `#${stale.id} Bulk delete stale`,
          href: `/tickets/${stale.id}`,
          code: 'STALE_VERSION',
          message: 'Changed by someone else after the list was loaded; the list now shows it as it is.',
        },
      ],
    });
    for (const ticket of [first, second]) expect((await ninefoldError(engine.ops.get(admin, 'ticket', ticket.id))).code).toBe('NOT_FOUND');
    expect(await read(stale.id)).toMatchObject({ priority: 'high' });
  });

  it('refuses a submission without rows or with a broken row before asking ops', async () => {
    const none = await setPriority(agent, [], 'high');
    expect(none).toMatchObject({ message: 'Select at least one ticket first.', outcome: null });
    const broken = await setPriority(agent, ['12:x'], 'high');
    expect(broken).toMatchObject({ message: 'The selection could not be read. Reload the list and select the rows again.' });
    const nothing = await submit(agent, posted('', ['1:1']));
    expect(nothing).toMatchObject({ message: 'Choose what to do with the selected rows.', outcome: null });
  });
});
