import { beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { createActor, fieldCodes, ninefoldError, openSyncedQuickly, testModel } from '@testing/engine/ops';
import type { ListQuery, RecordData } from './types';
import type { Actor } from '../ground/actor';

const model = testModel;

forEachDatabase('search', (database) => {
  let store: Store;
  let ops: Ops;
  let agent: Actor;
  let customer: Actor;
  const tickets: Record<string, RecordData> = {};

  async function subjects(query: ListQuery, actor: Actor = agent, entity = 'ticket'): Promise<string[]> {
    const page = await ops.list(actor, entity, { limit: 100, ...query });
    return page.rows.map((r) => String(r.subject ?? r.name ?? r.body)).sort();
  }

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    agent = await createActor(store.db, ['agent'], 'Sam Agent');
    customer = await createActor(store.db, ['customer'], 'Cat Customer');
    // The agent files tickets for another customer: not Cat's to find.
    const caller = await createActor(store.db, ['customer'], 'Cal Caller');
    const data: [string, string | null, Actor][] = [
      ['Printer on fire', 'The office printer is smoking', agent],
      ['VPN drops every hour', 'Connection to the VPN drops at random', agent],
      ['Mail bounces', 'Outgoing mail bounces with error 550', agent],
      ['Printer out of paper', 'Paper tray empty on floor two', customer],
      ['Cannot log in', 'Password reset mail never arrives', customer],
      ['Screen flickers', null, agent],
    ];
    for (const [subject, description, actor] of data) {
      const requester = actor === agent ? { requester: caller.userId } : {};
      tickets[subject] = await ops.create(actor, 'ticket', { subject, description, ...requester });
    }
  });

  describe('finds words of the searchable fields', () => {
    it('in the subject and in the description, whatever their case', async () => {
      expect(await subjects({ q: 'printer' })).toEqual(['Printer on fire', 'Printer out of paper']);
      expect(await subjects({ q: 'PRINTER' })).toEqual(['Printer on fire', 'Printer out of paper']);
      expect(await subjects({ q: 'smoking' })).toEqual(['Printer on fire']);
      expect(await subjects({ q: 'mail' })).toEqual(['Cannot log in', 'Mail bounces']);
      expect(await subjects({ q: '550' })).toEqual(['Mail bounces']);
    });

    it('every word of the query (AND), not stems ("simple": smoke is not smoking)', async () => {
      expect(await subjects({ q: 'printer paper' })).toEqual(['Printer out of paper']);
      expect(await subjects({ q: 'printer vpn' })).toEqual([]);
      expect(await subjects({ q: 'smoke' })).toEqual([]);
    });

    it('the last word as a prefix while it is being typed', async () => {
      expect(await subjects({ q: 'prin' })).toEqual(['Printer on fire', 'Printer out of paper']);
      expect(await subjects({ q: 'printer pap' })).toEqual(['Printer out of paper']);
      expect(await subjects({ q: 'vpn or boun' })).toEqual(['Mail bounces', 'VPN drops every hour']);
      expect(await subjects({ q: 'printer -pap' })).toEqual(['Printer on fire', 'Printer out of paper']);
      expect(await subjects({ q: '"out of pa' })).toEqual([]);
      expect(await subjects({ q: 'smok' })).toEqual(['Printer on fire']);
    });

    it('phrases in quotes, in their order', async () => {
      expect(await subjects({ q: '"printer is smoking"' })).toEqual(['Printer on fire']);
      expect(await subjects({ q: '"smoking printer"' })).toEqual([]);
      expect(await subjects({ q: '"out of paper"' })).toEqual(['Printer out of paper']);
    });

    it('alternatives with or', async () => {
      expect(await subjects({ q: 'vpn or bounces' })).toEqual(['Mail bounces', 'VPN drops every hour']);
      expect(await subjects({ q: 'flickers OR "paper tray"' })).toEqual(['Printer out of paper', 'Screen flickers']);
    });

    it('words to leave out with a minus', async () => {
      expect(await subjects({ q: 'printer -paper' })).toEqual(['Printer on fire']);
      expect(await subjects({ q: 'mail -password' })).toEqual(['Mail bounces']);
    });

    it('nothing when nothing matches; everything for a blank query', async () => {
      const page = await ops.list(agent, 'ticket', { q: 'teleporter' });
      expect(page.rows).toEqual([]);
      expect(page.nextCursor).toBeNull();
      expect(await subjects({ q: '   ' })).toHaveLength(Object.keys(tickets).length);
      expect(await subjects({ q: '' })).toHaveLength(Object.keys(tickets).length);
    });

    it('takes any text as words, never as SQL or query syntax', async () => {
      for (const q of ["'; drop table ticket; --", 'printer & (vpn | mail):*', '!!!', '"', '-', 'or', '\\', '%_']) {
        const page = await ops.list(agent, 'ticket', { q });
        expect(Array.isArray(page.rows), q).toBe(true);
      }
      expect(await subjects({ q: 'printer & (mail)' })).toEqual([]);
      expect(await subjects({})).toHaveLength(Object.keys(tickets).length);
    });

    it('follows updates of the searched fields', async () => {
      const ticket = tickets['Screen flickers']!;
      await ops.update(agent, 'ticket', ticket.id, { subject: 'Monitor flickers', description: 'since the new cable' }, ticket.version);
      expect(await subjects({ q: 'screen' })).toEqual([]);
      expect(await subjects({ q: 'monitor cable' })).toEqual(['Monitor flickers']);
    });
  });

  describe('stays within what the list may show', () => {
    it("a customer's search finds only their own tickets", async () => {
      expect(await subjects({ q: 'printer' }, customer)).toEqual(['Printer out of paper']);
      expect(await subjects({ q: 'mail' }, customer)).toEqual(['Cannot log in']);
    });

    it('a customer does not find words of internal comments', async () => {
      const ticket = tickets['Cannot log in']!;
      await ops.create(agent, 'comment', { ticket: ticket.id, body: 'Customer seems confused about the reset', internal: true });
      await ops.create(agent, 'comment', { ticket: ticket.id, body: 'We sent a new reset link' });
      expect(await subjects({ q: 'reset' }, agent, 'comment')).toEqual([
        'Customer seems confused about the reset',
        'We sent a new reset link',
      ]);
      expect(await subjects({ q: 'reset' }, customer, 'comment')).toEqual(['We sent a new reset link']);
      expect(await subjects({ q: 'confused' }, customer, 'comment')).toEqual([]);
    });

    it('combined with a filter, a sort and pages', async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await ops.list(agent, 'ticket', {
          q: 'printer or mail or vpn',
          sort: 'subject',
          filters: { priority: 'normal' },
          limit: 1,
          cursor,
        });
        seen.push(...page.rows.map((r) => String(r.subject)));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(['Cannot log in', 'Mail bounces', 'Printer on fire', 'Printer out of paper', 'VPN drops every hour']);
    });

    it('of another entity: organizations by name', async () => {
      const admin = await createActor(store.db, ['admin'], 'Root Admin');
      await ops.create(admin, 'organization', { name: 'Blue Harbor Shipping' });
      await ops.create(admin, 'organization', { name: 'Red Harbor Foods' });
      expect(await subjects({ q: 'harbor -red' }, admin, 'organization')).toEqual(['Blue Harbor Shipping']);
    });
  });

  describe('refuses', () => {
    it('a search of an entity that has no searchable fields', async () => {
      // Contacts declare no permissions: the built-in admin alone may use them.
      const admin = await createActor(store.db, ['admin'], 'Search Admin');
      const error = await ninefoldError(ops.list(admin, 'contact', { q: 'anything' }));
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(fieldCodes(error)).toEqual(['q:invalid_search']);
      // A blank one is no search, and allowed.
      expect((await ops.list(admin, 'contact', { q: ' ' })).rows).toEqual([]);
    });

    it('a search longer than 200 characters, or not text', async () => {
      expect(fieldCodes(await ninefoldError(ops.list(agent, 'ticket', { q: 'x'.repeat(201) })))).toEqual(['q:invalid_search']);
      expect(fieldCodes(await ninefoldError(ops.list(agent, 'ticket', { q: 42 as unknown as string })))).toEqual(['q:invalid_search']);
      expect(await subjects({ q: `printer ${'x'.repeat(190)}` })).toEqual([]);
    });
  });
});
