import { beforeAll, expect, it } from 'vitest';
import type { TestEngine } from '@testing/engine/engine';
import { createActor, testModel } from '@testing/engine/ops';
import type { Actor } from '@/engine/ground/actor';
import { forEachDatabase } from '@testing/engine/store';
import { openTestEngine } from '@testing/api/api';
import { initialRecordFormState, SEEN_INPUT, VERSION_INPUT } from '@/ui/forms/state';
import { isRedirect, submitUpdate } from './record-actions';
import { seenValues } from './seen-values';
import { toFormValue } from './forms';

/*
 * An edit form writes only what the user changed: changing the priority does not re-write the
 * description (posted with "\r\n" line breaks, as browsers post a textarea) nor the due time
 * (shown to the minute, stored to the second), the history names the priority alone, and a form
 * that changes nothing writes nothing.
 */
forEachDatabase('an edit writes only the fields that changed', (database) => {
  let engine: TestEngine;
  let agent: Actor;
  /** The customer the agent files the tickets for. */
  let customer: Actor;
  const ticket = testModel.entitiesByName.ticket!;

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    agent = await createActor(engine.store.db, ['agent'], 'Edit Agent');
    customer = await createActor(engine.store.db, ['customer'], 'Edit Customer');
  });

  /** The whole edit form as a browser posts it: every field it shows, as shown, with `typed` changed. */
  async function post(id: number, typed: Record<string, string>) {
    const view = await engine.ops.get(agent, 'ticket', id);
    const seen = seenValues(ticket, view.record, view.references, 'UTC', 'en-US');
    const data = new FormData();
    for (const name of ['subject', 'description', 'priority', 'dueAt']) {
      const shown = toFormValue(ticket.fieldsByName[name]!, view.record[name], 'UTC').replace(/\n/g, '\r\n');
      data.append(name, typed[name] ?? shown);
    }
    data.append(VERSION_INPUT, String(view.record.version));
    data.append(SEEN_INPUT, JSON.stringify(seen));
    return submitUpdate(engine, agent, 'ticket', id, initialRecordFormState({}), data, 'UTC');
  }

  it('changes the priority alone; the description, the due time and the history hold no false change', async () => {
    const due = new Date('2026-12-01T10:15:42.000Z');
    const created = await engine.ops.create(agent, 'ticket', {
      subject: 'Line breaks',
      requester: customer.userId,
      description: 'First line\nSecond line',
      priority: 'normal',
      dueAt: due.toISOString(),
    });
    const saved = await post(created.id, { priority: 'high' });
    expect(isRedirect(saved), JSON.stringify(saved)).toBe(true);
    const after = (await engine.ops.get(agent, 'ticket', created.id)).record;
    expect(after).toMatchObject({ priority: 'high', description: 'First line\nSecond line', version: created.version + 1 });
    expect(new Date(String(after.dueAt)).toISOString()).toBe(due.toISOString());
    const history = await engine.ops.history(agent, 'ticket', created.id);
    // The SLA follows the priority (a true change); the description and due time are not named.
    expect(Object.keys(history.entries[0]!.changes)).toEqual(['priority', 'slaDueAt']);

    // Nothing changed: nothing written, not even a new version.
    expect(isRedirect(await post(created.id, {}))).toBe(true);
    expect((await engine.ops.get(agent, 'ticket', created.id)).record.version).toBe(after.version);
  });

  it('stores a typed text with "\\n" line breaks whatever the browser posted', async () => {
    const created = await engine.ops.create(agent, 'ticket', { subject: 'Typed', requester: customer.userId, description: 'Old' });
    expect(isRedirect(await post(created.id, { description: 'New\r\nlines\r\n' }))).toBe(true);
    expect((await engine.ops.get(agent, 'ticket', created.id)).record.description).toBe('New\nlines\n');
  });
});
