import { beforeAll, expect, it } from 'vitest';
import type { TestEngine } from '@testing/engine/engine';
import { createActor, testModel } from '@testing/engine/ops';
import type { Actor } from '@/engine/ground/actor';
import { forEachDatabase } from '@testing/engine/store';
import { openTestEngine } from '@testing/api/api';
import { initialRecordFormState, SEEN_INPUT, VERSION_INPUT, type RecordFormState } from '@/ui/forms/state';
import { isRedirect, submitUpdate } from './record-actions';
import { seenValues } from './seen-values';

/** What the customer's edit form posts: the typed values, and the hidden version and what it showed. */
function formData(values: Record<string, string>, version: number, seen?: string): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.append(name, value);
  data.append(VERSION_INPUT, String(version));
  if (seen !== undefined) data.append(SEEN_INPUT, seen);
  return data;
}

forEachDatabase('a stale edit through the form door', (database) => {
  let engine: TestEngine;
  let agent: Actor;
  let customer: Actor;
  const ticket = testModel.entitiesByName.ticket!;

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    agent = await createActor(engine.store.db, ['agent'], 'Stale Agent');
    customer = await createActor(engine.store.db, ['customer'], 'Stale Customer');
  });

  /** A ticket of the customer's, and the edit form's hidden values as the customer's page drew them. */
  async function openEditForm() {
    const created = await engine.ops.create(customer, 'ticket', { subject: 'Printer jam', description: 'Tray 2 is stuck.' });
    const view = await engine.ops.get(customer, 'ticket', created.id);
    return {
      id: created.id,
      version: view.record.version,
      seen: JSON.stringify(seenValues(ticket, view.record, view.references, 'UTC', 'en-US')),
    };
  }

  it('keeps the typed values, says what changed among the fields the user may read, and saves on a second submit', async () => {
    const form = await openEditForm();
    // Meanwhile an agent raises the priority, assigns the ticket (a field hidden from customers) and edits the description.
    await engine.ops.update(
      agent,
      'ticket',
      form.id,
      { priority: 'high', assignee: agent.userId, description: 'Tray 2 is **really** stuck.' },
      form.version,
    );

    const typed = { subject: 'Printer jam on floor 3', description: 'Tray 2, floor 3.' };
    const refused = await submitUpdate(
      engine,
      customer,
      'ticket',
      form.id,
      initialRecordFormState(typed),
      formData(typed, form.version, form.seen),
      'UTC',
    );
    expect(isRedirect(refused)).toBe(false);
    const state = refused as RecordFormState;
    expect(state.code).toBe('STALE_VERSION');
    expect(state.values).toEqual(typed);
    expect(state.fieldErrors).toEqual({});
    expect(state.stale?.title).toBe('This ticket was changed by someone else.');
    expect(state.stale?.reloadHref).toBe(`/tickets/${form.id}/edit`);
    expect(state.stale?.changes).toEqual([
      // The customer changed it too: their value stays in the form.
      { field: 'description', label: 'Description', from: 'Tray 2 is stuck.', to: 'Tray 2 is really stuck.', kept: true },
      // Not in the customer's form.
      { field: 'priority', label: 'Priority', from: 'Normal', to: 'High' },
      // The SLA due time follows the priority (computed by the engine).
      { field: 'slaDueAt', label: 'SLA due', from: expect.stringMatching(/ UTC$/), to: expect.stringMatching(/ UTC$/) },
    ]);
    expect(JSON.stringify(state)).not.toContain('Stale Agent');
    // The form now carries the current version and what it showed.
    const current = await engine.ops.get(customer, 'ticket', form.id);
    expect(state.version).toBe(current.record.version);
    expect(state.seen).toBe(JSON.stringify(seenValues(ticket, current.record, current.references, 'UTC', 'en-US')));

    // The user has seen the changes: the same values, submitted again with the new version, save.
    const saved = await submitUpdate(engine, customer, 'ticket', form.id, state, formData(typed, state.version!, state.seen), 'UTC');
    expect(saved).toEqual({ redirectTo: `/tickets/${form.id}` });
    const after = await engine.ops.get(agent, 'ticket', form.id);
    expect(after.record).toMatchObject({
      subject: typed.subject,
      description: typed.description,
      priority: 'high',
      assignee: agent.userId,
    });
  });

  it('keeps the current version across a later refusal, and says what changed again if it moves on', async () => {
    const form = await openEditForm();
    await engine.ops.update(agent, 'ticket', form.id, { priority: 'low' }, form.version);
    // Values are checked before the version: a valid one meets the stale version.
    const stale = (await submitUpdate(
      engine,
      customer,
      'ticket',
      form.id,
      initialRecordFormState({}),
      formData({ subject: 'Valid' }, form.version, form.seen),
      'UTC',
    )) as RecordFormState;
    expect(stale.code).toBe('STALE_VERSION');

    // Too short a subject: refused for that, with the current version still in the form.
    const invalid = (await submitUpdate(
      engine,
      customer,
      'ticket',
      form.id,
      stale,
      formData({ subject: 'ab' }, stale.version!, stale.seen),
      'UTC',
    )) as RecordFormState;
    expect(invalid.code).toBe('VALIDATION_FAILED');
    expect(invalid.fieldErrors.subject).toBe('Subject must be at least 3 characters.');
    expect(invalid.stale).toBeUndefined();
    expect(invalid.version).toBe(stale.version);
    expect(invalid.seen).toBe(stale.seen);

    // Another change: compared with what the form showed last (priority low), not the first version.
    await engine.ops.update(agent, 'ticket', form.id, { priority: 'urgent', assignee: agent.userId }, stale.version!);
    const again = (await submitUpdate(
      engine,
      customer,
      'ticket',
      form.id,
      invalid,
      formData({ subject: 'abc' }, invalid.version!, invalid.seen),
      'UTC',
    )) as RecordFormState;
    expect(again.stale?.changes).toEqual([
      { field: 'priority', label: 'Priority', from: 'Low', to: 'Urgent' },
      { field: 'slaDueAt', label: 'SLA due', from: expect.stringMatching(/ UTC$/), to: expect.stringMatching(/ UTC$/) },
    ]);
  });

  it("puts the other person's change into a field the user had left as shown, so saving again does not undo it", async () => {
    const form = await openEditForm();
    await engine.ops.update(agent, 'ticket', form.id, { description: 'Tray 3 as well.' }, form.version);
    const typed = { subject: 'Printer jam, two trays', description: 'Tray 2 is stuck.' };
    const state = (await submitUpdate(
      engine,
      customer,
      'ticket',
      form.id,
      initialRecordFormState(typed),
      formData(typed, form.version, form.seen),
      'UTC',
    )) as RecordFormState;
    expect(state.stale?.changes).toEqual([
      { field: 'description', label: 'Description', from: 'Tray 2 is stuck.', to: 'Tray 3 as well.', kept: false },
    ]);
    expect(state.values).toEqual({ subject: typed.subject, description: 'Tray 3 as well.' });
    await submitUpdate(engine, customer, 'ticket', form.id, state, formData(state.values, state.version!, state.seen), 'UTC');
    expect((await engine.ops.get(customer, 'ticket', form.id)).record).toMatchObject({
      subject: typed.subject,
      description: 'Tray 3 as well.',
    });
  });

  it('without what the form showed, still keeps the values and offers the reload', async () => {
    const form = await openEditForm();
    await engine.ops.update(agent, 'ticket', form.id, { priority: 'high' }, form.version);
    const state = (await submitUpdate(
      engine,
      customer,
      'ticket',
      form.id,
      initialRecordFormState({}),
      formData({ subject: 'Mine' }, form.version, '{not json'),
      'UTC',
    )) as RecordFormState;
    expect(state.code).toBe('STALE_VERSION');
    expect(state.stale?.changes).toBeNull();
    expect(state.values.subject).toBe('Mine');
  });

  it('says so when only fields the user may not read changed', async () => {
    const form = await openEditForm();
    await engine.ops.update(agent, 'ticket', form.id, { assignee: agent.userId }, form.version);
    const state = (await submitUpdate(
      engine,
      customer,
      'ticket',
      form.id,
      initialRecordFormState({}),
      formData({ subject: 'Mine' }, form.version, form.seen),
      'UTC',
    )) as RecordFormState;
    expect(state.code).toBe('STALE_VERSION');
    expect(state.stale?.changes).toEqual([]);
  });
});
