/**
 * Property-based fuzzing of the whole REST door: thousands of malformed, hostile or merely odd
 * requests across every endpoint. Whatever arrives, the answer is never a 5xx, every error is a
 * catalogue code in problem+json, and every answer matches the OpenAPI document.
 */
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/ninefold.spec';
import { BUILT_IN_ERRORS } from '@/engine/errors/catalogue';
import type { Engine } from '@/engine/engine';
import { buildModel } from '@/engine/spec/build';
import { defineApp } from '@/engine/spec/define';
import { forEachDatabase } from '@testing/engine/store';
import { apiClient, openTestEngine, type ApiClient } from '@testing/api/api';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

const RUNS_PER_DATABASE = 10_000;

// Rate limits would answer 429 to most of the run and hide everything else; they have their own tests.
const model = buildModel(
  defineApp({
    ...helpdesk,
    constants: { ...helpdesk.constants, apiRateLimitPerMinute: { value: 1_000_000 }, apiRateLimitPerIpPerMinute: { value: 1_000_000 } },
  }),
);
const CODES = new Set([...Object.keys(BUILT_IN_ERRORS), ...Object.keys(model.errors)]);

const hostile = fc.constantFrom(
  "' OR 1=1 --",
  '"; DROP TABLE ticket; --',
  'subject) values (1); --',
  '$1',
  '%00',
  '\u0000',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '𝕳𝖊𝖑𝖑𝖔 🙂',
  '\uD800',
  'ǅ\u202Eevil',
  '9'.repeat(40),
  '-1',
  '0',
  '1e309',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  ' ',
  'a'.repeat(5000),
);
/** Percent-encodes, and writes a lone surrogate as the invalid UTF-8 it would be (a case of its own). */
function encode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
}

const text = fc.oneof(hostile, fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }));
// Weighted towards the real endpoints and ids, so that most requests reach validation and the database.
const id = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('1', '2', '3', '4') },
  { weight: 2, arbitrary: fc.constantFrom('999999999', '0', '-5', '1.5', '9007199254740993', 'abc', '1e3', '0x10') },
  { weight: 1, arbitrary: text.map(encode) },
);
const resource = fc.oneof(
  { weight: 9, arbitrary: fc.constantFrom('tickets', 'organizations', 'comments') },
  { weight: 1, arbitrary: fc.constantFrom('users', 'nf_user', 'ticket', '') },
);
const transitionName = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('start', 'wait', 'reply', 'resolve', 'reopen', 'close') },
  { weight: 1, arbitrary: fc.oneof(fc.constantFrom('teleport', 'Start', 'history'), text.map(encode)) },
);
const path = fc.oneof(
  { weight: 4, arbitrary: resource.map((r) => `/${r}`) },
  { weight: 5, arbitrary: fc.tuple(resource, id).map(([r, i]) => `/${r}/${i}`) },
  { weight: 2, arbitrary: id.map((i) => `/tickets/${i}/escalate`) },
  {
    weight: 3,
    arbitrary: fc.oneof(
      fc.tuple(id, transitionName).map(([i, t]) => `/tickets/${i}/transitions/${t}`),
      transitionName.map((t) => `/tickets/transitions/${t}`),
      fc.tuple(resource, id).map(([r, i]) => `/${r}/${i}/history`),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '/auth/me',
      '/auth/sign-in',
      '/auth/sign-out',
      '/openapi.json',
      '/',
      '//tickets',
      '/tickets/',
      '/tickets/1/history',
      '/tickets/1/transitions/start',
    ),
  },
  { weight: 1, arbitrary: fc.tuple(text, text).map(([a, b]) => `/${encode(a)}/${encode(b)}`) },
);
/** Names every object answers for without declaring them: a client may send any of them as a name. */
const INHERITED_NAMES = Object.getOwnPropertyNames(Object.prototype);
const inheritedName = fc.constantFrom(...INHERITED_NAMES);
const queryKey = fc.oneof(
  fc.constantFrom(
    'sort',
    'limit',
    'cursor',
    'q',
    'priority',
    'state',
    'organization',
    'assignee',
    'internal',
    'tier',
    'subject',
    'version',
  ),
  inheritedName,
  text,
);
const queryValue = fc.oneof(
  text,
  fc.constantFrom(
    '-priority',
    'priority,-subject',
    'subject,subject',
    '-',
    ',',
    'urgent',
    'open',
    'true',
    '100',
    '101',
    '1000000',
    'eyJzIjoiLXVwZGF0ZWRBdCIsInYiOlsxXSwiaSI6MX0',
  ),
);
const query = fc.array(fc.tuple(queryKey, queryValue), { maxLength: 4 }).map((pairs) => {
  const search = new URLSearchParams();
  for (const [k, v] of pairs) search.append(k, v);
  const s = search.toString();
  return s ? `?${s}` : '';
});
const fieldName = fc.oneof(
  fc.constantFrom(
    'subject',
    'description',
    'priority',
    'organization',
    'requester',
    'assignee',
    'dueAt',
    'resolvedAt',
    'state',
    'id',
    'version',
    'name',
    'domain',
    'tier',
    'ticket',
    'body',
    'internal',
    'reason',
  ),
  inheritedName,
);
const jsonValue = fc.oneof(
  text,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.constant({ nested: true }),
  fc.bigInt().map(String),
);
// Nearly right bodies get past the first checks, so the deeper ones (and the database) are fuzzed too.
const plausibleOf = (fields: Record<string, fc.Arbitrary<unknown>>) =>
  fc.record(fields, { requiredKeys: [] }).map((o) => JSON.stringify(o));
/** The customer made after the admin (user 1): the requester of a ticket staff file (a ticket's requester is a customer). */
const CUSTOMER_ID = 2;
const ticketBody = plausibleOf({
  subject: fc.oneof(fc.constant('Printer jam again'), text),
  requester: fc.oneof({ weight: 3, arbitrary: fc.constant(CUSTOMER_ID) }, fc.constant(1), jsonValue),
  priority: fc.constantFrom('low', 'normal', 'urgent', 'URGENT', ''),
  description: text,
  organization: fc.oneof(fc.constantFrom(1, 2, null), jsonValue),
  dueAt: fc.oneof(fc.constantFrom('2031-01-01T10:00', '2031-02-30T10:00', '2031-01-01T10:00:00+02:00'), text),
  version: fc.oneof(fc.constantFrom(1, 2), jsonValue),
});
const organizationBody = plausibleOf({
  name: fc.oneof(fc.constant('Acme'), text),
  domain: fc.oneof(fc.constant('acme.test'), text),
  tier: fc.constantFrom('standard', 'premium', 'gold'),
});
const commentBody = plausibleOf({
  ticket: fc.oneof(fc.constantFrom(1, 2, 3), jsonValue),
  body: fc.oneof(fc.constant('A comment'), text),
  internal: fc.oneof(fc.boolean(), jsonValue),
});
// Transitions of one record and of many: version, comment, input, items.
const transitionBody = plausibleOf({
  version: fc.oneof(fc.constantFrom(1, 2, 3), jsonValue),
  comment: fc.oneof(fc.constant('Done'), text, jsonValue),
  input: fc.oneof(
    fc.record({ assignee: fc.oneof(fc.constantFrom(1, 2), jsonValue), priority: fc.constantFrom('low', 'urgent') }, { requiredKeys: [] }),
    jsonValue,
  ),
});
const bulkTransitionBody = plausibleOf({
  items: fc.oneof(
    fc.array(
      fc.record(
        { id: fc.oneof(fc.constantFrom(1, 2, 3, 4), jsonValue), version: fc.oneof(fc.constantFrom(1, 2), jsonValue) },
        { requiredKeys: [] },
      ),
      { maxLength: 4 },
    ),
    jsonValue,
  ),
  comment: fc.oneof(fc.constant('Bulk'), text),
  input: fc.oneof(fc.constant({ assignee: 1 }), jsonValue),
});
const plausible = fc.oneof(
  ticketBody,
  organizationBody,
  commentBody,
  plausibleOf({ reason: fc.oneof(fc.constant('Customer is blocked'), text) }),
  transitionBody,
  bulkTransitionBody,
);
const body = fc.oneof(
  fc.constant(undefined),
  { weight: 3, arbitrary: plausible },
  fc.dictionary(fieldName, jsonValue, { maxKeys: 5 }).map((o) => JSON.stringify(o)),
  fc.json({ maxDepth: 2 }),
  fc.constantFrom('{', '{"subject":', '[1,2', 'null', '"just a string"', '', '\u0000', '{"subject": "x"}garbage', '{"a":1,"a":2}'),
);
const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/merge-patch+json',
      '',
    ),
  },
);
const method = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH') },
  { weight: 1, arbitrary: fc.constantFrom('DELETE', 'PUT', 'OPTIONS', 'HEAD') },
);
const ifMatch = fc.option(fc.oneof(fc.constantFrom('"1"', 'W/"1"', '1', '*', '"x"', '""', '"99999999999999999999"'), text), {
  nil: undefined,
});
const auth = fc.oneof(
  { weight: 6, arbitrary: fc.constant('token') },
  { weight: 1, arbitrary: fc.constantFrom('none', 'bad-token', 'session-no-origin') },
);

const anyRequest = fc.record({ method, path, query, body, contentType, ifMatch, auth });
// Requests whose method, path and body belong together, so that creations and transitions succeed
// often enough to be fuzzed past validation (independently drawn parts rarely line up: ~5 in 10,000).
const fitting = (pairs: [string, fc.Arbitrary<string>][]) =>
  fc.oneof(
    ...pairs.map(([p, b]) =>
      fc.record({
        method: fc.constant('POST'),
        path: fc.constant(p),
        query: fc.constant(''),
        body: b,
        contentType: fc.constant('application/json'),
        ifMatch: fc.constant(undefined),
        auth: fc.constant('token'),
      }),
    ),
  );
const fittingRequest = fc.oneof(
  fitting([
    ['/tickets', ticketBody],
    ['/organizations', organizationBody],
    ['/comments', commentBody],
  ]),
  fc.tuple(id, transitionName, transitionBody).map(([i, t, b]) => ({
    method: 'POST',
    path: `/tickets/${i}/transitions/${t}`,
    query: '',
    body: b,
    contentType: 'application/json',
    ifMatch: undefined,
    auth: 'token',
  })),
  fc.tuple(transitionName, bulkTransitionBody).map(([t, b]) => ({
    method: 'POST',
    path: `/tickets/transitions/${t}`,
    query: '',
    body: b,
    contentType: 'application/json',
    ifMatch: undefined,
    auth: 'token',
  })),
);
const request = fc.oneof({ weight: 9, arbitrary: anyRequest }, { weight: 1, arbitrary: fittingRequest });

forEachDatabase('API fuzzing', (database) => {
  let engine: Engine;
  let api: ApiClient;
  let token: string;
  let session: string;

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    const admin = await engine.identity.createUser(SYSTEM_ACTOR, {
      email: 'fuzz@example.com',
      password: 'fuzz-password',
      roles: ['admin'],
    });
    const customer = await engine.identity.createUser(SYSTEM_ACTOR, {
      email: 'fuzz-customer@example.com',
      password: 'fuzz-password',
      roles: ['customer'],
    });
    expect(customer.id).toBe(CUSTOMER_ID);
    token = (await engine.identity.createApiToken(admin.id, { name: 'fuzz' })).token;
    session = (await engine.identity.createSession(admin.id)).token;
    for (let i = 1; i <= 4; i++) {
      const organization = await api.call('POST', '/organizations', { token, body: { name: `Fuzz Corp ${i}` } });
      const ticket = await api.call('POST', '/tickets', {
        token,
        body: { subject: `Fuzz ticket ${i}`, organization: organization.body.id, requester: CUSTOMER_ID },
      });
      expect(ticket.status, ticket.text).toBe(201);
      await api.call('POST', '/comments', { token, body: { ticket: ticket.body.id, body: `Comment ${i}` } });
    }
  });

  it(`answers ${RUNS_PER_DATABASE} malformed requests without a 5xx, always in the catalogue`, async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers: Record<string, string> = {};
        if (r.contentType) headers['content-type'] = r.contentType;
        if (r.ifMatch !== undefined) headers['if-match'] = r.ifMatch.replace(/[^\t\x20-\x7e]/g, '');
        if (r.auth === 'bad-token') headers.authorization = 'Bearer nf_not-a-real-token';
        const answer = await api.call(r.method, `${r.path}${r.query}`, {
          headers,
          ...(r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD' ? { body: r.body } : {}),
          ...(r.auth === 'token' ? { token } : {}),
          ...(r.auth === 'session-no-origin' ? { session } : {}),
        });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        expect(answer.status, `${r.method} ${r.path}${r.query} → ${answer.text.slice(0, 300)}`).toBeLessThan(500);
        if (answer.status >= 400 && r.method !== 'HEAD') {
          expect(answer.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
          expect(CODES.has(answer.body.code), `unknown code ${answer.body.code}`).toBe(true);
          expect(answer.body.status).toBe(answer.status);
          expect(answer.text).not.toMatch(/\bat .+\.(ts|js):\d+|syntax error at or near|relation "|violates/);
        }
      }),
      { numRuns: RUNS_PER_DATABASE },
    );
    // The run reached far: successes and many kinds of refusal, not one status over and over.
    expect([...statuses.keys()].filter((s) => s < 300).length).toBeGreaterThan(0);
    expect([...statuses.keys()].filter((s) => s >= 400).length).toBeGreaterThanOrEqual(6);
    expect(statuses.get(201) ?? 0).toBeGreaterThan(0);
  }, 300_000);

  it('refuses a name objects inherit (constructor, __proto__, toString...) as an unknown field wherever a body names fields', async () => {
    // A nearly right body with one such name put among its keys: as JSON.parse reads it, `__proto__` is an own key.
    const withInherited = (body: fc.Arbitrary<string>) =>
      fc.tuple(body, inheritedName, fc.nat()).map(([json, name, at]) => {
        const entries = Object.entries(JSON.parse(json) as Record<string, unknown>);
        entries.splice(at % (entries.length + 1), 0, [name, 'x']);
        return { name, body: JSON.stringify(Object.fromEntries(entries)) };
      });
    const creation = fc.oneof(
      ...(
        [
          ['/tickets', ticketBody],
          ['/organizations', organizationBody],
          ['/comments', commentBody],
        ] as const
      ).map(([path, body]) => withInherited(body).map((sent) => ({ ...sent, path, pointer: `/${sent.name}` }))),
    );
    // A ticket of its own, still new at version 1: every transition below is refused, so it stays so.
    const fresh = await api.call('POST', '/tickets', { token, body: { subject: 'Inherited names', requester: CUSTOMER_ID } });
    expect(fresh.status, fresh.text).toBe(201);
    const transitionInput = fc.tuple(inheritedName, fc.constantFrom(1, 2)).map(([name, assignee]) => ({
      name,
      path: `/tickets/${fresh.body.id}/transitions/start`,
      body: JSON.stringify({
        version: 1,
        input: Object.fromEntries([
          ['assignee', assignee],
          [name, 'x'],
        ]),
      }),
      pointer: `/${name}`,
    }));
    await fc.assert(
      fc.asyncProperty(fc.oneof(creation, transitionInput), async ({ path, body, pointer }) => {
        const answer = await api.call('POST', path, { token, body });
        expect(answer.status, `${path} ${body} → ${answer.text.slice(0, 300)}`).toBe(422);
        expect(answer.body.errors).toContainEqual({ pointer, code: 'unknown_field', detail: expect.any(String) });
      }),
      { numRuns: 500 },
    );
  }, 300_000);
});
