import { beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { countRows, createActor, expectRefused, fieldCodes, ninefoldError, openSyncedQuickly, testModel } from '@testing/engine/ops';
import type { RecordData } from './types';
import type { Actor } from '../ground/actor';

const model = testModel;
const ENTITY_TABLES = ['organization', 'ticket', 'comment', 'contact'];

forEachDatabase('ops', (database) => {
  let store: Store;
  let ops: Ops;
  let admin: Actor;
  let agent: Actor;
  /** The requester of the tickets staff file: a ticket's requester is always a customer. */
  let customer: Actor;
  let acme: RecordData;

  /** Every row of every entity table: what a refused write must leave exactly as it was. */
  async function snapshot(): Promise<Record<string, unknown[]>> {
    const tables: Record<string, unknown[]> = {};
    for (const table of ENTITY_TABLES) tables[table] = await store.db.selectFrom(table).selectAll().orderBy('id').execute();
    return tables;
  }

  /** Runs a write that must be refused with `code`; checks that no row changed. */
  const refused = (code: string, write: () => Promise<unknown>) => expectRefused(snapshot, code, write);

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    admin = await createActor(store.db, ['admin'], 'Ada Admin');
    agent = await createActor(store.db, ['agent'], 'Grace Agent');
    customer = await createActor(store.db, ['customer'], 'Carl Customer');
    acme = await ops.create(admin, 'organization', { name: 'Acme', domain: 'acme.example' });
  });

  describe('create', () => {
    it('reads what a form sends: strings for enums, times, references; "" for none', async () => {
      const ticket = await ops.create(admin, 'ticket', {
        subject: '  Printer on fire  ',
        description: 'Smoke everywhere',
        priority: 'high',
        dueAt: '2030-01-02T10:30',
        organization: String(acme.id),
        requester: String(customer.userId),
        assignee: '',
      });
      expect(ticket).toMatchObject({
        subject: '  Printer on fire  ',
        description: 'Smoke everywhere',
        priority: 'high',
        organization: acme.id,
        requester: customer.userId,
        assignee: null,
        resolvedAt: null,
        state: 'new',
        version: 1,
        createdBy: admin.userId,
        updatedBy: admin.userId,
      });
      expect(ticket.dueAt).toEqual(new Date(Date.UTC(2030, 0, 2, 10, 30)));
      expect(ticket.id).toEqual(expect.any(Number));
      expect(ticket.createdAt).toBeInstanceOf(Date);
      expect(ticket.updatedAt).toEqual(ticket.createdAt);
    });

    it('reads typed JSON values: numbers for references, ISO times with a zone, Dates', async () => {
      const ticket = await ops.create(agent, 'ticket', {
        subject: 'VPN drops every hour',
        priority: 'urgent',
        organization: acme.id,
        requester: customer.userId,
        assignee: agent.userId,
        dueAt: '2030-06-01T12:00:00+02:00',
      });
      expect(ticket).toMatchObject({
        priority: 'urgent',
        organization: acme.id,
        requester: customer.userId,
        assignee: agent.userId,
        createdBy: agent.userId,
      });
      expect(ticket.dueAt).toEqual(new Date('2030-06-01T10:00:00.000Z'));

      const withDate = await ops.create(agent, 'ticket', {
        subject: 'Due as a Date',
        requester: customer.userId,
        dueAt: new Date('2031-01-01T00:00:00.123Z'),
      });
      expect(withDate.dueAt).toEqual(new Date('2031-01-01T00:00:00.123Z'));
    });

    it('applies the defaults: normal priority, the actor as requester, the initial state', async () => {
      // A customer files their own ticket: the requester defaults to them. Read as staff, who see every field.
      const filed = await ops.create(customer, 'ticket', { subject: 'Just a subject' });
      const ticket = (await ops.get(admin, 'ticket', filed.id)).record;
      expect(ticket).toMatchObject({
        priority: 'normal',
        requester: customer.userId,
        state: 'new',
        organization: null,
        assignee: null,
        description: null,
        dueAt: null,
      });
      const comment = await ops.create(agent, 'comment', { ticket: ticket.id, body: 'Looking into it' });
      expect(comment.internal).toBe(false);
    });

    it('reads every other field type of a form', async () => {
      const contact = await ops.create(admin, 'contact', {
        name: 'Linus',
        email: 'linus@example.com',
        website: 'https://example.com/linus',
        visits: '12',
        balance: '1234.5',
        birthday: '1969-12-28',
        active: 'off',
        employer: String(acme.id),
      });
      expect(contact).toMatchObject({
        name: 'Linus',
        email: 'linus@example.com',
        website: 'https://example.com/linus',
        visits: 12,
        balance: '1234.50',
        birthday: '1969-12-28',
        active: false,
        employer: acme.id,
        notes: null,
      });
      const defaults = await ops.create(admin, 'contact', { name: 'Defaults' });
      expect(defaults).toMatchObject({ active: true, visits: null, balance: null, birthday: null, email: null });
    });
  });

  describe('get', () => {
    it('returns the record with the titles of what it refers to', async () => {
      const created = await ops.create(agent, 'ticket', {
        subject: 'Mail bounces',
        organization: acme.id,
        requester: customer.userId,
        assignee: agent.userId,
      });
      const view = await ops.get(admin, 'ticket', created.id);
      expect(view.record).toEqual(created);
      expect(view.references.organization).toEqual({ [acme.id]: 'Acme' });
      expect(view.references.requester![customer.userId]).toBe('Carl Customer');
      expect(view.references.assignee![agent.userId]).toBe('Grace Agent');
      expect(view.references.createdBy![agent.userId]).toBe('Grace Agent');
    });

    it('is NOT_FOUND for a missing id, an id that is not one, and an unknown entity', async () => {
      for (const id of [987654321, 0, -1, 1.5, Number.NaN]) {
        expect((await ninefoldError(ops.get(admin, 'ticket', id))).code).toBe('NOT_FOUND');
      }
      expect((await ninefoldError(ops.get(admin, 'nothing', 1))).code).toBe('NOT_FOUND');
      expect((await ninefoldError(ops.list(admin, 'nothing'))).code).toBe('NOT_FOUND');
    });
  });

  describe('update', () => {
    let ticket: RecordData;
    beforeAll(async () => {
      ticket = await ops.create(agent, 'ticket', {
        subject: 'Laptop will not boot',
        description: 'Black screen',
        organization: acme.id,
        requester: customer.userId,
      });
    });

    it('with the stored version changes the fields given, bumps the version and keeps the rest', async () => {
      const updated = await ops.update(
        admin,
        'ticket',
        ticket.id,
        { subject: 'Laptop boots to a black screen', priority: 'low', organization: '' },
        1,
      );
      expect(updated).toMatchObject({
        id: ticket.id,
        version: 2,
        subject: 'Laptop boots to a black screen',
        priority: 'low',
        organization: null,
        description: 'Black screen',
        requester: customer.userId,
        createdBy: agent.userId,
        updatedBy: admin.userId,
        state: 'new',
      });
      expect(updated.createdAt).toEqual(ticket.createdAt);
      expect(updated.updatedAt.getTime()).toBeGreaterThanOrEqual(ticket.updatedAt.getTime());
      expect((await ops.get(admin, 'ticket', ticket.id)).record).toEqual(updated);
    });

    it('with a stale version is STALE_VERSION and changes nothing', async () => {
      const error = await refused('STALE_VERSION', () => ops.update(admin, 'ticket', ticket.id, { subject: 'Overwritten' }, 1));
      expect(error.status).toBe(409);
      expect((await ops.get(admin, 'ticket', ticket.id)).record).toMatchObject({ version: 2, subject: 'Laptop boots to a black screen' });
    });

    it('without a usable version is PRECONDITION_REQUIRED', async () => {
      for (const version of [undefined, null, 0, -1, 1.5, '2']) {
        await refused('PRECONDITION_REQUIRED', () => ops.update(admin, 'ticket', ticket.id, { subject: 'No version' }, version as number));
      }
    });

    it('of a missing id is NOT_FOUND', async () => {
      await refused('NOT_FOUND', () => ops.update(admin, 'ticket', 987654321, { subject: 'Ghost' }, 1));
      await refused('NOT_FOUND', () => ops.update(admin, 'ticket', 0, { subject: 'Ghost' }, 1));
    });

    it('checks the fields given only, and refuses bad ones', async () => {
      const error = await refused('VALIDATION_FAILED', () =>
        ops.update(admin, 'ticket', ticket.id, { subject: '', priority: 'whenever' }, 2),
      );
      expect(fieldCodes(error)).toEqual(['priority:invalid_value', 'subject:required']);
      const reference = await refused('VALIDATION_FAILED', () => ops.update(admin, 'ticket', ticket.id, { assignee: 987654321 }, 2));
      // The assignee may be held by agents and admins only (`roles`): no one else, or no one, is refused alike.
      expect(fieldCodes(reference)).toEqual(['assignee:user_role']);
    });
  });

  describe('delete', () => {
    it('with the stored version removes the record; a stale one is refused', async () => {
      const ticket = await ops.create(agent, 'ticket', { subject: 'Delete me', requester: customer.userId });
      const updated = await ops.update(agent, 'ticket', ticket.id, { priority: 'low' }, 1);
      await refused('STALE_VERSION', () => ops.delete(admin, 'ticket', ticket.id, 1));
      await ops.delete(admin, 'ticket', ticket.id, updated.version);
      expect((await ninefoldError(ops.get(admin, 'ticket', ticket.id))).code).toBe('NOT_FOUND');
      await refused('NOT_FOUND', () => ops.delete(admin, 'ticket', ticket.id, updated.version));
      await refused('NOT_FOUND', () => ops.delete(admin, 'ticket', ticket.id));
    });

    it('without a version removes the record; with a bad one is PRECONDITION_REQUIRED', async () => {
      const ticket = await ops.create(agent, 'ticket', { subject: 'Delete me too', requester: customer.userId });
      await refused('PRECONDITION_REQUIRED', () => ops.delete(admin, 'ticket', ticket.id, 0));
      await ops.delete(admin, 'ticket', ticket.id);
      expect((await ninefoldError(ops.get(admin, 'ticket', ticket.id))).code).toBe('NOT_FOUND');
    });

    it('of an organization empties the tickets that referred to it (onDelete setNull)', async () => {
      const initech = await ops.create(admin, 'organization', { name: 'Initech' });
      const ticket = await ops.create(agent, 'ticket', { subject: 'TPS reports', organization: initech.id, requester: customer.userId });
      await ops.delete(admin, 'organization', initech.id, initech.version);
      expect((await ops.get(admin, 'ticket', ticket.id)).record.organization).toBeNull();
    });

    it('of a ticket removes its comments (onDelete cascade)', async () => {
      const ticket = await ops.create(agent, 'ticket', { subject: 'Chatty ticket', requester: customer.userId });
      const comments = await Promise.all(['one', 'two', 'three'].map((body) => ops.create(agent, 'comment', { ticket: ticket.id, body })));
      const other = await ops.create(agent, 'comment', {
        ticket: (await ops.create(agent, 'ticket', { subject: 'Quiet ticket', requester: customer.userId })).id,
        body: 'stays',
      });
      await ops.delete(admin, 'ticket', ticket.id, ticket.version);
      for (const comment of comments) expect((await ninefoldError(ops.get(admin, 'comment', comment.id))).code).toBe('NOT_FOUND');
      expect((await ops.get(admin, 'comment', other.id)).record.body).toBe('stays');
    });

    it('of an organization another record restricts is CONFLICT, and deletes nothing', async () => {
      const globex = await ops.create(admin, 'organization', { name: 'Globex' });
      await ops.create(admin, 'contact', { name: 'Hank', employer: globex.id });
      const error = await refused('CONFLICT', () => ops.delete(admin, 'organization', globex.id, globex.version));
      expect(error.status).toBe(409);
    });
  });

  describe('validation', () => {
    it('names each bad field with a code, and writes nothing', async () => {
      const cases: [Record<string, unknown>, string[]][] = [
        [{}, ['subject:required']],
        [{ subject: '   ' }, ['subject:required']],
        [{ subject: null }, ['subject:required']],
        [{ subject: 'ab' }, ['subject:too_small']],
        [{ subject: 'x'.repeat(201) }, ['subject:too_big']],
        [{ subject: 42 }, ['subject:invalid_type']],
        [{ subject: 'Fine', priority: 'critical' }, ['priority:invalid_value']],
        [{ subject: 'Fine', priority: '' }, ['priority:required']],
        [{ subject: 'Fine', colour: 'red' }, ['colour:unknown_field']],
        [{ subject: 'Fine', organization: 'acme' }, ['organization:invalid_type']],
        [{ subject: 'Fine', organization: -3 }, ['organization:too_small']],
        [{ subject: 'Fine', dueAt: 'tomorrow' }, ['dueAt:invalid_type']],
        [{ subject: 'Fine', dueAt: '2030-02-30T10:00' }, ['dueAt:invalid_type']],
        [
          { subject: 'ab', priority: 'critical', colour: 'red', dueAt: 'soon' },
          ['colour:unknown_field', 'dueAt:invalid_type', 'priority:invalid_value', 'subject:too_small'],
        ],
      ];
      for (const [input, expected] of cases) {
        const error = await refused('VALIDATION_FAILED', () => ops.create(admin, 'ticket', input));
        expect(fieldCodes(error), JSON.stringify(input)).toEqual(expected);
        expect(error.status).toBe(422);
        for (const fieldError of error.fieldErrors) expect(fieldError.message).not.toBe('');
      }
    });

    it('refuses ids of records that do not exist as field errors', async () => {
      const error = await refused('VALIDATION_FAILED', () =>
        ops.create(admin, 'ticket', { subject: 'Fine', organization: 987654321, requester: customer.userId, assignee: 987654322 }),
      );
      expect(fieldCodes(error)).toEqual(['assignee:user_role', 'organization:unknown_reference']);
      // The requester may be held by customers only (`roles`): a user that does not exist is refused alike.
      // (A user field without roles answers unknown_reference: src/engine/ops/user-fields.int.test.ts.)
      const requester = await refused('VALIDATION_FAILED', () => ops.create(admin, 'ticket', { subject: 'Fine', requester: 987654322 }));
      expect(fieldCodes(requester)).toEqual(['requester:user_role']);
      const comment = await refused('VALIDATION_FAILED', () => ops.create(admin, 'comment', { ticket: 987654321, body: 'Hello?' }));
      expect(fieldCodes(comment)).toEqual(['ticket:unknown_reference']);
    });

    it('refuses bad emails, web addresses, numbers, dates and booleans', async () => {
      const cases: [Record<string, unknown>, string[]][] = [
        [{ name: 'X', email: 'not-an-email' }, ['email:invalid_email']],
        [{ name: 'X', email: 'a@b' }, ['email:invalid_email']],
        [{ name: 'X', website: 'example.com' }, ['website:invalid_url']],
        [{ name: 'X', website: 'ftp://example.com' }, ['website:invalid_url']],
        [{ name: 'X', website: 'javascript:alert(1)' }, ['website:invalid_url']],
        [{ name: 'X', visits: '1.5' }, ['visits:invalid_type']],
        [{ name: 'X', visits: '-1' }, ['visits:too_small']],
        [{ name: 'X', visits: 'many' }, ['visits:invalid_type']],
        [{ name: 'X', balance: '1.234' }, ['balance:invalid']],
        [{ name: 'X', balance: '1234567.00' }, ['balance:invalid']],
        [{ name: 'X', balance: 'ten' }, ['balance:pattern']],
        [{ name: 'X', birthday: '1969-13-01' }, ['birthday:invalid_date']],
        [{ name: 'X', active: 'maybe' }, ['active:invalid_type']],
      ];
      for (const [input, expected] of cases) {
        const error = await refused('VALIDATION_FAILED', () => ops.create(admin, 'contact', input));
        expect(fieldCodes(error), JSON.stringify(input)).toEqual(expected);
      }
    });

    it('refuses an input that is not an object of fields', async () => {
      for (const input of [null, [], 'subject'] as unknown[]) {
        await refused('VALIDATION_FAILED', () => ops.create(admin, 'ticket', input as Record<string, unknown>));
      }
    });

    it('refuses the read-only fields and the state with FORBIDDEN_FIELD', async () => {
      const ticket = await ops.create(agent, 'ticket', { subject: 'Guarded', requester: customer.userId });
      const cases: [string, () => Promise<unknown>][] = [
        ['resolvedAt', () => ops.create(admin, 'ticket', { subject: 'Fine', requester: customer.userId, resolvedAt: '2030-01-01T00:00' })],
        ['state', () => ops.create(admin, 'ticket', { subject: 'Fine', requester: customer.userId, state: 'closed' })],
        ['resolvedAt', () => ops.update(admin, 'ticket', ticket.id, { resolvedAt: null }, ticket.version)],
        ['state', () => ops.update(admin, 'ticket', ticket.id, { subject: 'Changed', state: 'resolved' }, ticket.version)],
      ];
      for (const [field, write] of cases) {
        const error = await refused('FORBIDDEN_FIELD', write);
        expect(error.status).toBe(403);
        expect(error.fieldErrors).toEqual([expect.objectContaining({ field, code: 'forbidden_field' })]);
      }
      expect((await ops.get(admin, 'ticket', ticket.id)).record).toEqual(ticket);
    });

    it('refuses a unique value used twice as a field error, not an internal error', async () => {
      const error = await refused('VALIDATION_FAILED', () => ops.create(admin, 'organization', { name: 'Acme' }));
      expect(error.fieldErrors).toEqual([{ field: 'name', code: 'unique', message: expect.stringContaining('already used') }]);

      const other = await ops.create(admin, 'organization', { name: 'Umbrella' });
      const renamed = await refused('VALIDATION_FAILED', () =>
        ops.update(admin, 'organization', other.id, { name: 'Acme' }, other.version),
      );
      expect(fieldCodes(renamed)).toEqual(['name:unique']);

      await ops.create(admin, 'contact', { name: 'First', email: 'same@example.com' });
      const contact = await refused('VALIDATION_FAILED', () => ops.create(admin, 'contact', { name: 'Second', email: 'same@example.com' }));
      expect(fieldCodes(contact)).toEqual(['email:unique']);
    });

    it('keeps working after refused writes (no transaction left open)', async () => {
      const before = await countRows(store.db, 'ticket');
      await ops.create(agent, 'ticket', { subject: 'After the refusals', requester: customer.userId });
      expect(await countRows(store.db, 'ticket')).toBe(before + 1);
    });
  });

  describe('choices', () => {
    it('offers the records of a reference field by title, searchable, within what the actor may list', async () => {
      await ops.create(admin, 'organization', { name: 'Zeta 100% Ltd' });
      const all = await ops.choices(admin, 'ticket', 'organization');
      expect(all.complete).toBe(true);
      const titles = all.choices.map((c) => c.title);
      expect(titles).toEqual([...titles].sort());
      expect(all.choices).toContainEqual({ id: acme.id, title: 'Acme' });
      expect((await ops.choices(admin, 'ticket', 'organization', { q: 'acm' })).choices).toEqual([{ id: acme.id, title: 'Acme' }]);
      expect((await ops.choices(admin, 'ticket', 'organization', { q: '%' })).choices.map((c) => c.title)).toEqual(['Zeta 100% Ltd']);
      const limited = await ops.choices(admin, 'ticket', 'organization', { limit: 1 });
      expect(limited).toEqual({ choices: [all.choices[0]], complete: false });
      const customer = await createActor(store.db, ['customer'], 'Choosy Customer');
      // Hidden from customers: not a field they can choose, let alone list the organizations of.
      expect((await ninefoldError(ops.choices(customer, 'ticket', 'organization'))).code).toBe('FORBIDDEN_FIELD');
    });

    it('offers the active users of a user field, searchable by name or email', async () => {
      const leaver = await createActor(store.db, ['agent'], 'Gone Agent');
      await store.db.updateTable('nf_user').set({ disabled_at: new Date() }).where('id', '=', leaver.userId).execute();
      const users = await ops.choices(admin, 'ticket', 'assignee');
      expect(users.choices).toContainEqual({ id: agent.userId, title: `Grace Agent <${agent.email}>` });
      expect(users.choices.map((c) => c.id)).not.toContain(leaver.userId);
      expect((await ops.choices(admin, 'ticket', 'assignee', { q: 'grace' })).choices.map((c) => c.id)).toEqual([agent.userId]);
      // Search text is matched literally: % and _ are not wildcards.
      expect((await ops.choices(admin, 'ticket', 'assignee', { q: '%' })).choices).toEqual([]);
      expect((await ops.choices(admin, 'ticket', 'assignee', { q: '_' })).choices).toEqual([]);
    });

    it('refuses a field that is not a reference', async () => {
      expect((await ninefoldError(ops.choices(admin, 'ticket', 'subject'))).code).toBe('VALIDATION_FAILED');
      expect((await ninefoldError(ops.choices(admin, 'ticket', 'nothing'))).code).toBe('VALIDATION_FAILED');
    });
  });

  describe('access', () => {
    let alice: Actor;
    let bob: Actor;
    let aliceTicket: RecordData;
    let bobTicket: RecordData;

    beforeAll(async () => {
      alice = await createActor(store.db, ['customer'], 'Alice Customer');
      bob = await createActor(store.db, ['customer'], 'Bob Customer');
      aliceTicket = await ops.create(alice, 'ticket', { subject: 'Alice cannot print' });
      bobTicket = await ops.create(bob, 'ticket', { subject: 'Bob cannot log in' });
      await ops.create(alice, 'ticket', { subject: 'Alice again' });
      await ops.create(agent, 'comment', { ticket: aliceTicket.id, body: 'Public answer' });
      await ops.create(agent, 'comment', { ticket: aliceTicket.id, body: 'Internal note', internal: true });
    });

    it('a customer lists only the tickets they requested', async () => {
      const page = await ops.list(alice, 'ticket', { limit: 500 });
      expect(page.rows.map((r) => r.subject).sort()).toEqual(['Alice again', 'Alice cannot print']);
      expect(page.rows.every((r) => r.requester === alice.userId)).toBe(true);
      const all = await ops.list(admin, 'ticket', { limit: 500 });
      expect(all.rows.map((r) => r.id)).toContain(bobTicket.id);
      // A filter cannot widen the scope.
      const filtered = await ops.list(alice, 'ticket', { filters: { requester: String(bob.userId) } });
      expect(filtered.rows).toEqual([]);
    });

    it("a customer cannot read another customer's ticket: NOT_FOUND, as if absent", async () => {
      expect((await ops.get(bob, 'ticket', bobTicket.id)).record.id).toBe(bobTicket.id);
      const error = await ninefoldError(ops.get(alice, 'ticket', bobTicket.id));
      expect(error.code).toBe('NOT_FOUND');
      expect(error.message).toBe((await ninefoldError(ops.get(alice, 'ticket', 987654321))).message);
    });

    it("a customer cannot update another customer's ticket: NOT_FOUND, and nothing changes", async () => {
      await refused('NOT_FOUND', () => ops.update(alice, 'ticket', bobTicket.id, { subject: 'Mine now' }, bobTicket.version));
      const own = await ops.update(alice, 'ticket', aliceTicket.id, { description: 'Paper jam' }, aliceTicket.version);
      expect(own.version).toBe(aliceTicket.version + 1);
    });

    it('a customer cannot update their resolved ticket: FORBIDDEN (they still read it); once closed, nobody can: TICKET_CLOSED', async () => {
      const ticket = await ops.create(alice, 'ticket', { subject: 'Closed soon' });
      await store.db.updateTable('ticket').set({ state: 'resolved' }).where('id', '=', ticket.id).execute();
      expect((await ops.get(alice, 'ticket', ticket.id)).record.state).toBe('resolved');
      const error = await refused('FORBIDDEN', () =>
        ops.update(alice, 'ticket', ticket.id, { subject: 'Reopened by hand' }, ticket.version),
      );
      expect(error.status).toBe(403);
      await refused('FORBIDDEN', () => ops.update(alice, 'ticket', ticket.id, { subject: 'Reopened by hand' }, ticket.version + 5));
      expect((await ops.update(agent, 'ticket', ticket.id, { subject: 'Agents still can' }, ticket.version)).version).toBe(
        ticket.version + 1,
      );

      await store.db.updateTable('ticket').set({ state: 'closed' }).where('id', '=', ticket.id).execute();
      const closed = await refused('TICKET_CLOSED', () =>
        ops.update(alice, 'ticket', ticket.id, { subject: 'Reopened by hand' }, ticket.version + 1),
      );
      expect(closed.status).toBe(409);
      await refused('TICKET_CLOSED', () => ops.update(agent, 'ticket', ticket.id, { subject: 'Not even agents' }, ticket.version + 1));
    });

    it('a customer cannot delete: FORBIDDEN, and nothing changes', async () => {
      const error = await refused('FORBIDDEN', () => ops.delete(alice, 'ticket', aliceTicket.id));
      expect(error.status).toBe(403);
      await refused('FORBIDDEN', () => ops.delete(agent, 'ticket', aliceTicket.id));
    });

    it('a customer does not see internal comments', async () => {
      const customer = await ops.list(alice, 'comment', { filters: { ticket: String(aliceTicket.id) } });
      expect(customer.rows.map((r) => r.body)).toEqual(['Public answer']);
      const staff = await ops.list(agent, 'comment', { filters: { ticket: String(aliceTicket.id) } });
      expect(staff.rows.map((r) => r.body).sort()).toEqual(['Internal note', 'Public answer']);
      const internal = staff.rows.find((r) => r.internal)!;
      expect((await ninefoldError(ops.get(alice, 'comment', internal.id))).code).toBe('NOT_FOUND');
    });

    it('a role without a grant for an action is FORBIDDEN, and nothing is written', async () => {
      await refused('FORBIDDEN', () => ops.create(agent, 'organization', { name: 'Agents Inc' }));
      await refused('FORBIDDEN', () => ops.create(alice, 'organization', { name: 'Alice Inc' }));
      await refused('FORBIDDEN', () => ops.update(agent, 'organization', acme.id, { name: 'Renamed' }, acme.version));
      expect((await ninefoldError(ops.list(alice, 'organization'))).code).toBe('FORBIDDEN');
      const nobody = await createActor(store.db, [], 'Nobody');
      await refused('FORBIDDEN', () => ops.create(nobody, 'ticket', { subject: 'Let me in' }));
      expect((await ninefoldError(ops.get(nobody, 'ticket', aliceTicket.id))).code).toBe('FORBIDDEN');
    });

    it('a reference to a record the actor cannot read is refused like a missing one, and writes nothing', async () => {
      const other = await refused('VALIDATION_FAILED', () => ops.create(alice, 'comment', { ticket: bobTicket.id, body: 'Me too' }));
      const missing = await refused('VALIDATION_FAILED', () => ops.create(alice, 'comment', { ticket: 987654321, body: 'Me too' }));
      expect(fieldCodes(other)).toEqual(['ticket:unknown_reference']);
      expect(fieldCodes(missing)).toEqual(['ticket:unknown_reference']);
      expect(other.message).toBe(missing.message);
      const own = await ops.create(alice, 'comment', { ticket: aliceTicket.id, body: 'Any news?' });
      expect(own.ticket).toBe(aliceTicket.id);
      // A customer cannot even name a ticket's organization (hidden from them): FORBIDDEN_FIELD.
      const organization = await refused('FORBIDDEN_FIELD', () =>
        ops.create(alice, 'ticket', { subject: 'With an organization', organization: acme.id }),
      );
      expect(fieldCodes(organization)).toEqual(['organization:forbidden_field']);
      // Staff refer to any record they can read.
      expect((await ops.create(agent, 'comment', { ticket: bobTicket.id, body: 'On it' })).ticket).toBe(bobTicket.id);
    });

    it('an entity without permissions is open to the built-in admin only', async () => {
      const contact = await ops.create(admin, 'contact', { name: 'Admins only' });
      expect((await ops.get(admin, 'contact', contact.id)).record.name).toBe('Admins only');
      const nobody = await createActor(store.db, [], 'Nobody Else');
      for (const actor of [nobody, alice, agent]) {
        await refused('FORBIDDEN', () => ops.create(actor, 'contact', { name: 'Let me in' }));
        expect((await ninefoldError(ops.get(actor, 'contact', contact.id))).code).toBe('FORBIDDEN');
        expect((await ninefoldError(ops.list(actor, 'contact'))).code).toBe('FORBIDDEN');
      }
    });
  });
});
