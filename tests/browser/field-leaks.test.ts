import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, fetchPage, signInOverApi, type ApiSession } from './api-session';
import { ADMIN, DEMO_CUSTOMER, DEMO_AGENT } from './servers';

const server = inject('helpdesk');

function marker(what: string): string {
  return `leak${what}${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

/*
 * What only agents may see — an internal comment on a customer's ticket, the ticket's
 * organization — never reaches the customer: not in the HTML of the list and detail pages, not
 * in their RSC payloads. The agent's bytes do carry it, so that the test can fail.
 */
describe('fields hidden from a role never reach its pages', () => {
  const internalNote = marker('internal');
  const publicReply = marker('public');
  const organizationName = marker('org');
  let customer: ApiSession;
  let agent: ApiSession;
  let ticketId: number;

  beforeAll(async () => {
    const admin = await signInOverApi(server.url, ADMIN.email, ADMIN.password);
    customer = await signInOverApi(server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    agent = await signInOverApi(server.url, DEMO_AGENT.email, DEMO_AGENT.password);
    const organization = await callApi<{ id: number }>(server.url, admin, 'POST', '/organizations', { name: organizationName });
    expect(organization.status).toBe(201);
    const ticket = await callApi<{ id: number }>(server.url, admin, 'POST', '/tickets', {
      subject: `Printer on fire ${marker('subject')}`,
      requester: customer.user.id,
      assignee: agent.user.id,
      organization: organization.body.id,
    });
    expect(ticket.status).toBe(201);
    ticketId = ticket.body.id;
    for (const [body, internal] of [
      [publicReply, false],
      [internalNote, true],
    ] as const) {
      expect((await callApi(server.url, admin, 'POST', '/comments', { ticket: ticketId, body, internal })).status).toBe(201);
    }
  });

  /** The list of tickets, this ticket, and the list of comments: HTML and RSC payload of each. */
  async function bytesOf(session: ApiSession): Promise<string> {
    let bytes = '';
    for (const path of ['/tickets', `/tickets/${ticketId}`, '/comments']) {
      for (const rsc of [false, true]) {
        const page = await fetchPage(server.url, session, path, rsc);
        expect(page.status, `${path}${rsc ? ' (RSC)' : ''}`).toBe(200);
        expect(page.contentType).toContain(rsc ? 'text/x-component' : 'text/html');
        bytes += page.text;
      }
    }
    return bytes;
  }

  it("the customer's pages and payloads carry their ticket and the public reply, never the internal note or the organization", async () => {
    const bytes = await bytesOf(customer);
    expect(bytes).toContain(publicReply);
    expect(bytes).not.toContain(internalNote);
    expect(bytes).not.toContain(organizationName);
  });

  it("the agent's carry both", async () => {
    const bytes = await bytesOf(agent);
    expect(bytes).toContain(publicReply);
    expect(bytes).toContain(internalNote);
    expect(bytes).toContain(organizationName);
  });

  it('the customer cannot filter by what is hidden from them: the page says so, and shows no record', async () => {
    const page = await fetchPage(server.url, customer, `/comments?internal=true`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('This list cannot be shown with these settings.');
    expect(page.text).not.toContain(internalNote);
    const tickets = await fetchPage(server.url, customer, `/tickets?sort=assignee`);
    expect(tickets.status).toBe(200);
    expect(tickets.text).toContain('This list cannot be shown with these settings.');
    expect(tickets.text).not.toContain(organizationName);
  });
});
