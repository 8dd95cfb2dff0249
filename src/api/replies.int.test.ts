/**
 * The conversation through the REST door: a comment is a reply to its ticket. The requester's
 * comment on a pending ticket takes "reply" in the same request; a closed ticket takes no
 * comment and no change (TICKET_CLOSED, 409), and nothing stored changes. Every answer is checked
 * against the OpenAPI document by the client.
 */
import { beforeAll, expect, it } from 'vitest';
import type { TestEngine } from '@testing/engine/engine';
import { testModel } from '@testing/engine/ops';
import { forEachDatabase } from '@testing/engine/store';
import { apiClient, expectProblem, openTestEngine, snapshot, type ApiClient } from '@testing/api/api';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

forEachDatabase('API: replies', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  let agent: { id: number; token: string };
  let customer: { id: number; token: string };

  const newUser = async (roles: string[], name: string) => {
    const user = await engine.identity.createUser(SYSTEM_ACTOR, {
      email: `${name.toLowerCase().replace(/\W+/g, '.')}@example.com`,
      password: 'correct horse battery',
      roles,
      name,
    });
    return { id: user.id, token: (await engine.identity.createApiToken(user.id, { name: 'tests' })).token };
  };
  const ticket = async (id: number) => (await api.call('GET', `/tickets/${id}`, { token: agent.token })).body;
  const take = async (id: number, name: string, input?: Record<string, unknown>) => {
    const answer = await api.call('POST', `/tickets/${id}/transitions/${name}`, {
      token: agent.token,
      body: { version: (await ticket(id)).version, ...(input ? { input } : {}) },
    });
    expect(answer.status, answer.text).toBe(200);
  };

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    api = apiClient(engine);
    agent = await newUser(['agent'], 'Rest Agent');
    customer = await newUser(['customer'], 'Rest Customer');
  });

  it("takes the requester's reply with their comment, and refuses comments and changes on a closed ticket", async () => {
    const created = await api.call('POST', '/tickets', { token: customer.token, body: { subject: 'The scanner hums' } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    await take(id, 'start', { assignee: agent.id });
    await take(id, 'wait');

    const reply = await api.call('POST', '/comments', { token: customer.token, body: { ticket: id, body: 'It hums in B flat.' } });
    expect(reply.status, reply.text).toBe(201);
    expect((await ticket(id)).state).toBe('open');

    await take(id, 'resolve');
    await take(id, 'close');
    const before = await snapshot(engine.store.db, ['ticket', 'comment', 'nf_audit']);
    expectProblem(
      await api.call('POST', '/comments', { token: customer.token, body: { ticket: id, body: 'And now it stopped.' } }),
      409,
      'TICKET_CLOSED',
    );
    expectProblem(
      await api.call('PATCH', `/tickets/${id}`, { token: agent.token, body: { subject: 'Renamed', version: (await ticket(id)).version } }),
      409,
      'TICKET_CLOSED',
    );
    expect(await snapshot(engine.store.db, ['ticket', 'comment', 'nf_audit'])).toEqual(before);
  });

  it('takes the transition chosen with ?replyWith= in the same transaction, and saves neither when it is refused', async () => {
    const created = await api.call('POST', '/tickets', { token: customer.token, body: { subject: 'The fax beeps' } });
    const id = created.body.id as number;
    await take(id, 'start', { assignee: agent.id });

    const reply = await api.call('POST', '/comments?replyWith=wait', {
      token: agent.token,
      body: { ticket: id, body: 'Which fax model is it?' },
    });
    expect(reply.status, reply.text).toBe(201);
    expect((await ticket(id)).state).toBe('pending');

    // "wait" leads from open only: refused on a pending ticket, and the comment is not kept either.
    const before = await snapshot(engine.store.db, ['ticket', 'comment', 'nf_audit']);
    expectProblem(
      await api.call('POST', '/comments?replyWith=wait', { token: agent.token, body: { ticket: id, body: 'Still waiting.' } }),
      409,
      'TRANSITION_NOT_ALLOWED',
    );
    expectProblem(
      await api.call('POST', '/comments?replyWith=close', { token: agent.token, body: { ticket: id, body: 'Closing.' } }),
      422,
      'VALIDATION_FAILED',
    );
    expectProblem(
      await api.call('POST', '/comments?replyWith=wait&replyWith=resolve', { token: agent.token, body: { ticket: id, body: 'Twice.' } }),
      422,
      'VALIDATION_FAILED',
    );
    expect(await snapshot(engine.store.db, ['ticket', 'comment', 'nf_audit'])).toEqual(before);
  });
});
