import { beforeAll, expect, it } from 'vitest';
import { buildModel } from '../spec/build';
import type { AppSpec } from '../spec/types';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { createActor, ninefoldError, openSyncedQuickly } from '@testing/engine/ops';
import type { RecordData } from './types';
import type { Actor } from '../ground/actor';
import { inTransaction } from './transaction';
import { syncSchema } from '../store/schema/sync';

/**
 * A board of tickets in epics and sprints, each ticket with comments: the board's numbers and
 * each ticket's reply count are derived from the records that reference them.
 */
const SPEC = {
  name: 'derived',
  entities: {
    board: {
      titleField: 'name',
      fields: {
        name: { type: 'text', required: true },
        ticketCount: { type: 'integer', derived: { count: 'ticket' } },
        openPoints: { type: 'integer', derived: { sum: 'ticket.points', where: { field: 'state', op: 'eq', value: 'open' } } },
        hasOpen: { type: 'boolean', derived: { exists: 'ticket', where: { field: 'state', op: 'eq', value: 'open' } } },
        lastDue: { type: 'date', derived: { max: 'ticket.due' } },
        unplanned: { type: 'integer', derived: { count: 'ticket', where: { field: 'sprint', op: 'absent' } } },
      },
    },
    epic: { titleField: 'name', fields: { name: { type: 'text', required: true } } },
    sprint: { titleField: 'name', fields: { name: { type: 'text', required: true } } },
    ticket: {
      titleField: 'title',
      fields: {
        title: { type: 'text', required: true },
        board: { type: 'reference', to: 'board', required: true },
        epic: { type: 'reference', to: 'epic', onDelete: 'cascade' },
        sprint: { type: 'reference', to: 'sprint', onDelete: 'setNull' },
        points: { type: 'integer', min: 0, max: 100 },
        due: { type: 'date' },
        replyCount: {
          type: 'integer',
          label: 'Replies',
          derived: { count: 'comment', where: { field: 'internal', op: 'eq', value: false } },
        },
      },
    },
    comment: {
      titleField: 'body',
      fields: {
        body: { type: 'text', required: true },
        ticket: { type: 'reference', to: 'ticket', required: true, onDelete: 'cascade' },
        internal: { type: 'boolean', default: false, required: true },
      },
    },
  },
  workflows: {
    ticket: {
      states: { open: { initial: true }, closed: {} },
      transitions: { close: { from: 'open', to: 'closed', allow: ['agent'] }, reopen: { from: 'closed', to: 'open', allow: ['agent'] } },
    },
  },
  roles: { agent: { label: 'Agent' } },
  permissions: {
    board: { agent: { list: true, read: true, create: true, update: true } },
    epic: { agent: { list: true, read: true, create: true, delete: true } },
    sprint: { agent: { list: true, read: true, create: true, delete: true } },
    ticket: { agent: { list: true, read: true, create: true, update: true, delete: true } },
    comment: { agent: { list: true, read: true, create: true, update: true, delete: true } },
  },
} as const;

const model = buildModel(SPEC as unknown as AppSpec);

forEachDatabase('derived fields', (database) => {
  let store: Store;
  let ops: Ops;
  let agent: Actor;
  let counter = 0;
  const board = async (id: number) => (await ops.get(agent, 'board', id)).record;
  const ticket = async (id: number) => (await ops.get(agent, 'ticket', id)).record;
  const newBoard = () => ops.create(agent, 'board', { name: `Board ${++counter}` });
  const newTicket = (boardId: number, input: Record<string, unknown> = {}) =>
    ops.create(agent, 'ticket', { title: `Ticket ${++counter}`, board: boardId, points: 1, ...input });
  const numbers = (record: RecordData) => ({
    ticketCount: record.ticketCount,
    openPoints: record.openPoints,
    hasOpen: record.hasOpen,
    lastDue: record.lastDue,
    unplanned: record.unplanned,
  });

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    agent = await createActor(store.db, ['agent'], 'Derived Agent');
  });

  it('starts a new record at no related records: 0, false, empty', async () => {
    const created = await newBoard();
    expect(numbers(await board(created.id))).toEqual({ ticketCount: 0, openPoints: 0, hasOpen: false, lastDue: null, unplanned: 0 });
  });

  it('follows creates, updates, transitions and deletes of the related records', async () => {
    const b = await newBoard();
    const t1 = await newTicket(b.id, { points: 3, due: '2026-03-01' });
    const t2 = await newTicket(b.id, { points: 5, due: '2026-04-01' });
    expect(numbers(await board(b.id))).toEqual({ ticketCount: 2, openPoints: 8, hasOpen: true, lastDue: '2026-04-01', unplanned: 2 });
    // An update of a folded field.
    const t1b = await ops.update(agent, 'ticket', t1.id, { points: 4 }, t1.version);
    expect((await board(b.id)).openPoints).toBe(9);
    // A transition out of the `where`.
    await ops.transition(agent, 'ticket', t1b.id, 'close', { version: t1b.version });
    await ops.transition(agent, 'ticket', t2.id, 'close', { version: t2.version });
    expect(numbers(await board(b.id))).toMatchObject({ ticketCount: 2, openPoints: 0, hasOpen: false });
    // A delete.
    await ops.delete(agent, 'ticket', t2.id);
    expect(numbers(await board(b.id))).toMatchObject({ ticketCount: 1, lastDue: '2026-03-01' });
  });

  it('recounts both parents when a reference moves, and leaves the parent version alone', async () => {
    const [from, to] = [await newBoard(), await newBoard()];
    const t = await newTicket(from.id, { points: 7 });
    const before = await board(from.id);
    await ops.update(agent, 'ticket', t.id, { board: to.id }, t.version);
    expect(numbers(await board(from.id))).toMatchObject({ ticketCount: 0, openPoints: 0, hasOpen: false });
    expect(numbers(await board(to.id))).toMatchObject({ ticketCount: 1, openPoints: 7, hasOpen: true });
    // Derived values are facts of the related records, not edits of the board: no new version.
    const after = await board(from.id);
    expect(after.version).toBe(before.version);
    // Nor entries of its history: a derived value is not a change anyone made to it.
    const history = await ops.history(agent, 'board', to.id);
    expect(history.entries.flatMap((e) => Object.keys(e.changes))).toEqual(['name']);
  });

  it('counts the related records of create-many (the CSV import) in the same transaction', async () => {
    const b = await newBoard();
    const result = await ops.createMany(
      agent,
      'ticket',
      [1, 2, 3].map((n) => ({ title: `Bulk ${++counter}`, board: b.id, points: n })),
    );
    expect(result.created).toBe(3);
    expect(numbers(await board(b.id))).toMatchObject({ ticketCount: 3, openPoints: 6 });
  });

  it('follows cascades: a deleted epic takes its tickets out of the count, a deleted sprint leaves them unplanned', async () => {
    const b = await newBoard();
    const epic = await ops.create(agent, 'epic', { name: 'Epic' });
    const sprint = await ops.create(agent, 'sprint', { name: 'Sprint' });
    await newTicket(b.id, { epic: epic.id });
    await newTicket(b.id, { sprint: sprint.id });
    expect(numbers(await board(b.id))).toMatchObject({ ticketCount: 2, unplanned: 1 });
    await ops.delete(agent, 'sprint', sprint.id);
    expect(numbers(await board(b.id))).toMatchObject({ ticketCount: 2, unplanned: 2 });
    await ops.delete(agent, 'epic', epic.id);
    expect(numbers(await board(b.id))).toMatchObject({ ticketCount: 1, unplanned: 1 });
  });

  it('keeps nothing of a refused or rolled-back write', async () => {
    const b = await newBoard();
    await newTicket(b.id, { points: 2 });
    // Refused by the field's max: nothing is written.
    const refused = await ninefoldError(newTicket(b.id, { points: 1000 }));
    expect(refused.code).toBe('VALIDATION_FAILED');
    // Written, then rolled back.
    await expect(
      inTransaction(store.db, async (trx) => {
        await trx.insertInto('ticket').values({ title: 'Gone', board: b.id, points: 50, state: 'open' }).execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(numbers(await board(b.id))).toMatchObject({ ticketCount: 1, openPoints: 2 });
  });

  it('refuses writes of a derived field through ops, naming it', async () => {
    const b = await newBoard();
    // As any read-only field: FORBIDDEN_FIELD naming it.
    const error = await ninefoldError(ops.update(agent, 'board', b.id, { ticketCount: 5 }, b.version));
    expect(error.code).toBe('FORBIDDEN_FIELD');
    expect(error.fieldErrors).toEqual([
      {
        field: 'ticketCount',
        code: 'forbidden_field',
        message: 'Ticket count is derived from the ticket records that refer to it: nobody writes it.',
      },
    ]);
    const created = await ninefoldError(ops.create(agent, 'board', { name: 'Preset', hasOpen: true }));
    expect(created.fieldErrors?.[0]?.field).toBe('hasOpen');
    expect((await board(b.id)).ticketCount).toBe(0);
  });

  it('counts only the related records of `where`, and six comments written at once count six', async () => {
    const b = await newBoard();
    const t = await newTicket(b.id);
    await ops.create(agent, 'comment', { body: 'Internal', ticket: t.id, internal: true });
    await Promise.all([1, 2, 3, 4, 5, 6].map((n) => ops.create(agent, 'comment', { body: `Reply ${n}`, ticket: t.id })));
    expect((await ticket(t.id)).replyCount).toBe(6);
    // An edit of a comment's text does not touch the ticket; flipping it to internal does.
    const { rows } = await ops.list(agent, 'comment', { filters: { ticket: String(t.id), internal: 'false' }, limit: 1 });
    const first = rows[0]!;
    const ticketBefore = await ticket(t.id);
    await ops.update(agent, 'comment', first.id, { internal: true }, first.version);
    const ticketAfter = await ticket(t.id);
    expect(ticketAfter.replyCount).toBe(5);
    expect(ticketAfter.version).toBe(ticketBefore.version);
  });

  // Two writers at once need two connections: PGlite has one, and takes transactions in turn.
  if (database.kind === 'postgres') {
    it('recounts after the writer it waited for committed: the later count includes the earlier comment', async () => {
      const t = await newTicket((await newBoard()).id);
      let inserted!: () => void;
      let release!: () => void;
      const firstInserted = new Promise<void>((resolve) => (inserted = resolve));
      const held = new Promise<void>((resolve) => (release = resolve));
      const first = store.db.transaction().execute(async (trx) => {
        await trx.insertInto('comment').values({ body: 'First', ticket: t.id, internal: false }).execute();
        inserted();
        await held;
      });
      await firstInserted;
      // The second's trigger waits for the ticket the first has recounted; its recount then runs on a fresh snapshot.
      const second = store.db
        .transaction()
        .execute((trx) => trx.insertInto('comment').values({ body: 'Second', ticket: t.id, internal: false }).execute());
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      await Promise.all([first, second]);
      expect((await ticket(t.id)).replyCount).toBe(2);
    });
  }

  it('sorts and filters lists by a derived value', async () => {
    const [quiet, busy] = [await newBoard(), await newBoard()];
    for (const n of [1, 2, 3]) await newTicket(busy.id, { points: n });
    await newTicket(quiet.id, { points: 1 });
    const sorted = await ops.list(agent, 'board', { sort: '-ticketCount', limit: 2 });
    expect(sorted.rows[0]!.ticketCount).toBeGreaterThanOrEqual(3);
    const open = await ops.list(agent, 'board', { filters: { hasOpen: 'true' }, sort: 'ticketCount', limit: 100 });
    expect(open.rows.map((r) => r.id)).toEqual(expect.arrayContaining([quiet.id, busy.id]));
    expect(open.rows.every((r) => r.hasOpen === true)).toBe(true);
    const ids = open.rows.map((r) => r.id);
    expect(ids.indexOf(quiet.id)).toBeLessThan(ids.indexOf(busy.id));
  });
});

/** The same spec before its derived fields were declared. */
function withoutDerived(spec: typeof SPEC): AppSpec {
  const entities = Object.fromEntries(
    Object.entries(spec.entities).map(([name, entity]) => [
      name,
      { ...entity, fields: Object.fromEntries(Object.entries(entity.fields).filter(([, field]) => !('derived' in field))) },
    ]),
  );
  return { ...spec, entities } as unknown as AppSpec;
}

forEachDatabase('derived fields added to a spec with data', (database) => {
  it('adds the columns and counts the records already there', async () => {
    const before = buildModel(withoutDerived(SPEC));
    const store = await openSyncedQuickly(database, before);
    const agent = await createActor(store.db, ['agent'], 'Early Agent');
    const early = createOps({ model: before, db: store.db });
    const b = await early.create(agent, 'board', { name: 'Old board' });
    const t = await early.create(agent, 'ticket', { title: 'Old ticket', board: b.id, points: 4, due: '2026-01-02' });
    await early.create(agent, 'ticket', { title: 'Older ticket', board: b.id, points: 6 });
    await early.create(agent, 'comment', { body: 'Public', ticket: t.id });
    await early.create(agent, 'comment', { body: 'Internal', ticket: t.id, internal: true });

    const report = await syncSchema(store, model);
    expect(report.applied.map((s) => s.description)).toEqual(
      expect.arrayContaining(['add column board.ticket_count', 'add column ticket.reply_count']),
    );
    const ops = createOps({ model, db: store.db });
    expect((await ops.get(agent, 'board', b.id)).record).toMatchObject({
      ticketCount: 2,
      openPoints: 10,
      hasOpen: true,
      lastDue: '2026-01-02',
      unplanned: 2,
    });
    expect((await ops.get(agent, 'ticket', t.id)).record.replyCount).toBe(1);
    // And keeps them from then on.
    await ops.create(agent, 'comment', { body: 'Later', ticket: t.id });
    expect((await ops.get(agent, 'ticket', t.id)).record.replyCount).toBe(2);
    // A second sync has nothing to do.
    expect((await syncSchema(store, model)).changed).toBe(false);
  });
});
