import { beforeAll, expect, it } from 'vitest';
import crm from '../../../examples/crm/ninefold.spec';
import { buildModel } from '../spec/build';
import { forEachDatabase } from '@testing/engine/store';
import { createActor, ninefoldError, openSyncedQuickly } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import type { BoardPage } from './types';

/** The CRM (deals on a board by state, summing their value), its companies on a board by size. */
const model = buildModel({
  ...crm,
  screens: { ...crm.screens, lists: { ...crm.screens?.lists, company: { ...crm.screens?.lists?.company, board: 'size' } } },
});

/** Per column: its count, sum and card titles, for comparing a board at a glance. */
function columnsOf(page: BoardPage) {
  return Object.fromEntries(
    page.columns.map((c) => [c.value, { count: c.count, sum: c.sum, cards: c.cards.map((card) => card.record.title ?? card.record.name) }]),
  );
}

forEachDatabase('ops: board (columns, sums, cards and moves)', (database) => {
  let store: Store;
  let ops: Ops;
  let manager: Actor;
  let sam: Actor;
  let sue: Actor;
  let company: number;

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    manager = await createActor(store.db, ['manager'], 'Mia Manager');
    sam = await createActor(store.db, ['sales'], 'Sam Sales');
    sue = await createActor(store.db, ['sales'], 'Sue Sales');
    company = (await ops.create(manager, 'company', { name: 'Acme', size: 'small' })).id;
    await ops.create(manager, 'company', { name: 'Globex', size: 'large' });
    for (const [owner, title, value] of [
      [sam, 'Sam lead one', '100.50'],
      [sam, 'Sam lead two', '200'],
      [sam, 'Sam lead three', null],
      [sue, 'Sue lead', '1000'],
    ] as const) {
      await ops.create(owner, 'deal', { title, company, value });
    }
    const toQualify = (await ops.list(sam, 'deal', { filters: { state: 'lead' }, sort: 'title' })).rows.find(
      (r) => r.title === 'Sam lead two',
    )!;
    await ops.transition(sam, 'deal', toQualify.id, 'qualify', { version: toQualify.version });
  });

  it('counts and sums per state what each viewer may list, every state a column', async () => {
    expect(columnsOf(await ops.board(manager, 'deal', { sort: 'title' }))).toEqual({
      lead: { count: 3, sum: 1100.5, cards: ['Sam lead one', 'Sam lead three', 'Sue lead'] },
      qualified: { count: 1, sum: 200, cards: ['Sam lead two'] },
      proposal: { count: 0, sum: 0, cards: [] },
      won: { count: 0, sum: 0, cards: [] },
      lost: { count: 0, sum: 0, cards: [] },
    });
    const sams = await ops.board(sam, 'deal', { sort: 'title' });
    expect(sams.sum).toBe('value');
    expect(columnsOf(sams)).toMatchObject({
      lead: { count: 2, sum: 100.5, cards: ['Sam lead one', 'Sam lead three'] },
      qualified: { count: 1, sum: 200, cards: ['Sam lead two'] },
    });
  });

  it('applies the filters and search of the list', async () => {
    const page = await ops.board(manager, 'deal', { q: 'Sue' });
    expect(columnsOf(page)).toMatchObject({ lead: { count: 1, sum: 1000, cards: ['Sue lead'] }, qualified: { count: 0, cards: [] } });
    const filtered = await ops.board(manager, 'deal', { filters: { state: 'qualified' } });
    expect(filtered.columns.map((c) => c.count)).toEqual([0, 1, 0, 0, 0]);
  });

  it('shows the first cards of each column by keyset, saying when there are more', async () => {
    const page = await ops.board(manager, 'deal', { sort: 'title', perColumn: 2 });
    const lead = page.columns.find((c) => c.value === 'lead')!;
    expect(lead.cards.map((c) => c.record.title)).toEqual(['Sam lead one', 'Sam lead three']);
    expect(lead.more).toBe(true);
    expect(page.columns.find((c) => c.value === 'qualified')!.more).toBe(false);
    expect(page.references.company).toEqual({ [company]: 'Acme' });
  });

  it('tells per card the transitions offered to the viewer, blocked ones with why', async () => {
    const sams = await ops.board(sam, 'deal', { sort: 'title' });
    const qualified = sams.columns.find((c) => c.value === 'qualified')!.cards[0]!;
    expect(qualified.transitions.map((t) => [t.to, t.available])).toEqual([
      ['proposal', true],
      ['lost', true],
    ]);
    const noValue = sams.columns.find((c) => c.value === 'lead')!.cards.find((c) => c.record.title === 'Sam lead three')!;
    expect(noValue.transitions.map((t) => t.to)).toEqual(['qualified', 'lost']);
    // Sue's deal is not on Sam's board at all; on the manager's it moves like any other.
    const managers = await ops.board(manager, 'deal');
    const sues = managers.columns.find((c) => c.value === 'lead')!.cards.find((c) => c.record.title === 'Sue lead')!;
    expect(sues.transitions.filter((t) => t.available).map((t) => t.to)).toEqual(['qualified', 'lost']);
  });

  it('on an enum board, counts by value and tells who may update the card', async () => {
    const page = await ops.board(manager, 'company');
    expect(page.sum).toBe('openPipeline');
    expect(Object.fromEntries(page.columns.map((c) => [c.value, c.count]))).toEqual({ small: 1, medium: 0, large: 1, enterprise: 0 });
    expect(page.columns[0]!.cards[0]!.canUpdate).toBe(true);
    // Sales may update companies but not read their open pipeline: counts without a sum.
    const sams = await ops.board(sam, 'company');
    expect(sams.sum).toBeNull();
    expect(sams.columns.map((c) => c.sum)).toEqual([null, null, null, null]);
    expect(sams.columns[0]!.cards[0]!.transitions).toEqual([]);
  });

  it('refuses a board an entity does not have', async () => {
    expect((await ninefoldError(ops.board(manager, 'contact'))).code).toBe('VALIDATION_FAILED');
  });
});
