/**
 * One row per catalogue code the API can answer: the request that causes it, the status and
 * code it must get, and proof that nothing stored changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/ninefold.spec';
import type { Engine } from '@/engine/engine';
import type { TestEngine } from '@testing/engine/engine';
import { BUILT_IN_ERRORS } from '@/engine/errors/catalogue';
import { buildModel } from '@/engine/spec/build';
import { defineApp } from '@/engine/spec/define';
import { forEachDatabase } from '@testing/engine/store';
import { openUnreachableEngine } from '@testing/engine/store-outage';
import { apiClient, expectProblem, openTestEngine, snapshot, type ApiAnswer, type ApiClient } from '@testing/api/api';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

const RATE_LIMIT = 20;
const model = buildModel(
  defineApp({
    ...helpdesk,
    entities: {
      ...helpdesk.entities,
      // A reference that restricts deletion (the helpdesk's own cascade or set null).
      attachment: { fields: { ticket: { type: 'reference', to: 'ticket', required: true }, name: { type: 'text', required: true } } },
      // A workflow whose final state names no code of its own: RECORD_FINAL.
      memo: { fields: { title: { type: 'text', required: true } } },
    },
    workflows: {
      ...helpdesk.workflows,
      memo: {
        states: { draft: { initial: true }, archived: { final: true } },
        transitions: { archive: { from: 'draft', to: 'archived', allow: ['admin'] } },
      },
    },
    calls: {
      ...helpdesk.calls,
      // A handler with a bug: what the client gets must be INTERNAL with a digest, nothing else.
      crash: {
        method: 'POST',
        path: '/tickets/{id}/crash',
        params: { id: 'integer' },
        roles: ['admin'],
        handler: async () => {
          throw new Error('relation "nf_user" leaked password_hash');
        },
      },
    },
    constants: {
      ...helpdesk.constants,
      // The customer's own ticket is as many open tickets as they may have.
      maxOpenTicketsPerCustomer: { ...helpdesk.constants!.maxOpenTicketsPerCustomer, value: 1 },
      apiRateLimitPerMinute: { value: RATE_LIMIT },
      apiRateLimitPerIpPerMinute: { value: 1000 },
    },
  }),
);

const TABLES = ['ticket', 'organization', 'comment', 'attachment', 'memo', 'nf_user', 'nf_session', 'nf_api_token'];

interface Actors {
  admin: string;
  customer: string;
  /** Another customer: the requester of the tickets the admin files, none of them the customer's. */
  callerId: number;
  adminSession: string;
  ticketId: number;
  closedTicketId: number;
  organizationId: number;
  customerTicketId: number;
  /** The customer's, resolved longer ago than reopenWindowDays. */
  longResolvedId: number;
  archivedMemoId: number;
  /** The same API on a database that cannot be reached (PostgreSQL cut off, PGlite's worker ended). */
  unreachable: ApiClient;
}

interface Row {
  readonly code: string;
  readonly status: number;
  /** Sends the request (or requests) and returns the answer that must carry the code. */
  readonly send: (api: ApiClient, a: Actors, token: () => Promise<string>) => Promise<ApiAnswer>;
  readonly check?: (answer: ApiAnswer) => void;
}

const rows: Row[] = [
  {
    code: 'VALIDATION_FAILED',
    status: 422,
    send: (api, a) => api.call('POST', '/tickets', { token: a.admin, body: { subject: 'x', priority: 'soon' } }),
    check: (r) => expect(r.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(['/priority', '/subject']),
  },
  { code: 'UNAUTHENTICATED', status: 401, send: (api) => api.call('POST', '/tickets', { body: { subject: 'Anonymous' } }) },
  // NUL cannot be stored in PostgreSQL text: refused as input, never a database error.
  { code: 'VALIDATION_FAILED', status: 422, send: (api, a) => api.call('GET', '/tickets?q=%00', { token: a.admin }) },
  {
    code: 'VALIDATION_FAILED',
    status: 422,
    send: (api, a) => api.call('POST', '/tickets', { token: a.admin, body: { subject: 'Nul \u0000 inside', requester: a.callerId } }),
  },
  {
    code: 'UNAUTHENTICATED',
    status: 401,
    send: (api) => api.call('POST', '/auth/sign-in', { body: { email: 'admin\u0000@example.com', password: 'admin-password' } }),
  },
  {
    code: 'FORBIDDEN',
    status: 403,
    send: (api, a) => api.call('POST', '/organizations', { token: a.customer, body: { name: 'Customer Corp' } }),
  },
  {
    code: 'FORBIDDEN',
    status: 403,
    send: (api, a) =>
      api.call('POST', '/tickets', {
        session: a.adminSession,
        headers: { origin: 'https://evil.example' },
        body: { subject: 'Cross-site', requester: a.callerId },
      }),
  },
  {
    code: 'FORBIDDEN_FIELD',
    status: 403,
    send: (api, a) =>
      api.call('PATCH', `/tickets/${a.ticketId}`, {
        token: a.admin,
        headers: { 'if-match': '"1"' },
        body: { resolvedAt: '2030-01-01T00:00:00Z' },
      }),
  },
  {
    code: 'NOT_FOUND',
    status: 404,
    send: (api, a) => api.call('PATCH', '/tickets/987654', { token: a.admin, headers: { 'if-match': '"1"' }, body: { subject: 'Ghost' } }),
  },
  {
    code: 'NOT_FOUND',
    status: 404,
    send: (api, a) =>
      api.call('PATCH', `/tickets/${a.ticketId}`, { token: a.customer, headers: { 'if-match': '"1"' }, body: { subject: 'Not mine' } }),
  },
  {
    code: 'METHOD_NOT_ALLOWED',
    status: 405,
    send: (api, a) => api.call('PUT', `/tickets/${a.ticketId}`, { token: a.admin, body: { subject: 'Put' } }),
    check: (r) => expect(r.headers.get('allow')).toMatch(/PATCH/),
  },
  { code: 'CONFLICT', status: 409, send: (api, a) => api.call('DELETE', `/tickets/${a.ticketId}`, { token: a.admin }) },
  {
    code: 'STALE_VERSION',
    status: 409,
    send: (api, a) =>
      api.call('PATCH', `/tickets/${a.ticketId}`, { token: a.admin, headers: { 'if-match': '"7"' }, body: { subject: 'Stale edit' } }),
  },
  {
    code: 'TICKET_CLOSED',
    status: 409,
    send: (api, a) => api.call('POST', `/tickets/${a.closedTicketId}/escalate`, { token: a.admin, body: { reason: 'Still broken' } }),
  },
  {
    code: 'TICKET_CLOSED',
    status: 409,
    send: (api, a) =>
      api.call('PATCH', `/tickets/${a.closedTicketId}`, {
        token: a.admin,
        headers: { 'if-match': '"1"' },
        body: { subject: 'Closed, changed' },
      }),
  },
  {
    code: 'RECORD_FINAL',
    status: 409,
    send: (api, a) =>
      api.call('PATCH', `/memos/${a.archivedMemoId}`, {
        token: a.admin,
        headers: { 'if-match': '"2"' },
        body: { title: 'Archived, changed' },
      }),
  },
  {
    code: 'TRANSITION_NOT_ALLOWED',
    status: 409,
    send: (api, a) => api.call('POST', `/tickets/${a.customerTicketId}/transitions/start`, { token: a.customer, body: { version: 1 } }),
    check: (r) => expect(r.body.detail).toBe('You are not allowed to take "Start" on this ticket.'),
  },
  {
    code: 'REOPEN_WINDOW_PASSED',
    status: 409,
    send: (api, a) =>
      api.call('POST', `/tickets/${a.longResolvedId}/transitions/reopen`, { token: a.customer, headers: { 'if-match': '"3"' } }),
  },
  {
    code: 'LIMIT_EXCEEDED',
    status: 422,
    send: (api, a) => api.call('POST', '/tickets', { token: a.customer, body: { subject: 'A second open ticket' } }),
    check: (r) => expect(r.body).toMatchObject({ limit: 'openTicketsPerCustomer', max: 1, constant: 'maxOpenTicketsPerCustomer' }),
  },
  {
    code: 'PAYLOAD_TOO_LARGE',
    status: 413,
    send: (api, a) =>
      api.call('POST', '/tickets', {
        token: a.admin,
        body: { subject: 'Huge', requester: a.callerId, description: 'x'.repeat(1024 * 1024 + 10) },
      }),
  },
  {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    status: 415,
    send: (api, a) =>
      api.call('POST', '/tickets', {
        token: a.admin,
        body: 'subject=Form',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
  },
  {
    code: 'RANGE_NOT_SATISFIABLE',
    status: 416,
    send: async (api, a) => {
      const uploader = a.admin;
      const form = new FormData();
      form.append('file', new Blob(['hello']), 'hello.txt');
      const uploaded = await api.call('POST', '/files', { token: uploader, body: form });
      return api.call('GET', `/files/${uploaded.body.items[0].id}`, { token: uploader, headers: { range: 'bytes=99-' } });
    },
    check: (r) => expect(r.headers.get('content-range')).toBe('bytes */5'),
  },
  {
    code: 'PRECONDITION_REQUIRED',
    status: 428,
    send: (api, a) => api.call('PATCH', `/tickets/${a.ticketId}`, { token: a.admin, body: { subject: 'No version' } }),
  },
  {
    code: 'RATE_LIMITED',
    status: 429,
    send: async (api, a, token) => {
      const fresh = await token();
      for (let i = 0; i < RATE_LIMIT; i++) expect((await api.call('GET', '/auth/me', { token: fresh })).status).toBe(200);
      return api.call('POST', '/tickets', { token: fresh, body: { subject: 'One too many', requester: a.callerId } });
    },
    check: (r) => expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0),
  },
  {
    code: 'SERVICE_UNAVAILABLE',
    status: 503,
    // Checked against the OpenAPI document, which lists 503 with Retry-After for every operation.
    send: (_api, a) => a.unreachable.call('GET', '/tickets', { token: a.admin }),
    check: (r) => {
      expect(r.headers.get('retry-after')).toBe('5');
      expect(r.body.detail).toBe('The database cannot be reached right now. Try again in a moment.');
    },
  },
  {
    code: 'INTERNAL',
    status: 500,
    send: (api, a) => api.call('POST', `/tickets/${a.ticketId}/crash`, { token: a.admin }),
    check: (r) => {
      expect(r.body.digest).toMatch(/^\w+$/);
      expect(r.text).not.toMatch(/nf_user|password_hash|relation/);
    },
  },
];

forEachDatabase('API: the error catalogue, code by code', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  let actors: Actors;
  let ips = 0;

  let unreachableEngine: Engine | null = null;
  afterAll(() => unreachableEngine?.close());

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    const admin = await engine.identity.createUser(SYSTEM_ACTOR, {
      email: 'admin@example.com',
      password: 'admin-password',
      roles: ['admin'],
    });
    const customer = await engine.identity.createUser(SYSTEM_ACTOR, {
      email: 'customer@example.com',
      password: 'customer-password',
      roles: ['customer'],
    });
    const caller = await engine.identity.createUser(SYSTEM_ACTOR, {
      email: 'caller@example.com',
      password: 'caller-password',
      roles: ['customer'],
    });
    const adminToken = (await engine.identity.createApiToken(admin.id, { name: 'table' })).token;
    const customerToken = (await engine.identity.createApiToken(customer.id, { name: 'table' })).token;
    const organization = await api.call('POST', '/organizations', { token: adminToken, body: { name: 'Acme' } });
    const ticket = await api.call('POST', '/tickets', {
      token: adminToken,
      body: { subject: 'Printer on fire', organization: organization.body.id, requester: caller.id },
    });
    const closed = await api.call('POST', '/tickets', { token: adminToken, body: { subject: 'Old and closed', requester: caller.id } });
    await engine.store.db.updateTable('ticket').set({ state: 'closed' }).where('id', '=', closed.body.id).execute();
    expect(
      (await api.call('POST', '/attachments', { token: adminToken, body: { ticket: ticket.body.id, name: 'screenshot.png' } })).status,
    ).toBe(201);
    // Resolved before the customer's open ticket is made: it counted as open until then.
    // (Through ops, not the API: the admin's token has a small rate limit to spend.)
    const asAdmin = { userId: admin.id, email: admin.email, name: admin.name, roles: admin.roles };
    const resolved = await engine.ops.create(asAdmin, 'ticket', {
      subject: 'Resolved long ago',
      requester: customer.id,
      assignee: admin.id,
    });
    await engine.ops.transition(asAdmin, 'ticket', resolved.id, 'start', { version: 1 });
    await engine.ops.transition(asAdmin, 'ticket', resolved.id, 'resolve', { version: 2 });
    const resolvedAt = model.entitiesByName.ticket!.fieldsByName.resolvedAt!.column;
    await engine.store.db
      .updateTable('ticket')
      .set({ [resolvedAt]: new Date(Date.now() - 30 * 86_400_000) })
      .where('id', '=', resolved.id)
      .execute();
    const own = await api.call('POST', '/tickets', { token: customerToken, body: { subject: 'My own ticket' } });
    const memo = await engine.ops.create(asAdmin, 'memo', { title: 'Old plan' });
    await engine.ops.transition(asAdmin, 'memo', memo.id, 'archive', { version: 1 });
    actors = {
      admin: adminToken,
      customer: customerToken,
      callerId: caller.id,
      adminSession: (await engine.identity.createSession(admin.id)).token,
      ticketId: ticket.body.id,
      closedTicketId: closed.body.id,
      organizationId: organization.body.id,
      customerTicketId: own.body.id,
      longResolvedId: resolved.id,
      archivedMemoId: memo.id,
      unreachable: apiClient((unreachableEngine = await openUnreachableEngine(database, model))),
    };
    expect(ticket.status).toBe(201);
    expect(closed.status).toBe(201);
    expect(own.status).toBe(201);
  });

  describe.each(rows.map((row) => [`${row.status} ${row.code}`, row] as const))('%s', (_name, row) => {
    it('answers the catalogue problem and changes nothing stored', async () => {
      const before = await snapshot(
        engine.store.db,
        TABLES.filter((t) => t !== 'nf_api_token'),
      );
      const newToken = async () => {
        const user = await engine.identity.createUser(SYSTEM_ACTOR, {
          email: `limited${(ips += 1)}@example.com`,
          password: 'limited-password',
          roles: ['agent'],
        });
        return (await engine.identity.createApiToken(user.id, { name: 'limited' })).token;
      };
      const answer = await row.send(api, actors, newToken);
      expectProblem(answer, row.status, row.code);
      row.check?.(answer);
      const after = await snapshot(
        engine.store.db,
        TABLES.filter((t) => t !== 'nf_api_token'),
      );
      if (row.code === 'RATE_LIMITED') {
        // The only change is the user made for this row; every record is as it was.
        for (const table of ['ticket', 'organization', 'comment']) expect(after[table]).toEqual(before[table]);
      } else {
        expect(after).toEqual(before);
      }
    });
  });

  it("covers every code of the built-in catalogue, and the spec's own", () => {
    const covered = new Set(rows.map((r) => r.code));
    const all = [...Object.keys(BUILT_IN_ERRORS), ...Object.keys(model.errors)];
    expect(all.filter((code) => !covered.has(code))).toEqual([]);
  });
});
