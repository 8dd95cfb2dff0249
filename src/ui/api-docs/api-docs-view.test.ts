import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import seed from '../../../examples/seed/ninefold.spec';
import { buildOpenApiDocument, TOKEN_COMMAND } from '@/api/openapi/document';
import { helpdeskWithEscalate } from '@testing/api/openapi-fixtures';
import { buildModel } from '@/engine/spec/build';
import { ApiDocsView } from './api-docs-view';
import { errorCodes, operationsByTag, propertyRows, typeText } from './schema-text';

const document = buildOpenApiDocument(helpdeskWithEscalate);
const render = (doc = document) =>
  renderToStaticMarkup(createElement(ApiDocsView, { document: doc, documentUrl: '/api/v1/openapi.json', tokenCommand: TOKEN_COMMAND }));

describe('the API docs page', () => {
  const html = render();

  it('says what the API is and how to authenticate', () => {
    expect(html).toContain('<h1 class="text-2xl font-semibold tracking-tight text-zinc-900">Helpdesk API</h1>');
    expect(html).toContain('Customers open tickets');
    expect(html).toContain('npm run ninefold -- token create --email E --name N');
    expect(html).toContain('nf_session');
    expect(html).toContain('href="/api/v1/openapi.json"');
  });

  it('groups the operations by tag, each with an anchor', () => {
    for (const tag of ['organizations', 'tickets', 'comments', 'auth', 'calls']) expect(html).toContain(`id="tag-${tag}"`);
    for (const id of ['listTickets', 'createTicket', 'getTicket', 'updateTicket', 'deleteTicket', 'escalate', 'signIn', 'getCurrentUser']) {
      expect(html).toContain(`id="op-${id}"`);
      expect(html).toContain(`href="#op-${id}"`);
    }
    expect(html).toContain('/api/v1/tickets/{id}/escalate');
    expect(html).toContain('Roles: agent, admin');
  });

  it('shows parameters, bodies and responses with their codes and schemas', () => {
    expect(html).toContain('If-Match');
    expect(html).toContain('href="#schema-TicketCreate"');
    expect(html).toContain('href="#schema-ValidationProblem"');
    expect(html).toContain(
      '<code class="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.85em] break-words text-zinc-800">PRECONDITION_REQUIRED</code>',
    );
    expect(html).toContain('TICKET_CLOSED');
  });

  it('lists every schema with its properties and the whole catalogue', () => {
    for (const name of Object.keys(document.components.schemas)) expect(html).toContain(`id="schema-${name}"`);
    expect(html).toContain('id="error-REOPEN_WINDOW_PASSED"');
    expect(html).toContain('id="error-METHOD_NOT_ALLOWED"');
  });

  it('renders the seed too: only the auth operations', () => {
    const seedHtml = render(buildOpenApiDocument(buildModel(seed)));
    expect(seedHtml).toContain('Seed API');
    expect(seedHtml).toContain('id="tag-auth"');
    expect(seedHtml).not.toContain('id="tag-calls"');
  });
});

describe('reading the document', () => {
  it('puts each operation under its tag, in the order of the tags', () => {
    expect(operationsByTag(document).map((g) => [g.tag, g.operations.map((o) => o.operation.operationId)])).toEqual([
      [
        'organizations',
        [
          'listOrganizations',
          'createOrganization',
          'getOrganization',
          'updateOrganization',
          'deleteOrganization',
          'bulkUpdateOrganizations',
          'bulkDeleteOrganizations',
          'getOrganizationHistory',
        ],
      ],
      [
        'tickets',
        [
          ...['listTickets', 'createTicket', 'getTicket', 'updateTicket', 'deleteTicket', 'bulkUpdateTickets', 'bulkDeleteTickets'],
          'getTicketHistory',
          ...['start', 'wait', 'reply', 'resolve', 'reopen', 'close'].flatMap((t) => [
            `${t}Ticket`,
            `bulk${t[0]!.toUpperCase()}${t.slice(1)}Tickets`,
          ]),
        ],
      ],
      [
        'comments',
        [
          ...['listComments', 'createComment', 'getComment', 'updateComment', 'deleteComment'],
          ...['bulkUpdateComments', 'bulkDeleteComments', 'getCommentHistory'],
        ],
      ],
      ['auth', ['getCurrentUser', 'signIn', 'signOut', 'getOpenApiDocument']],
      ['inbox', ['listInbox', 'markAllInboxRead', 'markInboxRead']],
      ['files', ['uploadFiles', 'downloadFile', 'downloadThumbnail']],
      ['calls', ['escalate']],
    ]);
    expect(operationsByTag(document)[1]!.operations[2]!.parameters.map((p) => p.name)).toEqual(['id']);
  });

  it('writes types, nullability and rules in words', () => {
    const rows = Object.fromEntries(propertyRows(document.components.schemas.Ticket!).map((row) => [row.name, row]));
    expect(rows.dueAt).toMatchObject({ type: 'string (date-time)', required: true, nullable: true });
    expect(rows.subject).toMatchObject({ type: 'string', nullable: false, constraints: ['3 to 200 characters'] });
    expect(rows.priority!.constraints).toEqual(['one of: low, normal, high, urgent']);
    expect(rows.state!.constraints).toEqual(['one of: new, open, pending, resolved, closed', 'read-only']);
    expect(typeText(document.components.schemas.TicketList!.properties!.items!)).toBe('array of Ticket');
  });

  it('lists the catalogue with the operations that can answer each code', () => {
    const codes = Object.fromEntries(errorCodes(document).map((entry) => [entry.code, entry]));
    expect(codes.TICKET_CLOSED).toMatchObject({ status: 409, operations: ['escalate', 'updateTicket', 'createComment'] });
    expect(codes.REOPEN_WINDOW_PASSED).toMatchObject({ status: 409, operations: ['reopenTicket'] });
    expect(codes.PRECONDITION_REQUIRED!.operations).toEqual([
      'updateOrganization',
      'updateTicket',
      ...['start', 'wait', 'reply', 'resolve', 'reopen', 'close'].map((t) => `${t}Ticket`),
      'updateComment',
    ]);
  });
});
