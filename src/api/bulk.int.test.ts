/**
 * Updates and deletes of many records through the REST door, as the list's bulk panel does them:
 * each row its own ops call with its own version check, one result per row in the order sent,
 * refusals as the request on that record alone would have answered them, the body's shape
 * refused whole before anything is touched. Every answer is checked against the OpenAPI document
 * by the client.
 */
import { beforeAll, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/ninefold.spec';
import type { TestEngine } from '@testing/engine/engine';
import type { UserAccount } from '@/engine/identity/types';
import { buildModel } from '@/engine/spec/build';
import { forEachDatabase } from '@testing/engine/store';
import { apiClient, expectProblem, openTestEngine, snapshot, type ApiClient } from '@testing/api/api';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

const model = buildModel(helpdesk);
const PASSWORD = 'correct horse battery';
const TABLES = ['ticket', 'comment', 'organization', 'nf_audit'];

forEachDatabase('API: updates and deletes of many records', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  let agent: UserAccount;
  let agentToken: string;
  let adminToken: string;
  let customer: UserAccount;
  let customerToken: string;
  let users = 0;

  const newUser = async (roles: string[], name: string): Promise<{ user: UserAccount; token: string }> => {
    users += 1;
    const user = await engine.identity.createUser(SYSTEM_ACTOR, { email: `bulk${users}@example.com`, password: PASSWORD, roles, name });
    return { user, token: (await engine.identity.createApiToken(user.id, { name: 'tests' })).token };
  };
  /** A new ticket: staff file it for the customer (a ticket's requester is one); the customer's own is theirs. */
  const open = async (token: string, body: Record<string, unknown> = {}): Promise<{ id: number; version: number }> => {
    const requester = token === customerToken ? {} : { requester: customer.id };
    const created = await api.call('POST', '/tickets', {
      token,
      body: { subject: `Bulk ${Math.random().toString(36).slice(2, 8)}`, ...requester, ...body },
    });
    expect(created.status, created.text).toBe(201);
    return created.body as { id: number; version: number };
  };

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    ({ user: agent, token: agentToken } = await newUser(['agent'], 'Bulk Agent'));
    ({ token: adminToken } = await newUser(['admin'], 'Bulk Admin'));
    ({ user: customer, token: customerToken } = await newUser(['customer'], 'Bulk Customer'));
  });

  it('sets the fields on each row and reports each: done, a rule, stale, not found, no version', async () => {
    const plain = await open(agentToken);
    const unassigned = await open(agentToken);
    const stale = await open(agentToken, { assignee: agent.id });
    await api.call('PATCH', `/tickets/${stale.id}`, { token: agentToken, body: { version: 1, subject: 'Changed meanwhile' } });
    const noVersion = await open(agentToken);

    const raise = await api.call('POST', '/tickets/bulk-update', {
      token: agentToken,
      body: {
        items: [
          { id: plain.id, version: 1 },
          { id: stale.id, version: 1 },
          { id: 987654, version: 1 },
          { id: noVersion.id },
          { id: plain.id, version: 1 },
        ],
        input: { priority: 'high' },
      },
    });
    expect(raise.status, raise.text).toBe(200);
    expect(raise.body.results).toEqual([
      { id: plain.id, ok: true, record: expect.objectContaining({ id: plain.id, priority: 'high', version: 2 }) },
      { id: stale.id, ok: false, status: 409, code: 'STALE_VERSION', detail: expect.any(String) },
      { id: 987654, ok: false, status: 404, code: 'NOT_FOUND', detail: expect.any(String) },
      { id: noVersion.id, ok: false, status: 428, code: 'PRECONDITION_REQUIRED', detail: expect.any(String) },
    ]);

    // A rule of the spec refuses its row alone: an urgent ticket needs an assignee.
    const urgent = await api.call('POST', '/tickets/bulk-update', {
      token: agentToken,
      body: {
        items: [
          { id: unassigned.id, version: 1 },
          { id: plain.id, version: 2 },
        ],
        input: { priority: 'urgent', assignee: null },
      },
    });
    expect(urgent.status, urgent.text).toBe(200);
    expect(urgent.body.results.map((r: { ok: boolean; code?: string }) => r.code ?? r.ok)).toEqual([
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
    ]);
    expect((await api.call('GET', `/tickets/${plain.id}`, { token: agentToken })).body.priority).toBe('high');
  });

  it('refuses the whole request for a field the caller may not write, or a body of the wrong shape, and touches nothing', async () => {
    const own = await open(customerToken);
    for (const [token, body, status, code] of [
      [customerToken, { items: [{ id: own.id, version: 1 }], input: { priority: 'urgent' } }, 403, 'FORBIDDEN_FIELD'],
      [agentToken, { items: [], input: { priority: 'low' } }, 422, 'VALIDATION_FAILED'],
      [agentToken, { items: [{ id: own.id, version: 1 }] }, 422, 'VALIDATION_FAILED'],
      [agentToken, { items: [{ id: own.id, version: 1 }], input: {} }, 422, 'VALIDATION_FAILED'],
      [agentToken, { items: [{ id: own.id, version: 1 }], input: { priority: 'low' }, extra: 1 }, 422, 'VALIDATION_FAILED'],
    ] as const) {
      const before = await snapshot(engine.store.db, TABLES);
      expectProblem(await api.call('POST', '/tickets/bulk-update', { token, body }), status, code);
      expect(await snapshot(engine.store.db, TABLES)).toEqual(before);
    }
  });

  it('deletes where the caller may, row by row; refuses whoever may delete nothing', async () => {
    const first = await open(agentToken);
    const second = await open(agentToken);
    await api.call('PATCH', `/tickets/${second.id}`, { token: agentToken, body: { version: 1, subject: 'Changed meanwhile' } });

    const before = await snapshot(engine.store.db, TABLES);
    expectProblem(
      await api.call('POST', '/tickets/bulk-delete', { token: agentToken, body: { items: [{ id: first.id, version: 1 }] } }),
      403,
      'FORBIDDEN',
    );
    expect(await snapshot(engine.store.db, TABLES)).toEqual(before);

    const deleted = await api.call('POST', '/tickets/bulk-delete', {
      token: adminToken,
      body: {
        items: [
          { id: first.id, version: 1 },
          { id: second.id, version: 1 },
        ],
      },
    });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.results).toEqual([
      { id: first.id, ok: true },
      { id: second.id, ok: false, status: 409, code: 'STALE_VERSION', detail: expect.any(String) },
    ]);
    expect((await api.call('GET', `/tickets/${first.id}`, { token: adminToken })).status).toBe(404);
    expect((await api.call('GET', `/tickets/${second.id}`, { token: adminToken })).status).toBe(200);
  });
});
