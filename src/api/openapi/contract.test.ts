import { describe, expect, it } from 'vitest';
import { createContractChecker, type ContractResponse } from './contract';
import { buildOpenApiDocument } from './document';
import { everyFieldModel, helpdeskWithEscalate } from '@testing/api/openapi-fixtures';

const checker = createContractChecker(buildOpenApiDocument(helpdeskWithEscalate));
const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };
const PROBLEM_TYPE = { 'content-type': 'application/problem+json; charset=utf-8' };

const ticket = {
  id: 7,
  version: 3,
  createdAt: '2026-05-01T09:30:00.000Z',
  updatedAt: '2026-05-02T10:00:00.000Z',
  createdBy: 1,
  updatedBy: null,
  state: 'open',
  subject: 'Printer on fire',
  description: null,
  priority: 'urgent',
  organization: 2,
  requester: 1,
  assignee: 4,
  dueAt: null,
  resolvedAt: null,
  slaDueAt: '2025-03-04T14:00:00.000Z',
  replyCount: 2,
  attachments: [
    { id: 3, name: 'shot.png', size: 68, contentType: 'image/png', url: '/api/v1/files/3', thumbnailUrl: '/api/v1/files/3/thumbnail' },
  ],
};

function problem(status: number, code: string, extra: object = {}) {
  return {
    type: `https://ninefold.dev/problems/${code.toLowerCase().replace(/_/g, '-')}`,
    title: code,
    status,
    detail: 'Something.',
    code,
    ...extra,
  };
}

const ok =
  (response: ContractResponse, method = 'GET', url = '/api/v1/tickets/7') =>
  () =>
    checker.check(method, url, response);

describe('the contract checker accepts what the document says', () => {
  it('a record with its ETag', () => {
    expect(
      checker.check('GET', 'http://localhost:3000/api/v1/tickets/7?x=1', {
        status: 200,
        headers: { ...JSON_TYPE, etag: '"3"' },
        body: ticket,
      }),
    ).toEqual({
      path: '/tickets/{id}',
      operationId: 'getTicket',
      status: 200,
    });
  });

  it('a page of records, given as raw JSON text', () => {
    const body = JSON.stringify({ items: [ticket, { ...ticket, id: 8, state: 'new', assignee: null }], nextCursor: 'abc' });
    expect(checker.check('GET', '/api/v1/tickets?limit=2&priority=urgent', { status: 200, headers: JSON_TYPE, body }).operationId).toBe(
      'listTickets',
    );
    expect(checker.check('GET', '/api/v1/tickets', { status: 200, headers: JSON_TYPE, body: { items: [], nextCursor: null } }).status).toBe(
      200,
    );
  });

  it('a created record with Location and ETag, and a delete without a body', () => {
    const headers = { ...JSON_TYPE, location: '/api/v1/tickets/7', etag: '"3"' };
    expect(checker.check('POST', '/api/v1/tickets', { status: 201, headers, body: ticket }).operationId).toBe('createTicket');
    expect(checker.check('DELETE', '/api/v1/tickets/7', { status: 204, headers: {}, body: '' }).operationId).toBe('deleteTicket');
  });

  it('problems with catalogue codes, validation problems with their fields', () => {
    expect(ok({ status: 404, headers: PROBLEM_TYPE, body: problem(404, 'NOT_FOUND') })).not.toThrow();
    const invalid = problem(422, 'VALIDATION_FAILED', { errors: [{ pointer: '/subject', code: 'too_small', detail: 'Too short.' }] });
    expect(ok({ status: 422, headers: PROBLEM_TYPE, body: invalid }, 'POST', '/api/v1/tickets')).not.toThrow();
    expect(ok({ status: 500, headers: PROBLEM_TYPE, body: problem(500, 'INTERNAL', { digest: 'abc123' }) })).not.toThrow();
    expect(ok({ status: 429, headers: { ...PROBLEM_TYPE, 'retry-after': '12' }, body: problem(429, 'RATE_LIMITED') })).not.toThrow();
  });

  it('a custom call before the generic path, with its declared errors', () => {
    const url = '/api/v1/tickets/7/escalate';
    expect(checker.check('POST', url, { status: 200, headers: JSON_TYPE, body: ticket }).operationId).toBe('escalate');
    expect(checker.check('POST', url, { status: 409, headers: PROBLEM_TYPE, body: problem(409, 'TICKET_CLOSED') }).operationId).toBe(
      'escalate',
    );
  });

  it('a literal call path before a template of the generated API', () => {
    const every = createContractChecker(buildOpenApiDocument(everyFieldModel));
    const match = every.check('GET', '/api/v1/line-items/open', {
      status: 200,
      headers: JSON_TYPE,
      body: { count: 2, oldest: '2026-01-31' },
    });
    expect(match).toEqual({ path: '/line-items/open', operationId: 'openItems', status: 200 });
    expect(
      every.check('GET', '/api/v1/line-items/12', { status: 404, headers: PROBLEM_TYPE, body: problem(404, 'NOT_FOUND') }).operationId,
    ).toBe('getLineItem');
  });

  it('the generic answers: an unknown address, an unknown method, OPTIONS', () => {
    expect(checker.check('GET', '/api/v1/nothing-here', { status: 404, headers: PROBLEM_TYPE, body: problem(404, 'NOT_FOUND') })).toEqual({
      path: null,
      operationId: null,
      status: 404,
    });
    const allow = { ...PROBLEM_TYPE, allow: 'GET, PATCH, DELETE, OPTIONS' };
    expect(checker.check('PUT', '/api/v1/tickets/7', { status: 405, headers: allow, body: problem(405, 'METHOD_NOT_ALLOWED') }).path).toBe(
      '/tickets/{id}',
    );
    expect(checker.check('OPTIONS', '/api/v1/tickets', { status: 204, headers: new Headers({ allow: 'GET, POST, OPTIONS' }) }).status).toBe(
      204,
    );
    const limited = { status: 429, headers: { ...PROBLEM_TYPE, 'retry-after': '3' }, body: problem(429, 'RATE_LIMITED') };
    expect(checker.check('GET', '/api/v1/nothing-here', limited).path).toBeNull();
    expect(checker.check('PUT', '/api/v1/tickets/7', limited).path).toBe('/tickets/{id}');
  });

  it('paths as the REST door reads them: decoded segments, no empty ones', () => {
    expect(
      checker.check('GET', '/api/v1/tick%65ts/%37', { status: 404, headers: PROBLEM_TYPE, body: problem(404, 'NOT_FOUND') }).operationId,
    ).toBe('getTicket');
    expect(
      checker.check('GET', '/api/v1/tickets/', { status: 404, headers: PROBLEM_TYPE, body: problem(404, 'NOT_FOUND') }).operationId,
    ).toBeNull();
    expect(
      checker.check('GET', '/api/v1/tickets//7', { status: 404, headers: PROBLEM_TYPE, body: problem(404, 'NOT_FOUND') }).operationId,
    ).toBeNull();
  });

  it('a fetch Response, leaving its body readable', async () => {
    const response = new Response(JSON.stringify(ticket), { status: 200, headers: { ...JSON_TYPE, etag: '"3"' } });
    const { match, body } = await checker.checkResponse('GET', '/api/v1/tickets/7', response);
    expect(match.operationId).toBe('getTicket');
    expect(body).toEqual(ticket);
    expect(await response.json()).toEqual(ticket);
  });
});

describe('the contract checker refuses what the document does not say', () => {
  const record = (body: unknown) => ok({ status: 200, headers: { ...JSON_TYPE, etag: '"3"' }, body });

  it('a record missing a property', () => {
    const { version: _, ...withoutVersion } = ticket;
    expect(record(withoutVersion)).toThrow(
      /getTicket\) → 200: the body does not match Ticket:\n {2}\(the body\) must have required property 'version'/,
    );
  });

  it('a property of the wrong type, or a value outside its enum', () => {
    expect(record({ ...ticket, id: '7' })).toThrow(/\/id must be integer/);
    expect(record({ ...ticket, createdAt: new Date(0) })).toThrow(/\/createdAt must be string/);
    expect(record({ ...ticket, dueAt: 'tomorrow' })).toThrow(/\/dueAt must match format "date-time"/);
    expect(record({ ...ticket, priority: 'meh' })).toThrow(
      /\/priority must be equal to one of the allowed values: \["low","normal","high","urgent"\]/,
    );
    expect(record({ ...ticket, subject: null })).toThrow(/\/subject must be string/);
  });

  it('a property the document does not have', () => {
    expect(record({ ...ticket, passwordHash: 'x' })).toThrow(/must NOT have additional properties: "passwordHash"/);
  });

  it('an undocumented status', () => {
    expect(ok({ status: 409, headers: PROBLEM_TYPE, body: problem(409, 'STALE_VERSION') })).toThrow(
      'GET /api/v1/tickets/7 (getTicket): status 409 (STALE_VERSION) is not documented; documented: 200, 401, 403, 404, 422, 429, 500, 503.',
    );
    expect(ok({ status: 302, headers: {}, body: '' })).toThrow(/status 302 is not documented/);
  });

  it('a code that does not belong to the status', () => {
    expect(ok({ status: 404, headers: PROBLEM_TYPE, body: problem(404, 'FORBIDDEN') })).toThrow(
      /\/code must be equal to one of the allowed values: \["NOT_FOUND"\]/,
    );
    expect(ok({ status: 404, headers: PROBLEM_TYPE, body: problem(403, 'NOT_FOUND') })).toThrow(/\/status must be equal to constant: 404/);
    expect(ok({ status: 500, headers: PROBLEM_TYPE, body: problem(500, 'INTERNAL', { stack: 'at db.ts:12' }) })).toThrow(
      /additional properties: "stack"/,
    );
  });

  it('a wrong content type, or none', () => {
    expect(ok({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8', etag: '"3"' }, body: '<html>' })).toThrow(
      'GET /api/v1/tickets/7 (getTicket) → 200: content-type is text/html; charset=utf-8, but the document says application/json.',
    );
    expect(ok({ status: 404, headers: JSON_TYPE, body: problem(404, 'NOT_FOUND') })).toThrow(
      /but the document says application\/problem\+json/,
    );
    expect(ok({ status: 200, headers: { etag: '"3"' }, body: ticket })).toThrow(/no content-type header/);
    expect(ok({ status: 200, headers: { 'content-type': 'application/json; charset=latin1', etag: '"3"' }, body: ticket })).toThrow(
      /UTF-8/,
    );
    expect(ok({ status: 200, headers: { ...JSON_TYPE, etag: '"3"' }, body: '{"id": ' })).toThrow(/the body is not JSON/);
  });

  it('a missing or wrong header', () => {
    expect(ok({ status: 201, headers: { ...JSON_TYPE, etag: '"3"' }, body: ticket }, 'POST', '/api/v1/tickets')).toThrow(
      /the header Location is missing/,
    );
    expect(record(ticket)).not.toThrow();
    expect(ok({ status: 200, headers: JSON_TYPE, body: ticket })).toThrow(/the header ETag is missing/);
    expect(ok({ status: 200, headers: { ...JSON_TYPE, etag: 'W/"3"' }, body: ticket })).toThrow(
      /the header ETag is "W\/\\"3\\"", which does not match/,
    );
    expect(ok({ status: 200, headers: { ...JSON_TYPE, etag: '"2"' }, body: ticket })).toThrow(/ETag "2" is not the record's version "3"/);
    expect(ok({ status: 429, headers: PROBLEM_TYPE, body: problem(429, 'RATE_LIMITED') })).toThrow(/the header Retry-After is missing/);
  });

  it('a body where the document says none', () => {
    expect(ok({ status: 204, headers: JSON_TYPE, body: { deleted: true } }, 'DELETE')).toThrow(/the document says no body/);
  });

  it('an address or method the document does not know', () => {
    expect(ok({ status: 200, headers: JSON_TYPE, body: {} }, 'GET', '/api/v1/nothing-here')).toThrow(
      'GET /api/v1/nothing-here → 200: no path of the document matches /nothing-here.',
    );
    expect(ok({ status: 200, headers: JSON_TYPE, body: {} }, 'PUT')).toThrow(
      '/tickets/{id} has no PUT operation (it has GET, PATCH, DELETE)',
    );
    expect(ok({ status: 405, headers: PROBLEM_TYPE, body: problem(405, 'METHOD_NOT_ALLOWED') }, 'PUT')).toThrow(
      /the Allow header is missing/,
    );
    expect(ok({ status: 405, headers: { ...PROBLEM_TYPE, allow: 'GET' }, body: problem(405, 'METHOD_NOT_ALLOWED') }, 'PUT')).toThrow(
      /also has PATCH, DELETE/,
    );
    expect(ok({ status: 200, headers: JSON_TYPE, body: {} }, 'GET', '/health')).toThrow(/not an address of this API/);
    expect(ok({ status: 200, headers: JSON_TYPE, body: { items: [], nextCursor: null } }, 'GET', '/api/v1/tickets/')).toThrow(
      /no path of the document matches \/tickets\//,
    );
    expect(ok({ status: 429, headers: PROBLEM_TYPE, body: problem(429, 'RATE_LIMITED') }, 'GET', '/api/v1/nothing-here')).toThrow(
      /Retry-After is missing/,
    );
  });

  it("an output that is not the call's", () => {
    expect(ok({ status: 200, headers: JSON_TYPE, body: { ...ticket, state: 'lost' } }, 'POST', '/api/v1/tickets/7/escalate')).toThrow(
      /POST \/api\/v1\/tickets\/7\/escalate \(escalate\) → 200: the body does not match Ticket/,
    );
  });
});
