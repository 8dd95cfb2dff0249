import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import crm from '../../../examples/crm/ninefold.spec';
import seed from '../../../examples/seed/ninefold.spec';
import { BUILT_IN_ERRORS } from '@/engine/errors/catalogue';
import { buildModel } from '@/engine/spec/build';
import type { AppModel } from '@/engine/spec/model';
import { buildOpenApiDocument } from './document';
import { catalogue } from './errors';
import { everyFieldModel, helpdeskModel, helpdeskWithEscalate } from '@testing/api/openapi-fixtures';
import { HTTP_METHODS, type JsonSchema, type OpenApiDocument, type OperationObject } from './types';

const seedModel = buildModel(seed);

const documents: [string, AppModel][] = [
  ['helpdesk', helpdeskModel],
  ['helpdesk with escalate', helpdeskWithEscalate],
  ['seed', seedModel],
  ['crm', buildModel(crm)],
  ['every field type', everyFieldModel],
];

function operations(document: OpenApiDocument): [string, string, OperationObject][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => (item[method] ? [[path, method, item[method]] as [string, string, OperationObject]] : [])),
  );
}

function schema(document: OpenApiDocument, name: string): JsonSchema {
  const found = document.components.schemas[name];
  if (!found) throw new Error(`no schema ${name}`);
  return found;
}

describe.each(documents)('the OpenAPI document of %s', (_, model) => {
  const document = buildOpenApiDocument(model);

  it('is valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(JSON.parse(JSON.stringify(document)));
    if (!result.valid) console.error(JSON.stringify(result.errors, null, 2));
    expect(result.valid).toBe(true);
  });

  it('has schemas that are valid JSON Schema 2020-12 (strict)', () => {
    // Each component on its own address, so that strict mode sees nothing but schemas.
    const base = 'https://example.invalid/schemas/';
    const anchored = (value: JsonSchema) => JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', `"${base}`)) as object;
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    addFormats(ajv);
    for (const [name, value] of Object.entries(document.components.schemas)) ajv.addSchema({ ...anchored(value), $id: `${base}${name}` });
    for (const name of Object.keys(document.components.schemas)) {
      expect(() => ajv.getSchema(`${base}${name}`), name).not.toThrow();
    }
    for (const [path, method, operation] of operations(document)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const media of Object.values(response.content ?? {})) {
          expect(() => ajv.compile(anchored(media.schema)), `${method} ${path} ${status}`).not.toThrow();
        }
      }
      for (const parameter of [...(operation.parameters ?? []), ...(document.paths[path]!.parameters ?? [])]) {
        expect(() => ajv.compile(anchored(parameter.schema)), `${method} ${path} ${parameter.name}`).not.toThrow();
      }
      const body = operation.requestBody?.content['application/json']?.schema;
      if (body) expect(() => ajv.compile(anchored(body)), `${method} ${path} body`).not.toThrow();
    }
  });

  it('is plain JSON, and the same every time', () => {
    expect(JSON.parse(JSON.stringify(document))).toStrictEqual(document);
    expect(JSON.stringify(buildOpenApiDocument(model))).toBe(JSON.stringify(document));
  });

  it('gives every entity its five operations and four schemas', () => {
    for (const entity of model.entities) {
      expect(Object.keys(document.paths[`/${entity.plural}`]!).sort()).toEqual(['get', 'post']);
      expect(Object.keys(document.paths[`/${entity.plural}/{id}`]!).sort()).toEqual(['delete', 'get', 'parameters', 'patch']);
    }
  });

  it('documents only catalogue codes, each under its own status', () => {
    const known = catalogue(model);
    for (const [path, method, operation] of operations(document)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        expect(response['x-error-codes'], `${method} ${path} ${status}`).toBeDefined();
        for (const code of response['x-error-codes']!) {
          expect(known.get(code)?.status, `${method} ${path}: ${code}`).toBe(Number(status));
        }
        expect(Object.keys(response.content!)).toEqual(['application/problem+json']);
      }
      expect(operation.responses['500']?.['x-error-codes']).toEqual(['INTERNAL']);
      expect(operation.responses['429']?.['x-error-codes']).toEqual(['RATE_LIMITED']);
    }
    expect(schema(document, 'Problem').properties!.code!.enum).toEqual([...known.keys()]);
    expect(document['x-error-catalogue']).toEqual(
      [...known].map(([code, e]) => ({ code, status: e.status, title: e.title, message: e.message })),
    );
  });

  it('needs a cookie or a token everywhere but sign-in, sign-out and the document itself', () => {
    expect(document.security).toEqual([{ cookieAuth: [] }, { bearerAuth: [] }]);
    expect(document.components.securitySchemes).toMatchObject({
      cookieAuth: { type: 'apiKey', in: 'cookie', name: 'nf_session' },
      bearerAuth: { type: 'http', scheme: 'bearer' },
    });
    const open = operations(document).filter(([, , operation]) => operation.security !== undefined);
    expect(open.map(([path, method, operation]) => [path, method, operation.security])).toEqual([
      ['/auth/sign-in', 'post', []],
      ['/auth/sign-out', 'post', [{}, { cookieAuth: [] }, { bearerAuth: [] }]],
      ['/openapi.json', 'get', []],
    ]);
    for (const [path, method, operation] of operations(document)) {
      if (path === '/openapi.json' || path === '/auth/sign-out') expect(operation.responses['401'], `${method} ${path}`).toBeUndefined();
      else expect(operation.responses['401']?.['x-error-codes'], `${method} ${path}`).toContain('UNAUTHENTICATED');
    }
  });

  it('gives each operation a unique id and known tags', () => {
    const ids = operations(document).map(([, , operation]) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = document.tags.map((tag) => tag.name);
    for (const [, , operation] of operations(document)) expect(tags).toEqual(expect.arrayContaining([...operation.tags]));
  });
});

describe('the helpdesk document', () => {
  const document = buildOpenApiDocument(helpdeskModel);

  it('names the API after the spec and points at /api/v1', () => {
    expect(document.openapi).toBe('3.1.1');
    expect(document.info.title).toBe('Helpdesk');
    expect(document.info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(document.info.description).toContain('Customers open tickets');
    expect(document.info.description).toContain('npm run ninefold -- token create');
    expect(document.servers).toEqual([{ url: '/api/v1' }]);
    const calls = Object.keys(helpdeskModel.calls).length > 0 ? ['calls'] : [];
    expect(document.tags.map((t) => t.name)).toEqual(['organizations', 'tickets', 'comments', 'auth', 'inbox', 'files', ...calls]);
  });

  it('describes a ticket as the wire sends it', () => {
    const ticket = schema(document, 'Ticket');
    expect(Object.keys(ticket.properties!)).toEqual([
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
    // Hidden from customers (their records leave them out), so not required.
    expect(ticket.required).toEqual(Object.keys(ticket.properties!).filter((name) => name !== 'organization' && name !== 'assignee'));
    expect(ticket.additionalProperties).toBe(false);
    expect(ticket.properties!.state).toMatchObject({
      type: 'string',
      enum: ['new', 'open', 'pending', 'resolved', 'closed'],
      readOnly: true,
    });
    expect(ticket.properties!.subject).toMatchObject({ type: 'string', minLength: 3, maxLength: 200 });
    expect(ticket.properties!.description).toMatchObject({ type: ['string', 'null'], maxLength: 20000 });
    expect(ticket.properties!.priority).toMatchObject({ type: 'string', enum: ['low', 'normal', 'high', 'urgent'] });
    expect(ticket.properties!.organization).toMatchObject({ type: ['integer', 'null'] });
    expect(ticket.properties!.requester).toMatchObject({ type: 'integer' });
    expect(ticket.properties!.dueAt).toMatchObject({ type: ['string', 'null'], format: 'date-time' });
    expect(ticket.properties!.resolvedAt).toMatchObject({ readOnly: true });
    expect(ticket.properties!.slaDueAt).toMatchObject({ type: ['string', 'null'], format: 'date-time', readOnly: true });
    expect(ticket.properties!.slaDueAt!.description).toContain('Set by the server, computed: createdAt + slaHours (hours per priority)');
    expect(ticket.properties!.createdBy).toMatchObject({ type: ['integer', 'null'] });
    expect(ticket.properties!.replyCount).toMatchObject({ type: ['integer', 'null'], readOnly: true });
    expect(ticket.properties!.replyCount!.description).toBe(
      'Set by the server, derived: the number of comments of the ticket where internal is false (0 when none), kept by the engine in the same transaction as every write of them.',
    );
  });

  it('asks a create body for the writable fields, requiring those without a default', () => {
    const create = schema(document, 'TicketCreate');
    expect(Object.keys(create.properties!)).toEqual([
      'subject',
      'description',
      'priority',
      'organization',
      'requester',
      'assignee',
      'dueAt',
      'attachments',
    ]);
    expect(create.required).toEqual(['subject']);
    expect(create.additionalProperties).toBe(false);
    expect(create.properties!.priority!.default).toBe('normal');
    expect(schema(document, 'OrganizationCreate').required).toEqual(['name']);
    expect(schema(document, 'CommentCreate').required).toEqual(['ticket', 'body']);
  });

  it('lets an update body change any writable field and carry the version', () => {
    const update = schema(document, 'TicketUpdate');
    expect(Object.keys(update.properties!)).toEqual([
      'subject',
      'description',
      'priority',
      'organization',
      'requester',
      'assignee',
      'dueAt',
      'attachments',
      'version',
    ]);
    expect(update.required).toBeUndefined();
    expect(update.properties!.version).toMatchObject({ type: 'integer', minimum: 1 });
    const patch = document.paths['/tickets/{id}']!.patch!;
    expect(patch.parameters).toEqual([expect.objectContaining({ name: 'If-Match', in: 'header' })]);
    expect(patch.parameters![0]!.required).toBeUndefined();
    expect(patch.responses['428']!['x-error-codes']).toEqual(['PRECONDITION_REQUIRED']);
    expect(patch.responses['409']!['x-error-codes']).toEqual(['STALE_VERSION', 'TICKET_CLOSED']);
    expect(patch.description).toContain('Ticket records in a final state (Closed) are frozen: a change is refused with TICKET_CLOSED.');
  });

  it("says what creating a comment does to its ticket: refused on a closed one, the requester's reply taken", () => {
    const post = document.paths['/comments']!.post!;
    expect(post.responses['409']!['x-error-codes']).toEqual(['TICKET_CLOSED', 'TRANSITION_NOT_ALLOWED']);
    expect(post.description).toContain('Refused with TICKET_CLOSED when its ticket is Closed.');
    expect(post.description).toContain(
      'Created by the ticket\'s requester, it also takes the first of the ticket\'s "Reply", "Reopen" transitions available to them, in the same transaction.',
    );
    expect(post.description).toContain(
      'The parameter replyWith (wait or resolve) takes that ticket transition instead, in the same transaction',
    );
    expect(post.parameters).toEqual([
      expect.objectContaining({ name: 'replyWith', in: 'query', schema: { type: 'string', enum: ['wait', 'resolve'] } }),
    ]);
    expect(document.paths['/tickets']!.post!.parameters).toBeUndefined();
  });

  it('offers search, sort, limit, cursor and a filter per filterable field on lists', () => {
    const list = document.paths['/tickets']!.get!;
    const params = Object.fromEntries(list.parameters!.map((p) => [p.name, p]));
    expect(Object.keys(params)).toEqual(
      ['q', 'sort', 'limit', 'cursor', 'priority', 'organization', 'requester', 'assignee', 'slaDueAt', 'internal', 'state'].filter(
        (n) => n !== 'internal',
      ),
    );
    expect(params.sort!.description).toContain(
      'subject, priority, organization, requester, assignee, dueAt, resolvedAt, slaDueAt, replyCount, state, id, createdAt, updatedAt',
    );
    expect(params.sort!.description).toContain('Default: -updatedAt');
    expect(params.limit!.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 50 });
    expect(params.priority!.schema).toEqual({ type: 'string', enum: ['low', 'normal', 'high', 'urgent'] });
    expect(params.state!.schema).toEqual({ type: 'string', enum: ['new', 'open', 'pending', 'resolved', 'closed'] });
    expect(params.organization!.schema).toEqual({ type: 'integer', minimum: 1 });
    expect(params.slaDueAt!.schema).toEqual({ type: 'string', enum: ['overdue', 'due24h'] });
    expect(params.slaDueAt!.description).toBe(
      'Only records whose SLA due has passed and not yet done (`overdue`), or falls within the next 24 hours and not yet done (`due24h`).',
    );
    const commentParams = document.paths['/comments']!.get!.parameters!.map((p) => p.name);
    expect(commentParams).toEqual(['q', 'sort', 'limit', 'cursor', 'ticket', 'internal']);
    const sort = new RegExp(params.sort!.schema.pattern!);
    expect(['-priority,subject', 'state', '-updatedAt,-id,dueAt'].every((s) => sort.test(s))).toBe(true);
    expect(['description', 'subject,', '-a', 'id,id,id,id'].some((s) => sort.test(s))).toBe(false);
    expect(list.responses['200']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/TicketList' });
  });

  it('documents every error each record operation can answer with', () => {
    const codes = (path: string, method: 'get' | 'post' | 'patch' | 'delete') =>
      Object.values(document.paths[path]![method]!.responses)
        .flatMap((r) => r['x-error-codes'] ?? [])
        .sort();
    expect(codes('/tickets', 'get')).toEqual([
      'FORBIDDEN',
      'FORBIDDEN_FIELD',
      'INTERNAL',
      'RATE_LIMITED',
      'SERVICE_UNAVAILABLE',
      'UNAUTHENTICATED',
      'VALIDATION_FAILED',
    ]);
    expect(codes('/tickets/{id}', 'get')).toEqual([
      'FORBIDDEN',
      'INTERNAL',
      'NOT_FOUND',
      'RATE_LIMITED',
      'SERVICE_UNAVAILABLE',
      'UNAUTHENTICATED',
      'VALIDATION_FAILED',
    ]);
    expect(codes('/tickets', 'post')).toEqual([
      'FORBIDDEN',
      'FORBIDDEN_FIELD',
      'INTERNAL',
      'LIMIT_EXCEEDED',
      'PAYLOAD_TOO_LARGE',
      'RATE_LIMITED',
      'SERVICE_UNAVAILABLE',
      'UNAUTHENTICATED',
      'UNSUPPORTED_MEDIA_TYPE',
      'VALIDATION_FAILED',
    ]);
    expect(codes('/tickets/{id}', 'patch')).toEqual([
      'FORBIDDEN',
      'FORBIDDEN_FIELD',
      'INTERNAL',
      'LIMIT_EXCEEDED',
      'NOT_FOUND',
      'PAYLOAD_TOO_LARGE',
      'PRECONDITION_REQUIRED',
      'RATE_LIMITED',
      'SERVICE_UNAVAILABLE',
      'STALE_VERSION',
      'TICKET_CLOSED',
      'UNAUTHENTICATED',
      'UNSUPPORTED_MEDIA_TYPE',
      'VALIDATION_FAILED',
    ]);
    expect(codes('/tickets/{id}', 'delete')).toEqual([
      'CONFLICT',
      'FORBIDDEN',
      'INTERNAL',
      'NOT_FOUND',
      'RATE_LIMITED',
      'SERVICE_UNAVAILABLE',
      'STALE_VERSION',
      'UNAUTHENTICATED',
      'VALIDATION_FAILED',
    ]);
    const post = document.paths['/tickets']!.post!;
    expect(post.responses['403']).toMatchObject({ 'x-error-codes': ['FORBIDDEN', 'FORBIDDEN_FIELD'] });
    expect(post.responses['403']!.description).toContain('FORBIDDEN_FIELD');
    expect(post.responses['422']!.content!['application/problem+json']!.schema).toEqual({
      allOf: [{ $ref: '#/components/schemas/ValidationProblem' }],
      type: 'object',
      properties: { status: { const: 422 }, code: { enum: ['VALIDATION_FAILED', 'LIMIT_EXCEEDED'] } },
    });
    expect(post.responses['201']!.headers).toMatchObject({ Location: { required: true }, ETag: { required: true } });
    expect(document.paths['/tickets/{id}']!.delete!.responses['204']).toEqual({ description: 'Deleted.' });
    expect(post.responses['429']!.headers).toHaveProperty('Retry-After');
    expect(post.responses['503']).toMatchObject({
      'x-error-codes': ['SERVICE_UNAVAILABLE'],
      headers: { 'Retry-After': { required: true } },
    });
  });

  it('gives every entity its history, and the ticket one path per transition, for one record and for many', () => {
    for (const entity of helpdeskModel.entities)
      expect(Object.keys(document.paths[`/${entity.plural}/{id}/history`]!).sort()).toEqual(['get', 'parameters']);
    const transitions = Object.keys(document.paths).filter((path) => path.includes('/transitions/'));
    expect(transitions).toEqual(
      ['start', 'wait', 'reply', 'resolve', 'reopen', 'close'].flatMap((name) => [
        `/tickets/{id}/transitions/${name}`,
        `/tickets/transitions/${name}`,
      ]),
    );
    const start = document.paths['/tickets/{id}/transitions/start']!.post!;
    expect(start).toMatchObject({ operationId: 'startTicket', summary: 'Start (new → open)', 'x-transition': 'start', tags: ['tickets'] });
    expect(start.description).toContain('`assignee`');
    // The ticket as the caller may read it after the transition, or only its receipt when they no longer may.
    expect(start.responses['200']).toMatchObject({
      headers: { ETag: { required: true } },
      content: {
        'application/json': { schema: { anyOf: [{ $ref: '#/components/schemas/Ticket' }, { $ref: '#/components/schemas/Receipt' }] } },
      },
    });
    expect(schema(document, 'Receipt')).toMatchObject({
      required: ['id', 'version', 'createdAt', 'updatedAt'],
      additionalProperties: false,
    });
    expect(document.paths['/tickets/transitions/start']!.post!.operationId).toBe('bulkStartTickets');
    expect(document.paths['/organizations/{id}/transitions/start']).toBeUndefined();
  });

  it('documents every error the workflow routes can answer with', () => {
    const codes = (path: string, method: 'get' | 'post') =>
      Object.values(document.paths[path]![method]!.responses)
        .flatMap((r) => r['x-error-codes'] ?? [])
        .sort();
    const transition = [
      'FORBIDDEN',
      'FORBIDDEN_FIELD',
      'INTERNAL',
      'LIMIT_EXCEEDED',
      'NOT_FOUND',
      'PAYLOAD_TOO_LARGE',
      'PRECONDITION_REQUIRED',
      'RATE_LIMITED',
      'SERVICE_UNAVAILABLE',
      'STALE_VERSION',
      'TRANSITION_NOT_ALLOWED',
      'UNAUTHENTICATED',
      'UNSUPPORTED_MEDIA_TYPE',
      'VALIDATION_FAILED',
    ];
    expect(codes('/tickets/{id}/transitions/start', 'post')).toEqual(transition);
    expect(codes('/tickets/{id}/transitions/reopen', 'post')).toEqual([...transition, 'REOPEN_WINDOW_PASSED'].sort());
    expect(document.paths['/tickets/{id}/transitions/reopen']!.post!.responses['409']!['x-error-codes']).toEqual([
      'STALE_VERSION',
      'TRANSITION_NOT_ALLOWED',
      'REOPEN_WINDOW_PASSED',
    ]);
    expect(codes('/tickets/transitions/reopen', 'post')).toEqual([
      'FORBIDDEN',
      'INTERNAL',
      'PAYLOAD_TOO_LARGE',
      'RATE_LIMITED',
      'SERVICE_UNAVAILABLE',
      'UNAUTHENTICATED',
      'UNSUPPORTED_MEDIA_TYPE',
      'VALIDATION_FAILED',
    ]);
    expect(codes('/tickets/{id}/history', 'get')).toEqual([
      'FORBIDDEN',
      'INTERNAL',
      'NOT_FOUND',
      'RATE_LIMITED',
      'SERVICE_UNAVAILABLE',
      'UNAUTHENTICATED',
      'VALIDATION_FAILED',
    ]);
  });

  it('describes transition bodies, bulk results, history entries and the limit members of a problem', () => {
    expect(Object.keys(schema(document, 'TicketTransition').properties!)).toEqual(['version', 'comment', 'input']);
    expect(Object.keys(schema(document, 'TicketTransition').properties!.input!.properties!)).not.toContain('resolvedAt');
    expect(schema(document, 'TicketBulkTransition')).toMatchObject({
      required: ['items'],
      properties: { items: { minItems: 1, maxItems: 200 } },
    });
    expect(schema(document, 'TicketBulkTransitionResults').properties!.results!.items!.oneOf).toHaveLength(2);
    const entry = schema(document, 'TicketHistory').properties!.items!.items!;
    expect(entry.required).toEqual(['id', 'at', 'actor', 'action', 'transition', 'changes', 'cause']);
    expect(Object.keys(entry.properties!.changes!.properties!)).toEqual(
      helpdeskModel.entities.find((e) => e.name === 'ticket')!.fields.map((f) => f.name),
    );
    expect(document.components.schemas.OrganizationTransition).toBeUndefined();
    expect(schema(document, 'OrganizationHistory').title).toBe('Organization history');
    expect(schema(document, 'Problem').properties).toMatchObject({
      limit: { type: 'string' },
      max: { type: 'integer' },
      constant: { type: 'string' },
    });
  });

  it('describes the auth routes', () => {
    expect(document.paths['/auth/me']!.get!.responses['200']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/User',
    });
    const signIn = document.paths['/auth/sign-in']!.post!;
    expect(signIn.requestBody!.content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/SignIn' });
    expect(signIn.responses['200']!.headers).toHaveProperty('Set-Cookie');
    expect(signIn.responses['401']!['x-error-codes']).toEqual(['UNAUTHENTICATED']);
    expect(schema(document, 'SignedOut')).toMatchObject({ properties: { signedOut: { const: true } } });
  });

  it.runIf('escalate' in helpdeskModel.calls)('documents the escalate call of the helpdesk spec', () => {
    const escalate = document.paths['/tickets/{id}/escalate']?.post;
    expect(escalate).toMatchObject({
      tags: ['calls'],
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
    });
    const declared = helpdeskModel.calls.escalate!.errors ?? [];
    const documented = Object.values(escalate!.responses).flatMap((r) => r['x-error-codes'] ?? []);
    expect(documented).toEqual(expect.arrayContaining([...declared, 'UNAUTHENTICATED', 'FORBIDDEN']));
  });
});

describe('custom calls', () => {
  const document = buildOpenApiDocument(helpdeskWithEscalate);
  const escalate = document.paths['/tickets/{id}/escalate']!.post!;

  it('are documented with their params, input, output, roles and errors', () => {
    expect(escalate).toMatchObject({
      operationId: 'escalate',
      summary: 'Raise the priority one step',
      tags: ['calls'],
      'x-ninefold-call': 'escalate',
      'x-roles': ['agent', 'admin'],
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
    });
    expect(escalate.requestBody!.content['application/json']!.schema).toMatchObject({
      type: 'object',
      properties: { reason: { type: 'string', maxLength: 500 } },
      required: ['reason'],
      additionalProperties: false,
    });
    expect(escalate.responses['200']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Ticket' });
    expect(escalate.responses['409']).toMatchObject({ 'x-error-codes': ['TICKET_CLOSED'] });
    expect(escalate.responses['404']).toMatchObject({ 'x-error-codes': ['NOT_FOUND'] });
    expect(escalate.responses['401']).toMatchObject({ 'x-error-codes': ['UNAUTHENTICATED'] });
    // A call runs ops as its caller: a field the caller may not read or write is refused there too.
    expect(escalate.responses['403']).toMatchObject({ 'x-error-codes': ['FORBIDDEN', 'FORBIDDEN_FIELD'] });
    expect(escalate.responses['422']).toMatchObject({ 'x-error-codes': ['VALIDATION_FAILED'] });
    expect(document.tags.map((t) => t.name)).toEqual(['organizations', 'tickets', 'comments', 'auth', 'inbox', 'files', 'calls']);
    expect(Object.keys(document.paths)[0]).toBe('/tickets/{id}/escalate');
  });

  it('put the spec codes in the catalogue of every problem', () => {
    expect(schema(document, 'Problem').properties!.code!.enum).toEqual([
      ...Object.keys(BUILT_IN_ERRORS),
      'TICKET_CLOSED',
      'REOPEN_WINDOW_PASSED',
    ]);
  });

  it('answer 204 without an output, and an object for an output of fields', () => {
    const every = buildOpenApiDocument(everyFieldModel);
    expect(every.paths['/purge/{before}/{dryRun}']!.delete!.responses['204']).toEqual({ description: 'Done.' });
    expect(every.paths['/purge/{before}/{dryRun}']!.delete!.parameters!.map((p) => [p.name, p.schema.type])).toEqual([
      ['before', 'string'],
      ['dryRun', 'boolean'],
    ]);
    expect(every.paths['/line-items/open']!.get!.responses['200']!.content!['application/json']!.schema).toMatchObject({
      type: 'object',
      properties: { count: { type: 'integer' }, oldest: { type: ['string', 'null'], format: 'date' } },
      required: ['count'],
    });
    expect(every.paths['/line-items/open']!.get!.requestBody).toBeUndefined();
    expect(every.paths['/line-items/{id}/restock']!.post!.responses['409']!['x-error-codes']).toEqual(['OUT_OF_STOCK']);
  });
});

describe('the seed document', () => {
  const document = buildOpenApiDocument(seedModel);

  it('has only the auth routes and the document itself', () => {
    expect(Object.keys(document.paths)).toEqual(['/auth/me', '/auth/sign-in', '/auth/sign-out', '/openapi.json']);
    expect(Object.keys(document.components.schemas)).toEqual(['User', 'SignIn', 'SignedIn', 'SignedOut', 'Problem', 'ValidationProblem']);
    expect(document.info).toMatchObject({ title: 'Seed' });
    expect(document.tags.map((t) => t.name)).toEqual(['auth']);
  });
});

describe('field types', () => {
  const document = buildOpenApiDocument(everyFieldModel);
  const item = schema(document, 'LineItem');
  const p = item.properties!;

  it('map each field type to its JSON type and constraints', () => {
    expect(p.code).toMatchObject({ type: 'string', minLength: 2, maxLength: 10 });
    expect(p.host).toMatchObject({ type: ['string', 'null'], format: 'hostname' });
    expect(p.notes).toMatchObject({ type: ['string', 'null'], maxLength: 500, contentMediaType: 'text/markdown' });
    expect(p.quantity).toMatchObject({ type: 'integer', minimum: 1, maximum: 999 });
    expect(p.price).toMatchObject({ type: ['string', 'null'], pattern: '^-?\\d+(\\.\\d+)?$' });
    expect(p.paid).toMatchObject({ type: ['boolean', 'null'] });
    expect(p.kind).toMatchObject({ type: ['string', 'null'], enum: ['part', 'labour', null] });
    expect(p.due).toMatchObject({ type: ['string', 'null'], format: 'date' });
    expect(p.seenAt).toMatchObject({ type: ['string', 'null'], format: 'date-time' });
    expect(p.contact).toMatchObject({ type: ['string', 'null'], format: 'email' });
    expect(p.link).toMatchObject({ type: ['string', 'null'], format: 'uri' });
    expect(p.owner).toMatchObject({ type: 'integer', minimum: 1 });
    expect(p.buyer).toMatchObject({ type: ['integer', 'null'], minimum: 1 });
    expect(p.checkedAt).toMatchObject({ readOnly: true });
    expect(schema(document, 'User').properties!.handle).toBeUndefined();
    expect(schema(document, 'UserRecord').properties!.handle).toMatchObject({ pattern: '^[a-z]+$' });
  });

  it('take defaults into the create body and accept a number for a decimal', () => {
    const create = schema(document, 'LineItemCreate');
    expect(create.required).toEqual(['code']);
    expect(create.properties!.quantity!.default).toBe(1);
    expect(create.properties!.paid!.default).toBe(false);
    expect(create.properties!.price!.type).toEqual(['string', 'number', 'null']);
    expect(create.properties!.checkedAt).toBeUndefined();
    expect(create.properties!.owner!.description).toContain('signed-in user');
    expect(create.properties!.seenAt!.default).toBeUndefined();
  });

  it('name schemas after labels, without clashing with the fixed ones', () => {
    expect(Object.keys(document.components.schemas)).toEqual([
      'UserRecord',
      'UserRecordCreate',
      'UserRecordUpdate',
      'UserRecordBulkUpdate',
      'UserRecordBulkUpdateResults',
      'UserRecordBulkDelete',
      'UserRecordBulkDeleteResults',
      'UserRecordList',
      'UserRecordHistory',
      'LineItem',
      'LineItemCreate',
      'LineItemUpdate',
      'LineItemBulkUpdate',
      'LineItemBulkUpdateResults',
      'LineItemBulkDelete',
      'LineItemBulkDeleteResults',
      'LineItemList',
      'LineItemHistory',
      'User',
      'SignIn',
      'SignedIn',
      'SignedOut',
      'Receipt',
      'Problem',
      'ValidationProblem',
    ]);
    expect(document.paths['/line-items']!.get!.operationId).toBe('listLineItems');
    expect(document.paths['/line-items/{id}']!.patch!.operationId).toBe('updateLineItem');
    expect(document.paths['/line-items/bulk-update']!.post!.operationId).toBe('bulkUpdateLineItems');
    expect(document.paths['/line-items/bulk-delete']!.post!.operationId).toBe('bulkDeleteLineItems');
  });

  it('cap the page size with the spec constant', () => {
    const limit = document.paths['/line-items']!.get!.parameters!.find((p) => p.name === 'limit')!;
    expect(limit.schema).toMatchObject({ maximum: 40, default: 40 });
  });
});

describe('files in the document', () => {
  const document = buildOpenApiDocument(helpdeskModel);

  it('documents the upload as multipart, the downloads as bytes with 206, 304 and 416, and the descriptor records carry', () => {
    const upload = document.paths['/files']!.post!;
    expect(Object.keys(upload.requestBody!.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['201', '413', '415', '422']));
    for (const path of ['/files/{id}', '/files/{id}/thumbnail']) {
      const download = document.paths[path]!.get!;
      expect(Object.keys(download.responses)).toEqual(expect.arrayContaining(['200', '206', '304', '404', '416']));
      expect(download.responses['200']!.headers).toMatchObject({ 'X-Content-Type-Options': { required: true } });
      expect(download.parameters!.map((p) => p.name)).toEqual(['Range', 'If-None-Match']);
    }
    expect(Object.keys(document.paths['/files/{id}/thumbnail']!.get!.responses['200']!.content!)).toEqual(['image/webp']);
    expect(document.components.schemas.File!.required).toEqual(['id', 'name', 'size', 'contentType', 'url']);
    const ticket = document.components.schemas.Ticket!;
    expect(ticket.properties!.attachments).toMatchObject({ items: { $ref: '#/components/schemas/File' }, maxItems: 5 });
    expect(document.components.schemas.TicketCreate!.properties!.attachments!.items).toMatchObject({ type: 'integer' });
  });

  it('has no file paths or schemas in a spec without file fields', () => {
    const plain = buildOpenApiDocument(buildModel({ name: 'plain', entities: { note: { fields: { title: { type: 'text' } } } } }));
    expect(Object.keys(plain.paths).filter((p) => p.startsWith('/files'))).toEqual([]);
    expect(plain.components.schemas.File).toBeUndefined();
  });
});

describe('an entity named like the files schemas', () => {
  const document = buildOpenApiDocument(
    buildModel({
      name: 'archive',
      entities: {
        file: {
          plural: 'documents',
          titleField: 'title',
          fields: { title: { type: 'text', required: true }, scan: { type: 'file', accept: ['application/pdf'] } },
        },
      },
    }),
  );

  it('gets schemas of its own ("FileRecord"), and File stays the file descriptor', () => {
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['FileRecord', 'FileRecordCreate', 'File', 'Uploaded']),
    );
    expect(schema(document, 'File').properties).toHaveProperty('thumbnailUrl');
    expect(schema(document, 'FileRecord').properties).toHaveProperty('scan');
  });
});
