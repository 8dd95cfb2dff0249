import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../spec/build';
import type { AppSpec } from '../spec/types';
import { enumOrderSql } from '../store/schema/enum-order';
import { syncSchema } from '../store/schema/sync';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { createActor, openSyncedQuickly } from '@testing/engine/ops';
import type { ListQuery } from './types';
import type { Actor } from '../ground/actor';

/*
 * Enum values sort in their declared order, both directions, with empty values last and values
 * the spec no longer declares after the declared ones; keyset pages stay exact (every row once)
 * and read the (position, id) index that schema sync keeps, replacing it when the values change.
 */

const PRIORITIES = ['low', 'normal', 'high', 'urgent'];
const specWith = (priorities: readonly string[]): AppSpec => ({
  name: 'enum-order',
  entities: {
    task: {
      fields: {
        title: { type: 'text', required: true },
        priority: { type: 'enum', values: priorities },
        size: { type: 'enum', values: ['small', 'medium', 'large'], required: true, default: 'medium' },
      },
    },
  },
});
const model = buildModel(specWith(PRIORITIES));
const ROWS = 61;

interface Row {
  id: number;
  priority: string | null;
  size: string;
}

/** The order a list must have: by declared position (undeclared values after, empty last), then id. */
function expected(
  rows: readonly Row[],
  keys: readonly { field: 'priority' | 'size'; desc: boolean; values: readonly string[] }[],
): number[] {
  const position = (values: readonly string[], v: string) => (values.includes(v) ? values.indexOf(v) : values.length);
  return [...rows]
    .sort((a, b) => {
      for (const { field, desc, values } of keys) {
        const [x, y] = [a[field], b[field]];
        if (x === null || y === null) {
          if (x !== y) return x === null ? 1 : -1;
          continue;
        }
        const by = position(values, x) - position(values, y);
        if (by !== 0) return desc ? -by : by;
      }
      return keys[keys.length - 1]!.desc ? b.id - a.id : a.id - b.id;
    })
    .map((r) => r.id);
}

forEachDatabase('enum values in their declared order', (database) => {
  let store: Store;
  let ops: Ops;
  let admin: Actor;

  async function rows(): Promise<Row[]> {
    const all = await store.db.selectFrom('task').select(['id', 'priority', 'size']).execute();
    return all.map((r) => ({ id: Number(r.id), priority: r.priority as string | null, size: r.size as string }));
  }

  async function pageThrough(query: ListQuery, limit = 7): Promise<number[]> {
    const ids: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await ops.list(admin, 'task', { ...query, limit, cursor });
      ids.push(...page.rows.map((r) => r.id));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor && pages < ROWS + 5);
    return ids;
  }

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    admin = await createActor(store.db, ['admin'], 'Ed Admin');
    // Declared values, empty ones, and one the spec no longer declares (written before a change).
    const choices = [...PRIORITIES, null, 'critical'];
    const sizes = ['large', 'small', 'medium'];
    const values = Array.from({ length: ROWS }, (_, i) => ({
      title: `task ${i}`,
      priority: choices[(i * 7) % choices.length],
      size: sizes[(i * 5) % sizes.length],
      created_by: admin.userId,
      updated_by: admin.userId,
    }));
    await store.db.insertInto('task').values(values).execute();
  });

  const cases: [string, { field: 'priority' | 'size'; desc: boolean; values: readonly string[] }[]][] = [
    ['priority', [{ field: 'priority', desc: false, values: PRIORITIES }]],
    ['-priority', [{ field: 'priority', desc: true, values: PRIORITIES }]],
    ['size', [{ field: 'size', desc: false, values: ['small', 'medium', 'large'] }]],
    ['-size', [{ field: 'size', desc: true, values: ['small', 'medium', 'large'] }]],
    [
      '-size,priority',
      [
        { field: 'size', desc: true, values: ['small', 'medium', 'large'] },
        { field: 'priority', desc: false, values: PRIORITIES },
      ],
    ],
    [
      'priority,-size',
      [
        { field: 'priority', desc: false, values: PRIORITIES },
        { field: 'size', desc: true, values: ['small', 'medium', 'large'] },
      ],
    ],
  ];
  for (const [sort, keys] of cases) {
    it(`pages through sort=${sort}: every row once, in declared order`, async () => {
      const ids = await pageThrough({ sort });
      expect(new Set(ids).size).toBe(ROWS);
      expect(ids).toEqual(expected(await rows(), keys));
    });
  }

  it('reads the first page and a later one from the (position, id) index', async () => {
    const expression = enumOrderSql('priority', PRIORITIES);
    const plan = await store.db.transaction().execute(async (trx) => {
      // Few rows: without this the planner would rightly prefer reading the whole table.
      await sql`set local enable_seqscan = off`.execute(trx);
      const lines: string[] = [];
      for (const after of [sql``, sql`and (${sql.raw(expression)}, id) > (2, 10)`]) {
        const result = await sql<{
          'QUERY PLAN': string;
        }>`explain select id from task where (${sql.raw(expression)}) is not null ${after} order by (${sql.raw(expression)}) asc, id asc limit 8`.execute(
          trx,
        );
        lines.push(result.rows.map((r) => r['QUERY PLAN']).join('\n'));
      }
      return lines;
    });
    for (const text of plan) {
      expect(text).toMatch(/task_priority_order_[0-9a-f]{8}_idx/);
      expect(text).not.toMatch(/Sort/);
    }
  });

  it('follows changed values: schema sync replaces the index (no data touched) and lists sort by the new order', async () => {
    const reordered = ['urgent', 'high', 'normal', 'low'];
    const next = buildModel(specWith(reordered));
    const report = await syncSchema(store, next);
    expect(report.destructive).toEqual([]);
    expect(report.applied.map((s) => s.kind).sort()).toEqual(['add-index', 'drop-index']);
    const names = await sql<{
      indexname: string;
    }>`select indexname from pg_indexes where tablename = 'task' and indexname like 'task_priority_order_%'`.execute(store.db);
    expect(names.rows).toHaveLength(1);

    const nextOps = createOps({ model: next, db: store.db });
    const ids: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await nextOps.list(admin, 'task', { sort: 'priority', limit: 9, cursor });
      ids.push(...page.rows.map((r) => r.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(ids).toEqual(expected(await rows(), [{ field: 'priority', desc: false, values: reordered }]));
    // Back to the first order, for the other tests of this suite.
    await syncSchema(store, model);
  });
});

describe('enumOrderSql', () => {
  it('quotes the values it writes into the expression', () => {
    expect(enumOrderSql('mood', ["it's fine", 'ok'])).toBe(
      `case when "mood" is null then null when "mood" = 'it''s fine' then 1 when "mood" = 'ok' then 2 else 3 end`,
    );
  });
});
