import { beforeAll, describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/ninefold.spec';
import type { TestEngine } from '@testing/engine/engine';
import type { UserAccount } from '@/engine/identity/types';
import type { Actor } from '@/engine/ground/actor';
import { buildModel } from '@/engine/spec/build';
import { forEachDatabase } from '@testing/engine/store';
import { apiClient, expectProblem, openTestEngine, snapshot, type ApiClient } from '@testing/api/api';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

const model = buildModel(helpdesk);
const PASSWORD = 'correct horse battery';
const TABLES = ['ticket', 'comment', 'organization'];

const asActor = (user: UserAccount): Actor => ({ userId: user.id, email: user.email, name: user.name, roles: user.roles });

forEachDatabase('API: records', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  let admin: UserAccount;
  let agent: UserAccount;
  let alice: UserAccount;
  /** The customer staff file tickets for: another customer than Alice. */
  let bob: UserAccount;
  let adminToken: string;
  let agentToken: string;
  let aliceToken: string;

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    const make = (email: string, roles: string[], name: string) =>
      engine.identity.createUser(SYSTEM_ACTOR, { email, password: PASSWORD, roles, name });
    [admin, agent, alice, bob] = await Promise.all([
      make('admin@example.com', ['admin'], 'Ada Admin'),
      make('agent@example.com', ['agent'], 'Alan Agent'),
      make('alice@example.com', ['customer'], 'Alice Customer'),
      make('bob@example.com', ['customer'], 'Bob Customer'),
    ]);
    const tokenOf = async (user: UserAccount) => (await engine.identity.createApiToken(user.id, { name: 'tests' })).token;
    [adminToken, agentToken, aliceToken] = await Promise.all([tokenOf(admin), tokenOf(agent), tokenOf(alice)]);
  });

  const unchangedBy = async (write: () => Promise<void>) => {
    const before = await snapshot(engine.store.db, TABLES);
    await write();
    expect(await snapshot(engine.store.db, TABLES)).toEqual(before);
  };

  describe('one record', () => {
    let id: number;

    it('creates with 201, Location, ETag and the Record JSON', async () => {
      const created = await api.call('POST', '/tickets', {
        token: agentToken,
        body: { subject: 'Printer on fire', priority: 'high', requester: bob.id, dueAt: '2099-01-02T03:04:05Z' },
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('content-type')).toBe('application/json; charset=utf-8');
      id = created.body.id;
      expect(created.headers.get('location')).toBe(`/api/v1/tickets/${id}`);
      expect(created.headers.get('etag')).toBe('"1"');
      expect(Object.keys(created.body)).toEqual([
        'id',
        'version',
        'createdAt',
        'updatedAt',
        'createdBy',
        'updatedBy',
        'state',
        'subject',
        'description',
        'priority',
        'organization',
        'requester',
        'assignee',
        'dueAt',
        'resolvedAt',
        'slaDueAt',
        'replyCount',
        'attachments',
      ]);
      // A new ticket has no replies yet (a derived value, kept by the engine).
      expect(created.body.replyCount).toBe(0);
      // The SLA's due time, set by the server: created + slaHours.high.
      expect(Date.parse(created.body.slaDueAt) - Date.parse(created.body.createdAt)).toBe(8 * 3_600_000);
      expect(created.body).toMatchObject({
        version: 1,
        createdBy: agent.id,
        updatedBy: agent.id,
        state: 'new',
        subject: 'Printer on fire',
        description: null,
        priority: 'high',
        organization: null,
        requester: bob.id,
        dueAt: '2099-01-02T03:04:05.000Z',
      });
      expect(created.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });

    it('reads it with its ETag', async () => {
      const read = await api.call('GET', `/tickets/${id}`, { token: agentToken });
      expect(read.status).toBe(200);
      expect(read.headers.get('etag')).toBe('"1"');
      expect(read.body).toMatchObject({ id, subject: 'Printer on fire', version: 1 });
    });

    it('answers HEAD like GET without a body', async () => {
      const head = await api.call('HEAD', `/tickets/${id}`, { token: agentToken });
      expect(head.status).toBe(200);
      expect(head.headers.get('etag')).toBe('"1"');
      expect(head.text).toBe('');
    });

    it('changes it with If-Match, then with the version in the body', async () => {
      const first = await api.call('PATCH', `/tickets/${id}`, {
        token: agentToken,
        headers: { 'if-match': '"1"' },
        body: { subject: 'Printer still on fire' },
      });
      expect(first.status).toBe(200);
      expect(first.headers.get('etag')).toBe('"2"');
      expect(first.body).toMatchObject({ version: 2, subject: 'Printer still on fire', updatedBy: agent.id });
      const second = await api.call('PATCH', `/tickets/${id}`, {
        token: agentToken,
        body: { version: 2, priority: 'urgent', assignee: agent.id },
      });
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({ version: 3, priority: 'urgent', assignee: agent.id });
      const weak = await api.call('PATCH', `/tickets/${id}`, {
        token: agentToken,
        headers: { 'if-match': 'W/"3"' },
        body: { priority: 'high' },
      });
      expect(weak.body.version).toBe(4);
      const bare = await api.call('PATCH', `/tickets/${id}`, {
        token: agentToken,
        headers: { 'if-match': '4' },
        body: { priority: 'normal' },
      });
      expect(bare.body.version).toBe(5);
    });

    it('refuses a change without a version (428) and with a stale one (409), changing nothing', async () => {
      await unchangedBy(async () => {
        expectProblem(
          await api.call('PATCH', `/tickets/${id}`, { token: agentToken, body: { subject: 'Lost update' } }),
          428,
          'PRECONDITION_REQUIRED',
        );
        expectProblem(
          await api.call('PATCH', `/tickets/${id}`, { token: agentToken, headers: { 'if-match': '*' }, body: { subject: 'Lost update' } }),
          428,
          'PRECONDITION_REQUIRED',
        );
        expectProblem(
          await api.call('PATCH', `/tickets/${id}`, {
            token: agentToken,
            headers: { 'if-match': '"1"' },
            body: { subject: 'Lost update' },
          }),
          409,
          'STALE_VERSION',
        );
        expectProblem(
          await api.call('PATCH', `/tickets/${id}`, { token: agentToken, body: { version: 4, subject: 'Lost update' } }),
          409,
          'STALE_VERSION',
        );
      });
    });

    it('refuses a malformed version, or two different ones, naming them', async () => {
      await unchangedBy(async () => {
        const header = await api.call('PATCH', `/tickets/${id}`, {
          token: agentToken,
          headers: { 'if-match': 'v5' },
          body: { subject: 'x y z' },
        });
        expectProblem(header, 422, 'VALIDATION_FAILED');
        expect(header.body.errors).toEqual([{ pointer: '/If-Match', code: 'invalid_version', detail: expect.any(String) }]);
        const body = await api.call('PATCH', `/tickets/${id}`, { token: agentToken, body: { version: '5', subject: 'x y z' } });
        expectProblem(body, 422, 'VALIDATION_FAILED');
        expect(body.body.errors[0]).toMatchObject({ pointer: '/version', code: 'invalid_version' });
        const both = await api.call('PATCH', `/tickets/${id}`, {
          token: agentToken,
          headers: { 'if-match': '"5"' },
          body: { version: 4, subject: 'x y z' },
        });
        expectProblem(both, 422, 'VALIDATION_FAILED');
      });
    });

    it('refuses unknown fields, bad values, read-only fields and the state, changing nothing', async () => {
      await unchangedBy(async () => {
        const unknown = await api.call('POST', '/tickets', { token: agentToken, body: { subject: 'Valid subject', colour: 'red' } });
        expectProblem(unknown, 422, 'VALIDATION_FAILED');
        expect(unknown.body.errors).toEqual([{ pointer: '/colour', code: 'unknown_field', detail: expect.any(String) }]);
        const bad = await api.call('POST', '/tickets', { token: agentToken, body: { subject: 'x', priority: 'extreme' } });
        expectProblem(bad, 422, 'VALIDATION_FAILED');
        expect(bad.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(['/priority', '/subject']);
        expectProblem(
          await api.call('POST', '/tickets', { token: agentToken, body: { subject: 'Valid subject', resolvedAt: '2030-01-01T00:00:00Z' } }),
          403,
          'FORBIDDEN_FIELD',
        );
        expectProblem(
          await api.call('PATCH', `/tickets/${id}`, { token: agentToken, body: { version: 5, state: 'closed' } }),
          403,
          'FORBIDDEN_FIELD',
        );
        // A derived value is the engine's, as a read-only field is.
        const derived = await api.call('PATCH', `/tickets/${id}`, { token: agentToken, body: { version: 5, replyCount: 9 } });
        expectProblem(derived, 403, 'FORBIDDEN_FIELD');
        expect(derived.body.errors).toEqual([
          { pointer: '/replyCount', code: 'forbidden_field', detail: expect.stringContaining('Replies is derived') },
        ]);
        expectProblem(
          await api.call('POST', '/tickets', { token: agentToken, body: { subject: 'Valid subject', id: 1 } }),
          422,
          'VALIDATION_FAILED',
        );
      });
    });

    it("hides another customer's ticket as 404 and refuses what a role may not do with 403", async () => {
      await unchangedBy(async () => {
        expectProblem(await api.call('GET', `/tickets/${id}`, { token: aliceToken }), 404, 'NOT_FOUND');
        expectProblem(
          await api.call('PATCH', `/tickets/${id}`, { token: aliceToken, body: { version: 5, subject: 'Mine now' } }),
          404,
          'NOT_FOUND',
        );
        expectProblem(await api.call('DELETE', `/tickets/${id}`, { token: agentToken }), 403, 'FORBIDDEN');
        expectProblem(await api.call('POST', '/organizations', { token: agentToken, body: { name: 'Agents Inc' } }), 403, 'FORBIDDEN');
      });
    });

    it('refuses an id that is not a positive whole number with 422, and an absent record with 404', async () => {
      for (const bad of ['abc', '0', '-1', '1.5', '1e3', '99999999999999999999']) {
        const answer = await api.call('GET', `/tickets/${bad}`, { token: agentToken });
        expectProblem(answer, 422, 'VALIDATION_FAILED');
        expect(answer.body.errors[0]).toMatchObject({ pointer: '/id', code: 'invalid_id' });
      }
      expectProblem(await api.call('GET', '/tickets/987654', { token: agentToken }), 404, 'NOT_FOUND');
    });

    it('deletes with 204 and no body, then answers 404; a stale If-Match is 409', async () => {
      await unchangedBy(async () => {
        expectProblem(
          await api.call('DELETE', `/tickets/${id}`, { token: adminToken, headers: { 'if-match': '"4"' } }),
          409,
          'STALE_VERSION',
        );
      });
      const deleted = await api.call('DELETE', `/tickets/${id}`, { token: adminToken, headers: { 'if-match': '"5"' } });
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      expectProblem(await api.call('GET', `/tickets/${id}`, { token: adminToken }), 404, 'NOT_FOUND');
      expectProblem(await api.call('DELETE', `/tickets/${id}`, { token: adminToken }), 404, 'NOT_FOUND');
    });

    it('writes dates, decimals, references and users as the wire types say', async () => {
      const org = await api.call('POST', '/organizations', { token: adminToken, body: { name: 'Wire Works', domain: 'wire.example' } });
      expect(org.status).toBe(201);
      expect(org.body).toEqual({
        id: expect.any(Number),
        version: 1,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        createdBy: admin.id,
        updatedBy: admin.id,
        name: 'Wire Works',
        domain: 'wire.example',
        tier: 'standard',
      });
      const ticket = await api.call('POST', '/tickets', {
        token: adminToken,
        body: { subject: 'With an org', organization: org.body.id, requester: bob.id, assignee: agent.id },
      });
      expect(ticket.body).toMatchObject({ organization: org.body.id, assignee: agent.id, requester: bob.id, createdBy: admin.id });
      // Staff name a customer: none (the default is the caller, who is no customer) or an agent is refused on the requester.
      for (const body of [{ subject: 'Nobody named' }, { subject: 'An agent named', requester: agent.id }]) {
        const refused = await api.call('POST', '/tickets', { token: adminToken, body });
        expectProblem(refused, 422, 'VALIDATION_FAILED');
        expect(refused.body.errors).toEqual([{ pointer: '/requester', code: 'user_role', detail: 'Requester must be a customer.' }]);
      }
    });
  });

  describe('lists', () => {
    let orgId: number;
    let ids: number[];
    const SUBJECTS = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf'];
    const PRIORITIES = ['low', 'high', 'normal', 'urgent', 'high', 'low', 'normal'];
    const PRIORITY_ORDER = ['low', 'normal', 'high', 'urgent'];

    beforeAll(async () => {
      const actor = asActor(admin);
      orgId = (await engine.ops.create(actor, 'organization', { name: 'Paging Inc' })).id;
      ids = [];
      for (const [i, subject] of SUBJECTS.entries()) {
        ids.push(
          (
            await engine.ops.create(actor, 'ticket', {
              subject: `${subject} paging`,
              priority: PRIORITIES[i],
              organization: orgId,
              requester: bob.id,
              assignee: agent.id,
            })
          ).id,
        );
      }
    });

    const allPages = async (query: string) => {
      const seen: { id: number; subject: string; priority: string }[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await api.call('GET', `/tickets?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
          token: adminToken,
        });
        expect(page.status, page.text).toBe(200);
        expect(page.body.items.length).toBeLessThanOrEqual(2);
        seen.push(...page.body.items);
        cursor = page.body.nextCursor;
        pages += 1;
      } while (cursor && pages < 20);
      return { seen, pages };
    };

    it('pages through every record with limit and cursor, in the sort asked', async () => {
      const { seen, pages } = await allPages(`organization=${orgId}&limit=2&sort=subject`);
      expect(pages).toBe(4);
      expect(seen.map((t) => t.subject)).toEqual(SUBJECTS.map((s) => `${s} paging`));
      const descending = await allPages(`organization=${orgId}&limit=2&sort=-subject`);
      expect(descending.seen.map((t) => t.id)).toEqual([...ids].reverse());
    });

    it('sorts by several keys', async () => {
      const { seen } = await allPages(`organization=${orgId}&limit=2&sort=-priority,subject`);
      const expected = SUBJECTS.map((s, i) => ({ subject: `${s} paging`, priority: PRIORITIES[i]! })).sort((a, b) =>
        // Enum values in their declared order (low < normal < high < urgent), here descending.
        a.priority === b.priority
          ? a.subject.localeCompare(b.subject)
          : PRIORITY_ORDER.indexOf(b.priority) - PRIORITY_ORDER.indexOf(a.priority),
      );
      expect(seen.map((t) => t.subject)).toEqual(expected.map((t) => t.subject));
    });

    it('filters by enum, reference, user and state, and searches', async () => {
      const high = await api.call('GET', `/tickets?organization=${orgId}&priority=high&sort=subject`, { token: adminToken });
      expect(high.body.items.map((t: { subject: string }) => t.subject)).toEqual(['Bravo paging', 'Echo paging']);
      expect(high.body.nextCursor).toBeNull();
      const byUser = await api.call('GET', `/tickets?assignee=${agent.id}&state=new&organization=${orgId}`, { token: adminToken });
      expect(byUser.body.items).toHaveLength(7);
      const found = await api.call('GET', `/tickets?q=foxtrot`, { token: adminToken });
      expect(found.body.items.map((t: { id: number }) => t.id)).toEqual([ids[5]]);
    });

    it('filters by where the SLA due time stands', async () => {
      const overdue = await api.call('GET', `/tickets?organization=${orgId}&slaDueAt=overdue`, { token: adminToken });
      expect(overdue.body.items).toEqual([]);
      const soon = await api.call('GET', `/tickets?organization=${orgId}&slaDueAt=due24h`, { token: adminToken });
      const priorities: string[] = soon.body.items.map((t: { priority: string }) => t.priority);
      expect(priorities.length).toBeGreaterThan(0);
      expect(priorities.every((p) => p !== 'low')).toBe(true);
      const wrong = await api.call('GET', '/tickets?slaDueAt=yesterday', { token: adminToken });
      expectProblem(wrong, 422, 'VALIDATION_FAILED');
      expect(wrong.body.errors).toEqual([
        { pointer: '/slaDueAt', code: 'invalid_filter', detail: 'SLA due can be filtered by: overdue, due24h.' },
      ]);
    });

    it('uses the page size of the list, capped by the API limit', async () => {
      const page = await api.call('GET', `/tickets?organization=${orgId}`, { token: adminToken });
      expect(page.body.items).toHaveLength(7);
      expect(page.body.nextCursor).toBeNull();
    });

    it('refuses unknown, repeated and invalid parameters with 422 naming them', async () => {
      const typo = await api.call('GET', '/tickets?priorty=high', { token: adminToken });
      expectProblem(typo, 422, 'VALIDATION_FAILED');
      expect(typo.body.errors).toEqual([{ pointer: '/priorty', code: 'unknown_parameter', detail: expect.stringContaining('"priorty"') }]);
      const twice = await api.call('GET', '/tickets?priority=high&priority=low', { token: adminToken });
      expectProblem(twice, 422, 'VALIDATION_FAILED');
      expect(twice.body.errors[0]).toMatchObject({ pointer: '/priority', code: 'repeated_parameter' });
      for (const limit of ['0', '101', 'ten', '-1', '2.5', '']) {
        const answer = await api.call('GET', `/tickets?limit=${limit}`, { token: adminToken });
        expectProblem(answer, 422, 'VALIDATION_FAILED');
        expect(answer.body.errors[0]).toMatchObject({ pointer: '/limit', code: 'invalid_limit' });
      }
      expectProblem(await api.call('GET', '/tickets?priority=extreme', { token: adminToken }), 422, 'VALIDATION_FAILED');
      expectProblem(await api.call('GET', '/tickets?sort=password', { token: adminToken }), 422, 'VALIDATION_FAILED');
      expectProblem(await api.call('GET', '/tickets?cursor=not-a-cursor', { token: adminToken }), 422, 'VALIDATION_FAILED');
      expectProblem(await api.call('GET', '/tickets?organization=1%20or%201=1', { token: adminToken }), 422, 'VALIDATION_FAILED');
      expectProblem(await api.call('GET', `/comments?q=${'x'.repeat(201)}`, { token: aliceToken }), 422, 'VALIDATION_FAILED');
    });

    it('lists only what the caller may see', async () => {
      // A customer's own: the requester defaults to the caller.
      const mine = (await api.call('POST', '/tickets', { token: aliceToken, body: { subject: 'Alice needs help' } })).body;
      expect(mine).toMatchObject({ requester: alice.id, createdBy: alice.id });
      const page = await api.call('GET', '/tickets', { token: aliceToken });
      expect(page.body.items.map((t: { id: number }) => t.id)).toEqual([mine.id]);
      expectProblem(await api.call('GET', '/organizations', { token: aliceToken }), 403, 'FORBIDDEN');
    });
  });
});
