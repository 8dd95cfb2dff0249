import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/ninefold.spec';
import { mayRead } from '@testing/access-matrix/oracle';
import type { Engine } from '@/engine/engine';
import type { UserAccount } from '@/engine/identity/types';
import { captureLog } from '@/engine/log';
import type { Actor } from '@/engine/ground/actor';
import { buildModel } from '@/engine/spec/build';
import { forEachDatabase } from '@testing/engine/store';
import { apiClient, openTestEngine, type ApiClient } from '@testing/api/api';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

/*
 * For each role: every list and every record of every entity it may see, over the API; no field
 * hidden from the role is a key of any record, and no value only others may see is anywhere in
 * the bytes (while the roles that may see it do get it, so that the test can fail).
 */

const model = buildModel(helpdesk);
const PASSWORD = 'correct horse battery';
const asActor = (user: UserAccount): Actor => ({ userId: user.id, email: user.email, name: user.name, roles: user.roles });
const marker = (what: string) => `LEAK${what}${randomUUID().replace(/-/g, '').slice(0, 12)}`;

forEachDatabase('API: field leaks', (database) => {
  let engine: Engine;
  let api: ApiClient;
  const users: Record<string, UserAccount> = {};
  const tokens: Record<string, string> = {};
  const internalBody = marker('internal');
  const publicBody = marker('public');
  const otherSubject = marker('othersticket');

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    const roles: Record<string, string[]> = {
      admin: ['admin'],
      agent: ['agent'],
      customer: ['customer'],
      other: ['customer'],
      every: ['admin', 'agent', 'customer'],
    };
    for (const [name, granted] of Object.entries(roles)) {
      users[name] = await engine.identity.createUser(SYSTEM_ACTOR, {
        email: `${name}@leaks.example`,
        password: PASSWORD,
        name,
        roles: granted,
      });
      tokens[name] = (await engine.identity.createApiToken(users[name].id, { name: 'leaks' })).token;
    }
    const [admin, agent, customer, other] = [asActor(users.admin!), asActor(users.agent!), asActor(users.customer!), asActor(users.other!)];
    const acme = await engine.ops.create(admin, 'organization', { name: 'Acme', domain: 'acme.example' });
    // The customer's ticket, with what customers may not see set: an organization and an assignee.
    const ticket = await engine.ops.create(agent, 'ticket', {
      subject: 'Printer on fire',
      requester: customer.userId,
      organization: acme.id,
      assignee: agent.userId,
    });
    await engine.ops.create(agent, 'comment', { ticket: ticket.id, body: internalBody, internal: true });
    await engine.ops.create(agent, 'comment', { ticket: ticket.id, body: publicBody });
    // Another customer's ticket and its public comment: nothing of it reaches the customer.
    const others = await engine.ops.create(other, 'ticket', { subject: otherSubject });
    await engine.ops.create(agent, 'comment', { ticket: others.id, body: `Answer on ${otherSubject}` });
  });

  /** Every list page and every record the user may read, as the bytes the API sent. */
  async function everything(user: string): Promise<{ bytes: string; records: Record<string, Record<string, unknown>[]> }> {
    let bytes = '';
    const records: Record<string, Record<string, unknown>[]> = {};
    for (const entity of model.entities) {
      const list = await api.call('GET', `/${entity.plural}?limit=100`, { token: tokens[user] });
      bytes += list.text;
      records[entity.name] = [];
      if (list.status !== 200) {
        expect(list.status, `${user} ${entity.plural}`).toBe(403);
        continue;
      }
      expect(list.body.nextCursor).toBeNull();
      records[entity.name]!.push(...list.body.items);
      for (const item of list.body.items) {
        const one = await api.call('GET', `/${entity.plural}/${item.id}`, { token: tokens[user] });
        expect(one.status).toBe(200);
        bytes += one.text;
        records[entity.name]!.push(one.body);
      }
    }
    return { bytes, records };
  }

  it('a customer gets no field hidden from customers, no internal comment and nothing of other customers', async () => {
    const { bytes, records } = await captureLog(() => everything('customer')).then((r) => r.result);
    expect(records.ticket!.length).toBeGreaterThan(0);
    expect(records.comment!.length).toBeGreaterThan(0);
    for (const [entity, items] of Object.entries(records)) {
      const entityModel = model.entitiesByName[entity]!;
      const hidden = entityModel.fields.map((f) => f.name).filter((name) => !mayRead(entityModel, name, ['customer']));
      for (const item of items) for (const name of hidden) expect(Object.keys(item), `${entity} #${item.id}`).not.toContain(name);
    }
    expect(Object.keys(records.ticket![0]!)).not.toContain('assignee');
    expect(Object.keys(records.comment![0]!)).not.toContain('internal');
    expect(bytes).not.toContain(internalBody);
    expect(bytes).not.toContain(otherSubject);
    expect(bytes).toContain(publicBody);
  });

  it('agents and admins get every field and the internal comment (the test above can fail)', async () => {
    for (const user of ['agent', 'admin', 'every']) {
      const { bytes, records } = await everything(user);
      expect(bytes, user).toContain(internalBody);
      expect(bytes, user).toContain(otherSubject);
      expect(Object.keys(records.ticket![0]!)).toEqual(expect.arrayContaining(['organization', 'assignee']));
      expect(Object.keys(records.comment![0]!)).toContain('internal');
    }
  });

  it('what a customer writes comes back without the fields hidden from them', async () => {
    const token = tokens.customer;
    const created = await api.call('POST', '/tickets', { token, body: { subject: 'My own ticket', description: 'Details' } });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty('assignee');
    expect(created.body).not.toHaveProperty('organization');
    const updated = await api.call('PATCH', `/tickets/${created.body.id}`, {
      token,
      body: { subject: 'My own ticket, edited' },
      headers: { 'if-match': '"1"' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).not.toHaveProperty('assignee');
    const comment = await api.call('POST', '/comments', { token, body: { ticket: created.body.id, body: 'Any news?' } });
    expect(comment.status).toBe(201);
    expect(comment.body).not.toHaveProperty('internal');
    // Writing what they may not: refused, naming the field, and nothing saved.
    const before = (await api.call('GET', '/comments?limit=100', { token })).body.items.length;
    const { result: internal } = await captureLog(() =>
      api.call('POST', '/comments', { token, body: { ticket: created.body.id, body: 'Sneaky', internal: true } }),
    );
    expect(internal.status).toBe(403);
    expect(internal.body).toMatchObject({ code: 'FORBIDDEN_FIELD', errors: [{ pointer: '/internal' }] });
    expect((await api.call('GET', '/comments?limit=100', { token })).body.items.length).toBe(before);
    // And the agent sees the customer's comment with its (default) internal flag.
    const seen = await api.call('GET', `/comments/${comment.body.id}`, { token: tokens.agent });
    expect(seen.body).toMatchObject({ internal: false });
  });
});
