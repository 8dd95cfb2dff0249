import { beforeAll, expect, it } from 'vitest';
import type { TestEngine } from '@testing/engine/engine';
import { createActor, testModel } from '@testing/engine/ops';
import type { Actor } from '@/engine/ground/actor';
import { forEachDatabase } from '@testing/engine/store';
import { openTestEngine } from '@testing/api/api';
import { initialRecordFormState, VERSION_INPUT } from '@/ui/forms/state';
import { toFormValue } from './forms';
import { isRedirect, submitCreate, submitUpdate, type Redirect } from './record-actions';
import { valueText } from './seen-values';

function formData(values: Record<string, string>, version?: number): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.append(name, value);
  if (version !== undefined) data.append(VERSION_INPUT, String(version));
  return data;
}

forEachDatabase('date-times through the form door, in the viewer zone', (database) => {
  let engine: TestEngine;
  let admin: Actor;
  /** The customer the admin files the tickets for: the form names them. */
  let customer: Actor;
  const dueAt = testModel.entitiesByName.ticket!.fieldsByName.dueAt!;

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    admin = await createActor(engine.store.db, ['admin'], 'Zone Admin');
    customer = await createActor(engine.store.db, ['customer'], 'Zone Customer');
  });

  async function created(values: Record<string, string>, zone: string) {
    const form = formData({ ...values, requester: String(customer.userId) });
    const result = await submitCreate(engine, admin, 'ticket', initialRecordFormState({}), form, zone);
    expect(isRedirect(result), JSON.stringify(result)).toBe(true);
    return (await engine.ops.get(admin, 'ticket', Number((result as Redirect).redirectTo.split('/').pop()))).record;
  }

  it('reads what was typed in the viewer zone, stores UTC, and shows it back as typed', async () => {
    const record = await created({ subject: 'Due in Paris', dueAt: '2030-07-15T09:00' }, 'Europe/Paris');
    expect(new Date(record.dueAt as string | Date).toISOString()).toBe('2030-07-15T07:00:00.000Z');
    expect(toFormValue(dueAt, record.dueAt, 'Europe/Paris')).toBe('2030-07-15T09:00');
    expect(toFormValue(dueAt, record.dueAt, 'America/New_York')).toBe('2030-07-15T03:00');
    expect(valueText(dueAt, record.dueAt, undefined, 'Europe/Paris', 'en-US')).toBe('Jul 15, 2030, 09:00 CEST');
  });

  it('keeps a value another zone saved when the form is posted back unchanged, and reads a DST overlap as the earlier time', async () => {
    const record = await created({ subject: 'Due in New York', dueAt: '2030-11-03T01:30' }, 'America/New_York');
    // 01:30 happens twice that night in New York: the first one, still daylight time (EDT, UTC-4).
    expect(new Date(record.dueAt as string | Date).toISOString()).toBe('2030-11-03T05:30:00.000Z');
    const shownInParis = toFormValue(dueAt, record.dueAt, 'Europe/Paris');
    expect(shownInParis).toBe('2030-11-03T06:30');
    const result = await submitUpdate(
      engine,
      admin,
      'ticket',
      record.id,
      initialRecordFormState({}),
      formData({ subject: 'Due in New York, seen from Paris', dueAt: shownInParis }, record.version),
      'Europe/Paris',
    );
    expect(isRedirect(result), JSON.stringify(result)).toBe(true);
    const saved = (await engine.ops.get(admin, 'ticket', record.id)).record;
    expect(new Date(saved.dueAt as string | Date).toISOString()).toBe('2030-11-03T05:30:00.000Z');
  });

  it('moves a time in the spring-forward gap on by the gap, and refuses what is not a time as before', async () => {
    const record = await created({ subject: 'Gap', dueAt: '2030-03-31T02:30' }, 'Europe/Paris');
    expect(new Date(record.dueAt as string | Date).toISOString()).toBe('2030-03-31T01:30:00.000Z');
    const refused = await submitCreate(
      engine,
      admin,
      'ticket',
      initialRecordFormState({}),
      formData({ subject: 'Bad', dueAt: '2030-02-30T10:00', requester: String(customer.userId) }),
      'Europe/Paris',
    );
    expect(isRedirect(refused)).toBe(false);
    expect(refused).toMatchObject({ code: 'VALIDATION_FAILED', fieldErrors: { dueAt: expect.any(String) } });
  });
});
