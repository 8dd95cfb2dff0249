import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import helpdesk from '../../examples/helpdesk/ninefold.spec';
import type { TestEngine } from '@testing/engine/engine';
import { NinefoldError } from '@/engine/errors/ninefold-error';
import type { UserAccount } from '@/engine/identity/types';
import type { Actor } from '@/engine/ground/actor';
import { buildModel } from '@/engine/spec/build';
import type { AppSpec } from '@/engine/spec/types';
import { forEachDatabase } from '@testing/engine/store';
import { apiClient, expectProblem, openTestEngine, snapshot, type ApiClient } from '@testing/api/api';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

/** The helpdesk (with its escalate call) plus calls that exercise what escalate does not. */
const spec: AppSpec = {
  ...helpdesk,
  calls: {
    ...helpdesk.calls,
    explode: {
      method: 'POST',
      path: '/tickets/{id}/explode',
      params: { id: 'integer' },
      roles: ['agent'],
      handler: async () => {
        throw new Error('secret SQL details: select * from nf_user');
      },
    },
    offCatalogue: {
      method: 'POST',
      path: '/off-catalogue',
      roles: ['agent'],
      handler: async () => {
        throw new NinefoldError('NOT_IN_THE_CATALOGUE', 'secret internal reason');
      },
    },
    renameTwice: {
      method: 'POST',
      path: '/tickets/{id}/rename-twice',
      params: { id: 'integer' },
      output: 'ticket',
      roles: ['agent'],
      errors: ['NOT_FOUND', 'STALE_VERSION'],
      // Both updates carry the version read first, so the second is stale: the call fails as a whole.
      handler: async ({ params, ops }) => {
        const id = Number(params.id);
        const { record } = await ops.get('ticket', id);
        await ops.update('ticket', id, { subject: 'First rename' }, record.version);
        await ops.create('comment', { ticket: id, body: 'Renamed', internal: true });
        return ops.update('ticket', id, { subject: 'Second rename' }, record.version);
      },
    },
    organizationsOnce: {
      method: 'POST',
      path: '/organizations/once',
      input: { name: { type: 'text', required: true } },
      output: { created: { type: 'integer' } },
      roles: ['admin'],
      // The second name is refused by the database (unique); the call catches that and goes on.
      handler: async ({ input, ops }) => {
        let created = 0;
        for (const name of [String(input.name), String(input.name), `${String(input.name)} Two`]) {
          try {
            await ops.create('organization', { name });
            created += 1;
          } catch (error) {
            if (!(error instanceof NinefoldError)) throw error;
          }
        }
        return { created };
      },
    },
    stats: {
      method: 'GET',
      path: '/stats/{priority}/{open}',
      params: { priority: 'text', open: 'boolean' },
      output: {
        priority: { type: 'text' },
        open: { type: 'boolean' },
        count: { type: 'integer' },
        since: { type: 'date' },
        window: { type: 'integer' },
      },
      roles: ['agent', 'admin'],
      handler: async ({ params, ops, constants }) => {
        const page = await ops.list('ticket', { filters: { priority: String(params.priority) }, limit: 100 });
        const count = page.rows.filter((t) => (t.state !== 'closed') === params.open).length;
        return {
          priority: params.priority,
          open: params.open,
          count,
          since: new Date(Date.UTC(2026, 0, 2)),
          window: constants.reopenWindowDays,
          extra: 'dropped',
        };
      },
    },
  },
};
const model = buildModel(spec);
const PASSWORD = 'correct horse battery';

const asActor = (user: UserAccount): Actor => ({ userId: user.id, email: user.email, name: user.name, roles: user.roles });

forEachDatabase('API: custom calls', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  let agent: UserAccount;
  let customer: UserAccount;
  let agentToken: string;
  let customerToken: string;

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    [agent, customer] = await Promise.all([
      engine.identity.createUser(SYSTEM_ACTOR, { email: 'agent@example.com', password: PASSWORD, roles: ['agent'] }),
      engine.identity.createUser(SYSTEM_ACTOR, { email: 'customer@example.com', password: PASSWORD, roles: ['customer'] }),
    ]);
    agentToken = (await engine.identity.createApiToken(agent.id, { name: 'tests' })).token;
    customerToken = (await engine.identity.createApiToken(customer.id, { name: 'tests' })).token;
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  const newTicket = async (values: Record<string, unknown> = {}) =>
    engine.ops.create(asActor(customer), 'ticket', { subject: 'Cannot log in', ...values });
  const unchangedBy = async (write: () => Promise<void>) => {
    const before = await snapshot(engine.store.db, ['ticket', 'comment']);
    await write();
    expect(await snapshot(engine.store.db, ['ticket', 'comment'])).toEqual(before);
  };
  const escalate = (id: number | string, body: unknown, token = agentToken) => api.call('POST', `/tickets/${id}/escalate`, { token, body });

  describe('escalate (the helpdesk)', () => {
    it('raises the priority one step and records why in an internal comment', async () => {
      const ticket = await newTicket();
      expect(ticket.priority).toBe('normal');
      const answer = await escalate(ticket.id, { reason: 'Customer is blocked' });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ id: ticket.id, priority: 'high', version: 2, updatedBy: agent.id, state: 'new' });
      const comments = await engine.ops.list(asActor(agent), 'comment', { filters: { ticket: String(ticket.id) } });
      expect(comments.rows.map((c) => ({ body: c.body, internal: c.internal, createdBy: c.createdBy }))).toEqual([
        { body: 'Escalated from normal to high: Customer is blocked', internal: true, createdBy: agent.id },
      ]);
      // The customer does not see why.
      expect((await engine.ops.list(asActor(customer), 'comment', { filters: { ticket: String(ticket.id) } })).rows).toEqual([]);
    });

    it('refuses an urgent ticket with 422, changing nothing', async () => {
      // A customer cannot set the priority; an agent made it urgent (which needs an assignee).
      const ticket = await engine.ops.create(asActor(agent), 'ticket', {
        subject: 'Cannot log in',
        priority: 'urgent',
        requester: customer.id,
        assignee: agent.id,
      });
      await unchangedBy(async () => {
        const answer = await escalate(ticket.id, { reason: 'Even more urgent' });
        expectProblem(answer, 422, 'VALIDATION_FAILED');
        expect(answer.body.detail).toBe('This ticket is already urgent.');
      });
    });

    it('refuses a closed ticket with the catalogue error TICKET_CLOSED (409), changing nothing', async () => {
      const ticket = await newTicket();
      await engine.store.db.updateTable('ticket').set({ state: 'closed' }).where('id', '=', ticket.id).execute();
      await unchangedBy(async () => {
        const answer = await escalate(ticket.id, { reason: 'Too late?' });
        expectProblem(answer, 409, 'TICKET_CLOSED');
        expect(answer.body).toMatchObject({ title: 'Ticket closed', detail: 'This ticket is closed and can no longer be changed.' });
      });
    });

    it('refuses a caller without one of its roles with 403, changing nothing', async () => {
      const ticket = await newTicket();
      await unchangedBy(async () => {
        expectProblem(await escalate(ticket.id, { reason: 'I want it faster' }, customerToken), 403, 'FORBIDDEN');
      });
    });

    it('refuses a bad id with 422 naming the parameter, an absent ticket with 404', async () => {
      await unchangedBy(async () => {
        for (const id of ['abc', '1.5', '12345678901234567890']) {
          const answer = await escalate(id, { reason: 'Bad id' });
          expectProblem(answer, 422, 'VALIDATION_FAILED');
          expect(answer.body.errors).toEqual([
            { pointer: '/id', code: 'invalid_param', detail: 'The path parameter "id" must be a whole number.' },
          ]);
        }
        expectProblem(await escalate(999999, { reason: 'Nobody' }), 404, 'NOT_FOUND');
      });
    });

    it('checks the input with the field rules: required, length, unknown keys, JSON', async () => {
      const ticket = await newTicket();
      await unchangedBy(async () => {
        const cases: [unknown, string[]][] = [
          [{}, ['/reason:required']],
          [{ reason: 'no' }, ['/reason:too_small']],
          [{ reason: 'x'.repeat(501) }, ['/reason:too_big']],
          [{ reason: 42 }, ['/reason:invalid_type']],
          [{ reason: 'Valid reason', priority: 'urgent' }, ['/priority:unknown_field']],
        ];
        for (const [body, errors] of cases) {
          const answer = await escalate(ticket.id, body);
          expectProblem(answer, 422, 'VALIDATION_FAILED');
          expect(answer.body.errors.map((e: { pointer: string; code: string }) => `${e.pointer}:${e.code}`)).toEqual(errors);
        }
        expectProblem(await escalate(ticket.id, '{"reason": '), 422, 'VALIDATION_FAILED');
        expectProblem(
          await api.call('POST', `/tickets/${ticket.id}/escalate`, {
            token: agentToken,
            body: 'reason=x',
            headers: { 'content-type': 'text/plain' },
          }),
          415,
          'UNSUPPORTED_MEDIA_TYPE',
        );
      });
    });
  });

  describe('one transaction per call', () => {
    it('saves nothing of a call whose later step is refused (STALE_VERSION, 409): no update, no comment, no history', async () => {
      const ticket = await newTicket();
      const history = async () => (await engine.ops.history(asActor(agent), 'ticket', ticket.id)).entries.length;
      const entriesBefore = await history();
      await unchangedBy(async () => {
        expectProblem(await api.call('POST', `/tickets/${ticket.id}/rename-twice`, { token: agentToken }), 409, 'STALE_VERSION');
      });
      expect(await history()).toBe(entriesBefore);
      expect((await engine.ops.get(asActor(agent), 'ticket', ticket.id)).record).toMatchObject({ subject: 'Cannot log in', version: 1 });
    });

    it('lets a call catch a refused step and go on: that step alone is undone, the others are saved', async () => {
      const admin = await engine.identity.createUser(SYSTEM_ACTOR, { email: 'admin@example.com', password: PASSWORD, roles: ['admin'] });
      const adminToken = (await engine.identity.createApiToken(admin.id, { name: 'tests' })).token;
      const answer = await api.call('POST', '/organizations/once', { token: adminToken, body: { name: 'Once Ltd' } });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ created: 2 });
      const names = (await engine.ops.list(asActor(admin), 'organization', { q: 'Once', limit: 10 })).rows.map((o) => o.name).sort();
      expect(names).toEqual(['Once Ltd', 'Once Ltd Two']);
    });
  });

  describe('other calls', () => {
    it('parses text and boolean params and writes declared output fields by their wire types', async () => {
      const answer = await api.call('GET', '/stats/high/true', { token: agentToken });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ priority: 'high', open: true, count: expect.any(Number), since: '2026-01-02', window: 14 });
      const bad = await api.call('GET', '/stats/high/yes', { token: agentToken });
      expectProblem(bad, 422, 'VALIDATION_FAILED');
      expect(bad.body.errors[0]).toMatchObject({ pointer: '/open', code: 'invalid_param' });
    });

    it('hides an unexpected error behind 500 INTERNAL with a digest, logged with the same digest', async () => {
      const lines: string[] = [];
      vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
        lines.push(String(chunk));
        return true;
      });
      const answer = await api.call('POST', '/tickets/1/explode', { token: agentToken });
      vi.restoreAllMocks();
      expectProblem(answer, 500, 'INTERNAL');
      expect(answer.body.digest).toMatch(/^[0-9a-f]{10}$/);
      expect(answer.text).not.toMatch(/secret|select|nf_user|stack|at /i);
      const logged = lines.map((line) => JSON.parse(line)).find((line) => line.digest === answer.body.digest);
      expect(logged).toMatchObject({ level: 'error', msg: 'request failed', method: 'POST', path: '/api/v1/tickets/1/explode' });
      expect(logged.error).toContain('secret SQL details');
    });

    it('treats a code outside the catalogue as INTERNAL too', async () => {
      vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      const answer = await api.call('POST', '/off-catalogue', { token: agentToken });
      expectProblem(answer, 500, 'INTERNAL');
      expect(answer.text).not.toContain('secret');
      expect(answer.text).not.toContain('NOT_IN_THE_CATALOGUE');
    });

    it('accepts no body or an empty object for a call without input, and refuses anything else', async () => {
      vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      expect((await api.call('POST', '/tickets/1/explode', { token: agentToken, body: {} })).status).toBe(500);
      const extra = await api.call('POST', '/tickets/1/explode', { token: agentToken, body: { force: true } });
      expectProblem(extra, 422, 'VALIDATION_FAILED');
      expect(extra.body.errors[0]).toMatchObject({ pointer: '/force', code: 'unknown_field' });
    });
  });
});
