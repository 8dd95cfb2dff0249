import { beforeAll, expect, it } from 'vitest';
import type { Engine } from '@/engine/engine';
import type { UserAccount } from '@/engine/identity/types';
import type { Actor } from '@/engine/ground/actor';
import { buildModel } from '@/engine/spec/build';
import { forEachDatabase } from '@testing/engine/store';
import { submitCreate } from '@/server/record-actions';
import { initialRecordFormState } from '@/ui/forms/state';
import { apiClient, expectProblem, openTestEngine, type ApiClient } from '@testing/api/api';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';
import events from '@/engine/seed/fixtures/events.spec';

/*
 * A users field (src/engine/seed/fixtures/events.spec.ts: an event's organizers) through the API,
 * every answer checked against the OpenAPI document, and a page's form: arrays of user ids in
 * and out, "has any of" filters, refusals on the field, and an organizer who sees only their own.
 */
const model = buildModel(events);

forEachDatabase('a users field through the doors', (database) => {
  let engine: Engine;
  let api: ApiClient;
  let staff: UserAccount;
  let ann: UserAccount;
  let bob: UserAccount;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    const user = (email: string, name: string, roles: string[]) =>
      engine.identity.createUser(SYSTEM_ACTOR, { email, name, password: 'correct horse battery', roles });
    staff = await user('staff@example.com', 'Sam Staff', ['staff']);
    ann = await user('ann@example.com', 'Ann Organizer', ['organizer']);
    bob = await user('bob@example.com', 'Bob Organizer', ['organizer']);
    for (const account of [staff, ann, bob])
      tokens[account.email] = (await engine.identity.createApiToken(account.id, { name: 'tests' })).token;
  });

  it('creates, reads, filters and scopes as arrays of user ids', async () => {
    const token = tokens[staff.email]!;
    const created = await api.call('POST', '/events', { token, body: { name: 'Fair', organizers: [bob.id, ann.id] } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.organizers).toEqual([ann.id, bob.id].sort((a, b) => a - b));
    const other = await api.call('POST', '/events', { token, body: { name: 'Gala', organizers: [bob.id] } });
    const any = await api.call('GET', `/events?organizers=${ann.id}`, { token });
    expect(any.body.items.map((e: { id: number }) => e.id)).toEqual([created.body.id]);
    const annSees = await api.call('GET', '/events', { token: tokens[ann.email] });
    expect(annSees.body.items.map((e: { id: number }) => e.id)).toEqual([created.body.id]);
    expectProblem(await api.call('GET', `/events/${other.body.id}`, { token: tokens[ann.email] }), 404, 'NOT_FOUND');
    expectProblem(await api.call('GET', '/events?sort=organizers', { token }), 422, 'VALIDATION_FAILED');
  });

  it('refuses a user without the role, and what is not a list of ids, on the field', async () => {
    for (const organizers of [[staff.id], ['x'], 'a']) {
      const answer = await api.call('POST', '/events', { token: tokens[staff.email], body: { name: 'Refused', organizers } });
      expectProblem(answer, 422, 'VALIDATION_FAILED');
      expect(answer.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/organizers']);
    }
  });

  it('takes a form posting one value per chosen user', async () => {
    const actor: Actor = { userId: staff.id, email: staff.email, name: staff.name, roles: staff.roles };
    const data = new FormData();
    for (const [name, value] of [
      ['name', 'From the form'],
      ['organizers', ''],
      ['organizers', String(ann.id)],
    ])
      data.append(name!, value!);
    const created = await submitCreate(engine, actor, 'event', initialRecordFormState({}), data, 'UTC');
    const id = Number(/(\d+)$/.exec((created as { redirectTo: string }).redirectTo)?.[1]);
    expect((await engine.ops.get(actor, 'event', id)).record.organizers).toEqual([ann.id]);
  });
});
