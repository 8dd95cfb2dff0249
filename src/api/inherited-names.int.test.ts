import { beforeAll, describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/ninefold.spec';
import type { TestEngine } from '@testing/engine/engine';
import { buildModel } from '@/engine/spec/build';
import { forEachDatabase } from '@testing/engine/store';
import { apiClient, expectProblem, openTestEngine, snapshot, type ApiClient } from '@testing/api/api';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

/**
 * Names every JavaScript object answers for without declaring them (`constructor`, `toString`,
 * `__proto__`...) are names like any other when a client sends them: not fields, not parameters.
 * Bodies are sent as raw JSON so that `__proto__` arrives as an own key, as JSON.parse makes it.
 */
const INHERITED = Object.getOwnPropertyNames(Object.prototype);
const TABLES = ['ticket', 'comment', 'organization', 'nf_audit'];

forEachDatabase('API: names objects inherit', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  let token: string;
  let agentId: number;
  /** The customer the agent files tickets for. */
  let customerId: number;

  beforeAll(async () => {
    engine = await openTestEngine(database, buildModel(helpdesk));
    api = apiClient(engine);
    const agent = await engine.identity.createUser(SYSTEM_ACTOR, {
      email: 'agent@example.com',
      password: 'correct horse battery',
      roles: ['agent'],
    });
    agentId = agent.id;
    customerId = (
      await engine.identity.createUser(SYSTEM_ACTOR, {
        email: 'customer@example.com',
        password: 'correct horse battery',
        roles: ['customer'],
      })
    ).id;
    token = (await engine.identity.createApiToken(agent.id, { name: 'tests' })).token;
  });

  /** The body with `name` added as the last key, written as JSON text. */
  const withName = (body: Record<string, unknown>, name: string) =>
    `${JSON.stringify(body).slice(0, -1)}${Object.keys(body).length ? ',' : ''}${JSON.stringify(name)}:1}`;
  const newTicket = async () => {
    const created = await api.call('POST', '/tickets', { token, body: { subject: 'Printer on fire', requester: customerId } });
    expect(created.status, created.text).toBe(201);
    return created.body as { id: number; version: number };
  };

  /** 422 with an unknown_field error on `pointer`, and not one row of the tables changed. */
  async function refusedAsUnknown(send: () => Promise<Awaited<ReturnType<ApiClient['call']>>>, pointer: string) {
    const before = await snapshot(engine.store.db, TABLES);
    const answer = await send();
    expectProblem(answer, 422, 'VALIDATION_FAILED');
    expect(answer.body.errors, answer.text).toContainEqual({ pointer, code: 'unknown_field', detail: expect.any(String) });
    expect(await snapshot(engine.store.db, TABLES)).toEqual(before);
  }

  describe.each(INHERITED)('%s', (name) => {
    it('is an unknown field of a new record', async () => {
      await refusedAsUnknown(
        () => api.call('POST', '/tickets', { token, body: withName({ subject: 'Printer on fire', requester: customerId }, name) }),
        `/${name}`,
      );
    });

    it('is an unknown field of a change, alone or with a real one (no new version, no history)', async () => {
      const ticket = await newTicket();
      await refusedAsUnknown(
        () => api.call('PATCH', `/tickets/${ticket.id}`, { token, body: withName({ version: ticket.version }, name) }),
        `/${name}`,
      );
      await refusedAsUnknown(
        () => api.call('PATCH', `/tickets/${ticket.id}`, { token, body: withName({ version: ticket.version, priority: 'high' }, name) }),
        `/${name}`,
      );
    });

    it("is an unknown field of a transition's input, and of its body", async () => {
      const ticket = await newTicket();
      const input = JSON.parse(withName({ assignee: agentId }, name)) as Record<string, unknown>;
      await refusedAsUnknown(
        () => api.call('POST', `/tickets/${ticket.id}/transitions/start`, { token, body: { version: ticket.version, input } }),
        `/${name}`,
      );
      await refusedAsUnknown(
        () =>
          api.call('POST', `/tickets/${ticket.id}/transitions/start`, {
            token,
            body: withName({ version: ticket.version, input: { assignee: agentId } }, name),
          }),
        `/${name}`,
      );
    });

    it('is an unknown input of a call', async () => {
      const ticket = await newTicket();
      await refusedAsUnknown(
        () => api.call('POST', `/tickets/${ticket.id}/escalate`, { token, body: withName({ reason: 'Customer is blocked' }, name) }),
        `/${name}`,
      );
    });

    it('is an unknown parameter of a list, and no column to sort or filter by', async () => {
      const asParameter = await api.call('GET', `/tickets?${new URLSearchParams({ [name]: '1' })}`, { token });
      expectProblem(asParameter, 422, 'VALIDATION_FAILED');
      expect(asParameter.body.errors).toContainEqual({ pointer: `/${name}`, code: 'unknown_parameter', detail: expect.any(String) });
      const asSort = await api.call('GET', `/tickets?${new URLSearchParams({ sort: `-${name}` })}`, { token });
      expectProblem(asSort, 422, 'VALIDATION_FAILED');
      expect(asSort.body.errors).toContainEqual({ pointer: '/sort', code: 'invalid_sort', detail: expect.any(String) });
    });

    it('is no collection and no transition', async () => {
      expectProblem(await api.call('GET', `/${encodeURIComponent(name)}`, { token }), 404, 'NOT_FOUND');
      expectProblem(
        await api.call('POST', `/tickets/transitions/${encodeURIComponent(name)}`, { token, body: { items: [{ id: 1 }] } }),
        404,
        'NOT_FOUND',
      );
    });
  });
});
