import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { authorize } from '../access/authorize';
import { checkQueryable } from '../access/fields';
import { fieldSight, type FieldSight } from '../access/field-sight';
import { entityOf, type OpsContext } from './context';
import { searchMatches } from './search-query';
import { decodeCursor, encodeCursor, type Cursor, type CursorValue } from './cursor';
import { resolveFilters, resolveLimit, resolveSearch, resolveSort, type SortKey } from './list-query';
import { columnFor, recordColumns, rowToRecord } from './records';
import { withReferenceTitles } from './reference-sets';
import { conditionToSql } from '../condition/bound-sql';
import { enumOrderSql, enumPosition } from '../store/schema/enum-order';
import type { DueFilter } from '../rules/overdue';
import { dueFilterSql } from './due';
import type { EntityModel } from '../spec/model';
import { JOIN_RECORD, JOIN_TARGET } from '../spec/join-fields';
import { conditionFields as fieldsOf } from '../condition/fields';
import type { ListCount, ListPage, ListQuery } from './types';
import type { Actor } from '../ground/actor';
import { talliedCount } from './aggregate';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are declared at run time
export type Query = SelectQueryBuilder<any, any, Record<string, unknown>>;

/**
 * One page of records in the actor's scope, by keyset: the page after the sort values and id of
 * the previous page's last row. With one sort key each page is an index range scan, so its cost
 * does not grow with the table or the page number. Empty values sort last in both directions.
 */
export async function listRecords(ctx: OpsContext, actor: Actor, entityName: string, query: ListQuery = {}): Promise<ListPage> {
  const { model, db } = ctx;
  const entity = entityOf(model, entityName);
  const sight = fieldSight(model, entity, actor);
  const readable = sight.readable;
  const asked = query.sort !== undefined && query.sort !== '';
  // The list screen's own order, unless it is by a field this actor may not read.
  const sort = maskedSort(
    sight,
    resolveSort(
      entity,
      asked || readable.has(entity.list.sort.field) || !entity.fieldsByName[entity.list.sort.field] ? query.sort : '-createdAt',
    ),
  );
  const limit = resolveLimit(entity, query.limit);
  const cursor = query.cursor ? decodeCursor(query.cursor, sort, entity) : null;
  const base = matchingRecords(
    ctx,
    actor,
    entity,
    sight,
    query,
    sort.map((k) => k.field),
  )
    .select(recordColumns(entity))
    .select(sight.columns);

  const [only] = sort;
  const rows =
    sort.length === 1 && only
      ? await singleKeyPage(base, only, cursor && { value: cursorValue(cursor, 0), id: cursor.id }, limit + 1)
      : await multiKeyPage(base, sort, cursor, limit + 1);
  // Each row without what the grants that let the actor see it hide; the cursor is made of what is shown.
  const page = rows.slice(0, limit).map((row) => sight.redact(rowToRecord(entity, row), row));
  const last = page[page.length - 1];
  const { records: visible, references } = await withReferenceTitles(model, db, actor, entity, page);
  return {
    rows: visible,
    references,
    nextCursor:
      rows.length > limit && last
        ? encodeCursor(
            sort,
            sort.map((k) => last[k.field] ?? null),
            last.id,
          )
        : null,
    sort: sort.map(({ field, direction }) => ({ field, direction })),
  };
}

/**
 * The records of the list in the actor's scope that match its filters, search and condition:
 * every check that `list`, `count` and `search` share (list access, fields the actor may query).
 */
export function matchingRecords(
  ctx: OpsContext,
  actor: Actor,
  entity: EntityModel,
  sight: FieldSight,
  query: ListQuery,
  sortFields: readonly string[],
): Query {
  const { model, db } = ctx;
  const scope = authorize(model, entity, actor, 'list');
  const given = Object.entries(query.filters ?? {})
    .filter(([, value]) => value !== '' && value !== undefined)
    .map(([name]) => name);
  const searching = typeof query.q === 'string' && query.q.trim() !== '';
  const conditionFields = [
    ...(query.where ? fieldsOf(model.conditions.of(query.where), { paths: 'head', operands: true }) : []),
    // Whether a record is overdue depends on the fields of its doneWhen: the actor must read them too.
    ...given.flatMap((name) => {
      const doneWhen = entity.fieldsByName[name]?.due?.doneWhen;
      return doneWhen ? fieldsOf(model.conditions.of(doneWhen), { paths: 'head', operands: true }) : [];
    }),
  ];
  checkQueryable(entity, actor, sight.readable, { filters: [...given, ...conditionFields], sort: sortFields, search: searching });
  const filters = resolveFilters(entity, query.filters);
  const search = resolveSearch(entity, query.q);
  let base: Query = db.selectFrom(entity.table).where(scope);
  // A field read on some of these records only matches nothing where it is hidden: a filter, a
  // search or a condition on it must not tell its hidden values apart.
  const used = [...given, ...conditionFields, ...(search !== null ? entity.searchFields : [])];
  for (const name of new Set(used)) {
    const readableWhere = sight.readableWhere(name);
    if (readableWhere) base = base.where(readableWhere);
  }
  for (const [name, value] of Object.entries(filters)) {
    const due = entity.fieldsByName[name]?.due ? entity.fieldsByName[name] : null;
    const joined = entity.fieldsByName[name]?.joinTable;
    if (due) base = base.where(dueFilterSql(model, entity, due, value as DueFilter, actor));
    // "Has any of": the join table's primary key answers it per record.
    else if (joined)
      base = base.where(
        sql<boolean>`exists (select 1 from ${sql.table(joined)} j where j.${sql.ref(JOIN_RECORD)} = ${sql.table(entity.table)}.id and j.${sql.ref(JOIN_TARGET)} in (${sql.join(value as readonly number[])}))`,
      );
    else base = base.where(columnFor(entity, name), '=', value);
  }
  if (search !== null) base = base.where(searchMatches(search));
  if (query.where) base = base.where(conditionToSql(model, entity, query.where, actor, query.params));
  return base;
}

export const DEFAULT_COUNT_CAP = 10_000;

/**
 * How many records the list holds for the actor, counted at most up to `cap` (a subquery with a
 * limit), so that a count over a million rows costs no more than reading `cap` index entries.
 * Past the cap, the running totals give the exact number where they keep it (talliedCount), so
 * that the list and the home never disagree about a number both can know.
 */
export async function countRecords(
  ctx: OpsContext,
  actor: Actor,
  entityName: string,
  query: ListQuery = {},
  cap = DEFAULT_COUNT_CAP,
): Promise<ListCount> {
  const entity = entityOf(ctx.model, entityName);
  if (!Number.isSafeInteger(cap) || cap < 1) throw new Error(`count: the cap must be a positive integer, got ${cap}`);
  const inner = matchingRecords(ctx, actor, entity, fieldSight(ctx.model, entity, actor), query, [])
    .select(sql.lit(1).as('one'))
    .limit(cap + 1);
  const row = await ctx.db
    .selectFrom(inner.as('matching'))
    .select(sql<string>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  const n = Number(row.n);
  if (n <= cap) return { count: n, more: false };
  const exact = await talliedCount(ctx, actor, entityName, query);
  return exact === null ? { count: cap, more: true } : { count: exact, more: false };
}

/** A sort key on a field read on some records only: it sorts as empty where the field is hidden. */
interface MaskedKey extends SortKey {
  readonly readableWhere?: RawBuilder<SqlBool>;
}

function maskedSort(sight: FieldSight, keys: readonly SortKey[]): MaskedKey[] {
  return keys.map((key) => {
    const readableWhere = sight.readableWhere(key.field);
    return readableWhere ? { ...key, readableWhere, nullable: true } : key;
  });
}

/**
 * What a sort key orders by: its column, or for an enum the position of its value among the
 * declared ones, written exactly as schema sync's (position, id) index has it; empty on the
 * records where the field is hidden from the actor.
 */
function keyExpression(key: MaskedKey) {
  const value = key.order ? sql.raw(`(${enumOrderSql(key.column, key.order)})`) : sql.ref(key.column);
  return key.readableWhere ? sql`(case when ${key.readableWhere} then ${value} end)` : value;
}

/** The cursor's value for the sort key at `index`: decodeCursor checked it has one per key. */
function cursorValue(cursor: Cursor, index: number): CursorValue {
  const value = cursor.values[index];
  if (value === undefined) throw new Error(`The cursor has no value for sort key ${index + 1}`);
  return value;
}

/** A cursor's value as its key compares it: an enum value's position. */
function keyValue(key: SortKey, value: CursorValue): CursorValue {
  return key.order && typeof value === 'string' ? enumPosition(key.order, value) : value;
}

/** The common case, kept to row comparisons that an index on (key, id) answers directly. */
async function singleKeyPage(
  base: Query,
  key: MaskedKey,
  cursor: { value: CursorValue; id: number } | null,
  take: number,
): Promise<Record<string, unknown>[]> {
  const { column, direction } = key;
  const expression = keyExpression(key);
  const after = sql.raw(direction === 'asc' ? '>' : '<');
  const ordered = (q: Query) => q.orderBy(expression, direction).orderBy('id', direction).limit(take);
  const afterCursor = (q: Query, c: { value: CursorValue; id: number }) =>
    q.where(sql<boolean>`(${expression}, id) ${after} (${keyValue(key, c.value)}, ${c.id})`);

  if (!key.nullable) return ordered(cursor ? afterCursor(base, cursor) : base).execute();

  // Nullable column: the non-empty values in order, then the empty ones by id; two index ranges.
  let rows: Record<string, unknown>[] = [];
  if (!cursor || cursor.value !== null) {
    const nonEmpty = base.where(expression, 'is not', null);
    rows = await ordered(cursor ? afterCursor(nonEmpty, cursor) : nonEmpty).execute();
  }
  if (rows.length < take) {
    let empty = key.readableWhere ? base.where(sql<boolean>`${expression} is null`) : base.where(column, 'is', null);
    if (cursor && cursor.value === null) empty = empty.where('id', direction === 'asc' ? '>' : '<', cursor.id);
    rows = rows.concat(
      await empty
        .orderBy('id', direction)
        .limit(take - rows.length)
        .execute(),
    );
  }
  return rows;
}

/**
 * Several sort keys, possibly in mixed directions: "after the cursor" expands to
 * k1 after v1, or k1 = v1 and k2 after v2, ..., or all equal and id after the cursor's id.
 */
async function multiKeyPage(
  base: Query,
  keys: readonly MaskedKey[],
  cursor: Cursor | null,
  take: number,
): Promise<Record<string, unknown>[]> {
  const lastKey = keys.at(-1);
  if (!lastKey) throw new Error('A list is sorted by one key at least');
  const idDirection = lastKey.direction;
  let query = base;
  if (cursor) {
    const equal = (k: SortKey, v: CursorValue) =>
      v === null ? sql<boolean>`${keyExpression(k)} is null` : sql<boolean>`${keyExpression(k)} = ${keyValue(k, v)}`;
    const comesAfter = (k: SortKey, v: CursorValue) => {
      if (v === null) return sql<boolean>`false`; // empty values come last: nothing after them
      const op = sql.raw(k.direction === 'asc' ? '>' : '<');
      const key = keyExpression(k);
      return k.nullable ? sql<boolean>`(${key} ${op} ${keyValue(k, v)} or ${key} is null)` : sql<boolean>`${key} ${op} ${keyValue(k, v)}`;
    };
    const branches = keys.map((k, i) =>
      sql.join([...keys.slice(0, i).map((e, j) => equal(e, cursorValue(cursor, j))), comesAfter(k, cursorValue(cursor, i))], sql` and `),
    );
    const allEqual = keys.map((k, j) => equal(k, cursorValue(cursor, j)));
    branches.push(sql.join([...allEqual, sql`id ${sql.raw(idDirection === 'asc' ? '>' : '<')} ${cursor.id}`], sql` and `));
    query = query.where(
      sql<boolean>`(${sql.join(
        branches.map((b) => sql`(${b})`),
        sql` or `,
      )})`,
    );
  }
  for (const k of keys) query = query.orderBy(sql`${keyExpression(k)} ${sql.raw(k.direction)} nulls last`);
  return query.orderBy('id', idDirection).limit(take).execute();
}
