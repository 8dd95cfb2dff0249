import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { NinefoldError } from '../errors/ninefold-error';
import { buildModel } from '../spec/build';
import type { AppSpec } from '../spec/types';
import { syncSchema } from '../store/schema/sync';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { countRows, createActor, expectRefused, ninefoldError, openSyncedQuickly } from '@testing/engine/ops';
import type { RecordData } from './types';
import type { Actor } from '../ground/actor';
import { translating } from './write-kit';

const LENT = 'This item is already lent.';
const FEATURED = 'One featured item per shelf.';

/**
 * Lending: one active (or late) loan per item, one featured item per shelf, and at most two open
 * orders per supplier (a limit counted per a reference field, not per a user).
 */
const SPEC = {
  name: 'lending',
  entities: {
    supplier: { titleField: 'name', fields: { name: { type: 'text', required: true } } },
    item: {
      titleField: 'name',
      fields: {
        name: { type: 'text', required: true },
        shelf: { type: 'enum', values: ['a', 'b'], default: 'a', required: true },
        featured: { type: 'boolean', default: false, required: true },
      },
      uniqueWhen: { fields: ['shelf'], where: { field: 'featured', op: 'eq', value: true }, message: FEATURED },
    },
    loan: {
      titleField: 'code',
      fields: {
        code: { type: 'text', required: true },
        item: { type: 'reference', to: 'item', required: true },
      },
      uniqueWhen: { fields: ['item'], where: { field: 'state', op: 'in', value: ['active', { $constant: 'lateState' }] }, message: LENT },
    },
    order: {
      titleField: 'code',
      fields: { code: { type: 'text', required: true }, supplier: { type: 'reference', to: 'supplier', required: true } },
      limits: {
        openPerSupplier: {
          max: { $constant: 'maxOpenOrders' },
          per: 'supplier',
          where: { field: 'state', op: 'eq', value: 'open' },
          message: 'This supplier has enough open orders.',
        },
      },
    },
  },
  workflows: {
    loan: {
      states: { active: { initial: true }, late: {}, returned: {} },
      transitions: {
        overdue: { from: 'active', to: 'late', allow: ['agent'] },
        back: { from: ['active', 'late'], to: 'returned', allow: ['agent'] },
        again: { from: 'returned', to: 'active', allow: ['agent'] },
      },
    },
    order: {
      states: { open: { initial: true }, closed: {} },
      transitions: { close: { from: 'open', to: 'closed', allow: ['agent'] }, reopen: { from: 'closed', to: 'open', allow: ['agent'] } },
    },
  },
  roles: { agent: { label: 'Agent' } },
  permissions: {
    supplier: { agent: { list: true, read: true, create: true } },
    item: { agent: { list: true, read: true, create: true, update: true } },
    loan: { agent: { list: true, read: true, create: true, update: true } },
    order: { agent: { list: true, read: true, create: true } },
  },
  constants: { maxOpenOrders: { value: 2 }, lateState: { value: 'late' } },
} as const;

const model = buildModel(SPEC as unknown as AppSpec);

/** What a write settled as: its result, or the catalogue error (anything else fails the test). */
async function settle<T>(write: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: NinefoldError }> {
  try {
    return { ok: true, value: await write };
  } catch (error) {
    if (error instanceof NinefoldError) return { ok: false, error };
    throw error;
  }
}

const lentError = { code: 'VALIDATION_FAILED', fieldErrors: [{ field: 'item', code: 'unique', message: LENT }] };

forEachDatabase('uniqueWhen and limits per reference', (database) => {
  let store: Store;
  let ops: Ops;
  let agent: Actor;
  let items: RecordData[];
  let counter = 0;
  const newItem = (input: Record<string, unknown> = {}) => ops.create(agent, 'item', { name: `Item ${++counter}`, ...input });
  const loans = () => countRows(store.db, 'loan');

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    agent = await createActor(store.db, ['agent'], 'Lending Agent');
    items = [await newItem(), await newItem()];
  });

  describe('uniqueWhen', () => {
    it('refuses a second active loan of an item on create, with the rule message on the first field', async () => {
      await ops.create(agent, 'loan', { code: 'L1', item: items[0]!.id });
      const error = await expectRefused(loans, 'VALIDATION_FAILED', () => ops.create(agent, 'loan', { code: 'L2', item: items[0]!.id }));
      expect(error.fieldErrors).toEqual(lentError.fieldErrors);
      // Another item is free.
      await ops.create(agent, 'loan', { code: 'L3', item: items[1]!.id });
    });

    it('counts a record only while the condition holds: a returned loan frees the item, taking it again is refused', async () => {
      const item = await newItem();
      const first = await ops.create(agent, 'loan', { code: 'R1', item: item.id });
      const late = await ops.transition(agent, 'loan', first.id, 'overdue', { version: first.version });
      // Still under the rule (late counts, by a constant): refused.
      expect(await ninefoldError(ops.create(agent, 'loan', { code: 'R2', item: item.id }))).toMatchObject(lentError);
      const returned = await ops.transition(agent, 'loan', late.id, 'back', { version: late.version });
      const second = await ops.create(agent, 'loan', { code: 'R3', item: item.id });
      expect(second.state).toBe('active');
      // A transition into a state the rule names is a write it checks.
      const error = await expectRefused(
        () => ops.get(agent, 'loan', returned.id).then((r) => r.record),
        'VALIDATION_FAILED',
        () => ops.transition(agent, 'loan', returned.id, 'again', { version: returned.version }),
      );
      expect(error.fieldErrors).toEqual(lentError.fieldErrors);
    });

    it('refuses an update that moves a record onto a taken value, and lets one that keeps it pass', async () => {
      const [taken, free] = [await newItem(), await newItem()];
      await ops.create(agent, 'loan', { code: 'U1', item: taken.id });
      const loan = await ops.create(agent, 'loan', { code: 'U2', item: free.id });
      const error = await ninefoldError(ops.update(agent, 'loan', loan.id, { item: taken.id }, loan.version));
      expect(error).toMatchObject(lentError);
      const renamed = await ops.update(agent, 'loan', loan.id, { code: 'U2b' }, loan.version);
      expect(renamed.code).toBe('U2b');
    });

    it('holds for boolean conditions and enum keys (one featured item per shelf)', async () => {
      await newItem({ shelf: 'b', featured: true });
      const plain = await newItem({ shelf: 'b' });
      const error = await ninefoldError(ops.update(agent, 'item', plain.id, { featured: true }, plain.version));
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', fieldErrors: [{ field: 'shelf', code: 'unique', message: FEATURED }] });
      expect((await newItem({ shelf: 'a', featured: true })).featured).toBe(true);
    });

    it('refuses a race loser with the same error: concurrent loans of one item, exactly one wins', async () => {
      const item = await newItem();
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => settle(ops.create(agent, 'loan', { code: `Race ${i}`, item: item.id }))),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      for (const result of results.filter((r) => !r.ok)) expect((result as { error: NinefoldError }).error).toMatchObject(lentError);
    });

    it('maps the index refusing a write to the rule message (never a 500 or STALE_VERSION)', async () => {
      const item = await newItem();
      await ops.create(agent, 'loan', { code: 'I1', item: item.id });
      // Straight to the table, past the check ops makes first: only the partial unique index stands in the way.
      const error = await ninefoldError(
        translating(model, model.entitiesByName.loan!, () =>
          store.db.insertInto('loan').values({ code: 'I2', item: item.id, state: 'active' }).execute(),
        ),
      );
      expect(error).toMatchObject(lentError);
      // Rows outside the condition are not in the index at all.
      await store.db.insertInto('loan').values({ code: 'I3', item: item.id, state: 'returned' }).execute();
    });

    it('refuses rows of an import that break the rule, with its message', async () => {
      const item = await newItem();
      const result = await ops.createMany(
        agent,
        'loan',
        [
          { code: 'M1', item: item.id },
          { code: 'M2', item: item.id },
        ],
        { goodRows: true },
      );
      expect(result.created).toBe(1);
      expect(result.refused).toEqual([
        expect.objectContaining({ index: 1, code: 'VALIDATION_FAILED', fieldErrors: lentError.fieldErrors }),
      ]);
    });
  });

  describe('limits per a reference field', () => {
    it('caps open orders per supplier, each supplier apart; a closed one frees a place', async () => {
      const [acme, other] = [await ops.create(agent, 'supplier', { name: 'Acme' }), await ops.create(agent, 'supplier', { name: 'Other' })];
      const first = await ops.create(agent, 'order', { code: 'O1', supplier: acme.id });
      await ops.create(agent, 'order', { code: 'O2', supplier: acme.id });
      const error = await expectRefused(
        () => countRows(store.db, 'order'),
        'LIMIT_EXCEEDED',
        () => ops.create(agent, 'order', { code: 'O3', supplier: acme.id }),
      );
      expect(error.message).toBe('This supplier has enough open orders. At most 2.');
      await ops.create(agent, 'order', { code: 'O4', supplier: other.id });
      const closed = await ops.transition(agent, 'order', first.id, 'close', { version: first.version });
      await ops.create(agent, 'order', { code: 'O5', supplier: acme.id });
      // Reopening counts again.
      expect((await ninefoldError(ops.transition(agent, 'order', closed.id, 'reopen', { version: closed.version }))).code).toBe(
        'LIMIT_EXCEEDED',
      );
    });

    it('holds under a race: concurrent orders for one supplier, exactly the maximum win', async () => {
      const supplier = await ops.create(agent, 'supplier', { name: 'Racing supplier' });
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => settle(ops.create(agent, 'order', { code: `R${i}`, supplier: supplier.id }))),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(2);
      expect(results.filter((r) => !r.ok).map((r) => (r as { error: NinefoldError }).error.code)).toEqual(Array(4).fill('LIMIT_EXCEEDED'));
    });
  });

  describe('schema sync', () => {
    const indexesOf = async (table: string) =>
      (
        await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes where tablename = ${table}`.execute(
          store.db,
        )
      ).rows;

    it('built the partial unique index, named after the table, with the condition written in', async () => {
      const index = (await indexesOf('loan')).find((i) => i.indexname === model.entitiesByName.loan!.uniqueWhen[0]!.index);
      // Found again as the same index by the next sync: nothing to do.
      expect(await syncSchema(store, model)).toEqual({ changed: false, applied: [], destructive: [] });
      expect(index?.indexdef).toMatch(
        /^CREATE UNIQUE INDEX loan_uw_[0-9a-f]{10} ON public\.loan USING btree \(item\) WHERE \(state = ANY \(ARRAY\['active'::text, 'late'::text\]\)\)$/,
      );
    });

    it('drops the index of a rule gone from the spec, and builds the index of a changed one', async () => {
      const without = buildModel({
        ...SPEC,
        entities: { ...SPEC.entities, loan: { ...SPEC.entities.loan, uniqueWhen: undefined } },
      } as unknown as AppSpec);
      const report = await syncSchema(store, without);
      expect(report.destructive).toEqual([]);
      expect(report.applied.map((s) => s.kind)).toContain('drop-index');
      expect((await indexesOf('loan')).filter((i) => i.indexname.startsWith('loan_uw_'))).toEqual([]);
      await syncSchema(store, model);
      expect((await indexesOf('loan')).map((i) => i.indexname)).toContain(model.entitiesByName.loan!.uniqueWhen[0]!.index);
    });

    it('refuses a rule that rows already there break, naming the entity, the fields and the rule, and changes nothing', async () => {
      const item = await newItem();
      await ops.create(agent, 'loan', { code: 'S1', item: item.id });
      await store.db.insertInto('loan').values({ code: 'S2', item: item.id, state: 'returned' }).execute();
      // Now every loan, returned or not, would have to be the only one of its item.
      const stricter = buildModel({
        ...SPEC,
        entities: {
          ...SPEC.entities,
          loan: { ...SPEC.entities.loan, uniqueWhen: { fields: ['item'], where: { field: 'code', op: 'present' } } },
        },
      } as unknown as AppSpec);
      const failure = await syncSchema(store, stricter).then(
        () => null,
        (error: unknown) => error as Error,
      );
      expect(failure?.message).toMatch(
        /^Records already in loan break the rule "Loan \(loan\): item is unique among loans where code is present" \(more than one has item = \d+\), so its unique index could not be built\. Change those records, or the rule, and start again\. Nothing was changed\.$/,
      );
      // Nothing changed: the old rule's index is still there, the new one is not.
      const names = (await indexesOf('loan')).map((i) => i.indexname);
      expect(names).toContain(model.entitiesByName.loan!.uniqueWhen[0]!.index);
      expect(names).not.toContain(stricter.entitiesByName.loan!.uniqueWhen[0]!.index);
    });
  });
});
