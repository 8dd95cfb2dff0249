import { beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import { encodeCursor } from './cursor';
import type { Ops } from './ops';
import { recordColumns, rowToRecord } from './records';
import { createActor, fieldCodes, ninefoldError, openSyncedQuickly, testModel } from '@testing/engine/ops';
import type { ListQuery, RecordData } from './types';
import type { RecordValue } from '../ground/record-value';
import type { Actor } from '../ground/actor';

const model = testModel;
const ticketEntity = model.entitiesByName.ticket!;
const TICKETS = 230;
const PRIORITIES = ['low', 'normal', 'high', 'urgent'];
const STATES = ['new', 'open', 'pending', 'resolved', 'closed'];
// Lower-case letters and digits only: the same order under every collation.
const WORDS = ['printer', 'vpn', 'mail', 'laptop', 'badge', 'wifi', 'invoice'];
const BASE = Date.UTC(2030, 0, 1);
const MINUTE = 60_000;

function compareValues(a: Exclude<RecordValue, null>, b: Exclude<RecordValue, null>, enumValues?: readonly string[]): number {
  // Enum values in their declared order (low < normal < high < urgent), not alphabetically.
  if (enumValues) return enumValues.indexOf(String(a)) - enumValues.indexOf(String(b));
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const [x, y] = [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The order a list must have: for each key, values in its direction with empty ones last; ties
 * broken by id in the direction of the last key.
 */
function expectedOrder(rows: readonly RecordData[], sort: string): number[] {
  const keys = sort.split(',').map((k) => ({ field: k.replace(/^-/, ''), sign: k.startsWith('-') ? -1 : 1 }));
  return [...rows]
    .sort((a, b) => {
      for (const { field, sign } of keys) {
        const [x, y] = [a[field] ?? null, b[field] ?? null];
        if (x === null && y !== null) return 1;
        if (y === null && x !== null) return -1;
        if (x !== null && y !== null) {
          const byValue = compareValues(x, y, ticketEntity.fieldsByName[field]?.enumValues);
          if (byValue !== 0) return sign * byValue;
        }
      }
      return keys[keys.length - 1]!.sign * (a.id - b.id);
    })
    .map((r) => r.id);
}

forEachDatabase('keyset pagination', (database) => {
  let store: Store;
  let ops: Ops;
  let admin: Actor;
  let agents: Actor[];
  let organizations: number[];

  async function allTickets(): Promise<RecordData[]> {
    const rows = await store.db.selectFrom('ticket').select(recordColumns(ticketEntity)).execute();
    return rows.map((row) => rowToRecord(ticketEntity, row));
  }

  /** Every page from the first to the last: the ids in page order, and how many pages. */
  async function pageThrough(query: ListQuery, actor: Actor = admin): Promise<{ ids: number[]; pages: number }> {
    const ids: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    const limit = query.limit ?? 17;
    do {
      const page = await ops.list(actor, 'ticket', { ...query, limit, cursor });
      pages += 1;
      ids.push(...page.rows.map((r) => r.id));
      if (page.nextCursor) expect(page.rows).toHaveLength(limit);
      else expect(page.rows.length).toBeLessThanOrEqual(limit);
      cursor = page.nextCursor ?? undefined;
    } while (cursor && pages <= TICKETS + 50);
    return { ids, pages };
  }

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    admin = await createActor(store.db, ['admin'], 'Pat Admin');
    agents = [await createActor(store.db, ['agent'], 'Ann Agent'), await createActor(store.db, ['agent'], 'Ben Agent')];
    organizations = [];
    for (const name of ['Acme', 'Globex', 'Initech']) organizations.push((await ops.create(admin, 'organization', { name })).id);

    // Few distinct values per column, so that most rows tie with others on the sort column.
    const rows = Array.from({ length: TICKETS }, (_, i) => ({
      subject: `${WORDS[i % WORDS.length]}${i % 5}`,
      description: i % 2 === 0 ? 'the screen stays black after the update' : 'nothing works since monday',
      priority: PRIORITIES[i % PRIORITIES.length],
      state: STATES[i % STATES.length],
      organization: i % 4 === 3 ? null : organizations[i % 3],
      requester: admin.userId,
      assignee: i % 3 === 0 ? null : agents[i % 2]!.userId,
      due_at: i % 5 === 0 ? null : new Date(BASE + (i % 11) * 24 * 60 * MINUTE),
      created_at: new Date(BASE - (i % 13) * MINUTE),
      updated_at: new Date(BASE + (i % 7) * 1000),
      created_by: admin.userId,
      updated_by: admin.userId,
    }));
    // Shuffle, so that id order is not the order of any column.
    for (let i = rows.length - 1; i > 0; i--) {
      const j = (i * 7919) % (i + 1);
      [rows[i], rows[j]] = [rows[j]!, rows[i]!];
    }
    await store.db.insertInto('ticket').values(rows).execute();
  });

  describe('pages through every row exactly once, in order', () => {
    const sorts = [
      'priority',
      '-priority',
      'dueAt',
      '-dueAt',
      'createdAt',
      '-createdAt',
      'updatedAt',
      '-updatedAt',
      'subject',
      '-subject',
      'organization',
      '-assignee',
      'state',
      'id',
      '-id',
      // Several keys, mixed directions, nullable ones among them.
      '-priority,subject',
      'state,-dueAt',
      'assignee,-priority,createdAt',
      '-dueAt,organization',
    ];
    for (const sort of sorts) {
      it(`sort=${sort}`, async () => {
        const expected = expectedOrder(await allTickets(), sort);
        const { ids, pages } = await pageThrough({ sort });
        expect(ids).toHaveLength(expected.length);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids).toEqual(expected);
        expect(pages).toBe(Math.ceil(expected.length / 17));
      });
    }

    it('uses the list screen sort (-updatedAt) when none is given, and says which sort it used', async () => {
      const page = await ops.list(admin, 'ticket', { limit: 5 });
      expect(page.sort).toEqual([{ field: 'updatedAt', direction: 'desc' }]);
      expect(page.rows.map((r) => r.id)).toEqual(expectedOrder(await allTickets(), '-updatedAt').slice(0, 5));
      // An empty sort (a form's blank value) is the default too.
      expect((await ops.list(admin, 'ticket', { limit: 5, sort: '' })).rows).toEqual(page.rows);
    });

    it('ends without an empty page when the rows fill the last page exactly', async () => {
      const { ids, pages } = await pageThrough({ sort: 'priority', limit: 23 });
      expect(ids).toHaveLength(TICKETS);
      expect(pages).toBe(TICKETS / 23);
    });

    it('pages a small filtered list one row at a time', async () => {
      const expected = expectedOrder(
        (await allTickets()).filter((t) => t.priority === 'urgent' && t.state === 'closed'),
        '-dueAt',
      );
      const { ids, pages } = await pageThrough({ sort: '-dueAt', limit: 1, filters: { priority: 'urgent', state: 'closed' } });
      expect(ids).toEqual(expected);
      expect(pages).toBe(expected.length);
    });
  });

  describe('when rows change between pages', () => {
    it('inserted rows before the cursor are not seen, after it are, and no original row is skipped or repeated', async () => {
      for (const sort of ['dueAt', '-priority', '-dueAt', 'state,-dueAt']) {
        const original = expectedOrder(await allTickets(), sort);
        const first = await ops.list(admin, 'ticket', { sort, limit: 17 });
        expect(first.rows.map((r) => r.id)).toEqual(original.slice(0, 17));

        const inserted = await store.db
          .insertInto('ticket')
          .values(
            [
              { subject: 'beforecursor', priority: 'urgent', due_at: new Date(BASE - 1000 * 24 * 60 * MINUTE) },
              { subject: 'aftercursor', priority: 'low', due_at: new Date(BASE + 1000 * 24 * 60 * MINUTE) },
              { subject: 'nodue', priority: 'normal', due_at: null },
              { subject: 'sametie', priority: first.rows[16]!.priority, due_at: first.rows[16]!.dueAt },
            ].map((r) => ({ ...r, state: 'new', requester: admin.userId })),
          )
          .returning('id')
          .execute();
        const newIds = new Set(inserted.map((r) => r.id as number));

        const rest: number[] = [];
        let cursor = first.nextCursor;
        while (cursor) {
          const page = await ops.list(admin, 'ticket', { sort, limit: 17, cursor });
          rest.push(...page.rows.map((r) => r.id));
          cursor = page.nextCursor;
        }
        const seen = [...first.rows.map((r) => r.id), ...rest];
        expect(
          seen.filter((id) => !newIds.has(id)),
          sort,
        ).toEqual(original);
        expect(new Set(seen).size).toBe(seen.length);
        // What the new rows' places say: the final order restricted to what was read after page 1.
        const now = expectedOrder(await allTickets(), sort);
        const cursorAt = now.indexOf(first.rows[16]!.id);
        expect(rest).toEqual(now.slice(cursorAt + 1));

        await store.db
          .deleteFrom('ticket')
          .where('id', 'in', [...newIds])
          .execute();
      }
    });

    it('a deleted cursor row does not lose the place', async () => {
      const sort = 'priority';
      const original = expectedOrder(await allTickets(), sort);
      const first = await ops.list(admin, 'ticket', { sort, limit: 17 });
      const last = first.rows[16]!;
      await store.db.deleteFrom('ticket').where('id', '=', last.id).execute();
      const second = await ops.list(admin, 'ticket', { sort, limit: 17, cursor: first.nextCursor! });
      expect(second.rows.map((r) => r.id)).toEqual(original.slice(17, 34));
      const { id: _id, ...row } = rowOf(last);
      await store.db.insertInto('ticket').values(row).execute();
    });
  });

  describe('refuses what it cannot read', () => {
    async function refusedQuery(query: ListQuery, field: string) {
      const error = await ninefoldError(ops.list(admin, 'ticket', query));
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.status).toBe(422);
      expect(error.fieldErrors.map((e) => e.field)).toEqual([field]);
      return error;
    }

    it('a cursor that is garbage, or belongs to another sort', async () => {
      const page = await ops.list(admin, 'ticket', { sort: 'priority', limit: 5 });
      const garbage = [
        'not a cursor!',
        'bm90IGpzb24',
        Buffer.from('null').toString('base64url'),
        Buffer.from('{"s":"priority","v":"low"}').toString('base64url'),
        Buffer.from('{"s":"priority","v":{"x":1},"i":3}').toString('base64url'),
        Buffer.from('{"s":"priority","v":"low","i":-3}').toString('base64url'),
        'A'.repeat(3000),
      ];
      for (const cursor of garbage) {
        const error = await refusedQuery({ sort: 'priority', cursor }, 'cursor');
        expect(fieldCodes(error)).toEqual(['cursor:invalid_cursor']);
      }
      for (const sort of ['-priority', 'dueAt', undefined]) await refusedQuery({ sort, cursor: page.nextCursor! }, 'cursor');
    });

    it('a cursor whose value does not fit the sort column (crafted by a client)', async () => {
      const crafted: [string, unknown][] = [
        ['dueAt', 'yesterday'],
        ['dueAt', 12],
        ['createdAt', null],
        ['createdAt', '2030-02-30T00:00:00.000Z'],
        ['id', 'x'],
        ['id', null],
        ['organization', 'acme'],
        ['organization', 1.5],
        ['subject', 7],
        ['priority', true],
        ['state', null],
      ];
      for (const [field, value] of crafted) {
        const cursor = encodeCursor([{ field, direction: 'asc' }], [value], 1);
        await refusedQuery({ sort: field, cursor }, 'cursor');
      }
      // The values the engine itself puts in cursors are accepted.
      for (const [field, value] of [
        ['dueAt', null],
        ['dueAt', new Date(BASE)],
        ['organization', organizations[0]],
        ['subject', 'mail1'],
      ] as const) {
        const page = await ops.list(admin, 'ticket', {
          sort: field,
          cursor: encodeCursor([{ field, direction: 'asc' }], [value], 1),
          limit: 3,
        });
        expect(page.rows.length).toBeGreaterThan(0);
      }
    });

    it('a sort by an unknown or unsortable field', async () => {
      for (const sort of ['colour', '-description', 'search', '-', 'version', 'subject,-subject', 'subject,', 'state,priority,subject,id'])
        await refusedQuery({ sort }, 'sort');
    });

    it('a filter on an unknown or unfilterable field, or with a value it cannot have', async () => {
      await refusedQuery({ filters: { subject: 'mail1' } }, 'subject');
      await refusedQuery({ filters: { colour: 'red' } }, 'colour');
      await refusedQuery({ filters: { priority: 'critical' } }, 'priority');
      await refusedQuery({ filters: { state: 'lost' } }, 'state');
      await refusedQuery({ filters: { organization: 'acme' } }, 'organization');
      await refusedQuery({ filters: { organization: '0' } }, 'organization');
      await refusedQuery({ filters: { assignee: '-1' } }, 'assignee');
    });

    it('a page size that is not a whole number from 1 to 500', async () => {
      for (const limit of [0, -1, 1.5, 501, Number.NaN, '5' as unknown as number]) await refusedQuery({ limit }, 'limit');
      expect((await ops.list(admin, 'ticket', { limit: 500 })).rows).toHaveLength(TICKETS);
    });
  });

  describe('filters', () => {
    it('by state, priority, organization and assignee, alone and together, with any sort', async () => {
      const tickets = await allTickets();
      const cases: [Record<string, string>, (t: RecordData) => boolean][] = [
        [{ state: 'pending' }, (t) => t.state === 'pending'],
        [{ priority: 'high' }, (t) => t.priority === 'high'],
        [{ organization: String(organizations[1]) }, (t) => t.organization === organizations[1]],
        [{ assignee: String(agents[0]!.userId) }, (t) => t.assignee === agents[0]!.userId],
        [
          { state: 'open', priority: 'normal', organization: String(organizations[0]), assignee: '' },
          (t) => t.state === 'open' && t.priority === 'normal' && t.organization === organizations[0],
        ],
        [{ priority: 'low', assignee: String(agents[0]!.userId) }, (t) => t.priority === 'low' && t.assignee === agents[0]!.userId],
      ];
      for (const [filters, keep] of cases) {
        for (const sort of ['-dueAt', 'subject']) {
          const expected = expectedOrder(tickets.filter(keep), sort);
          expect(expected.length).toBeGreaterThan(0);
          const { ids } = await pageThrough({ sort, filters, limit: 7 });
          expect(ids, JSON.stringify({ filters, sort })).toEqual(expected);
        }
      }
    });

    it('together with a search and a sort', async () => {
      const tickets = await allTickets();
      const expected = expectedOrder(
        tickets.filter((t) => t.priority === 'high' && String(t.description).includes('black')),
        'createdAt',
      );
      expect(expected.length).toBeGreaterThan(0);
      const { ids } = await pageThrough({ sort: 'createdAt', q: 'black', filters: { priority: 'high' }, limit: 4 });
      expect(ids).toEqual(expected);
    });
  });
});

/** A ticket record as a row to insert (to put a deleted row back, under a new id). */
function rowOf(record: RecordData): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const column of recordColumns(ticketEntity)) if (typeof column === 'string') row[column] = null;
  for (const c of ticketEntity.systemColumns) row[c.column] = record[c.name];
  row.state = record.state;
  // A set (the attachments) is kept in its join table, not in a column of the row.
  for (const f of ticketEntity.fields) if (f.joinTable === undefined) row[f.column] = record[f.name];
  return row;
}
