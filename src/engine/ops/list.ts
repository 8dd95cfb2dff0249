import { sql, type SelectQueryBuilder } from 'kysely';
import { authorize } from '../access/authorize';
import { entityOf, type OpsContext } from './context';
import { decodeCursor, encodeCursor, type Cursor } from './cursor';
import { resolveFilters, resolveLimit, resolveSearch, resolveSort } from './list-query';
import { columnFor, recordColumns, rowToRecord } from './records';
import { loadReferenceTitles } from './references';
import type { Actor, ListPage, ListQuery } from './types';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are declared at run time
type Query = SelectQueryBuilder<any, any, Record<string, unknown>>;

/**
 * One page of records in the actor's scope, by keyset: the page after (sort value, id) of the
 * previous page's last row. Each page is an index range scan, so its cost does not grow with
 * the table or the page number. Empty values sort last in both directions.
 */
export async function listRecords(ctx: OpsContext, actor: Actor, entityName: string, query: ListQuery = {}): Promise<ListPage> {
  const { model, db } = ctx;
  const entity = entityOf(model, entityName);
  const scope = authorize(model, entity, actor, 'list');
  const sort = resolveSort(entity, query.sort);
  const filters = resolveFilters(entity, query.filters);
  const search = resolveSearch(entity, query.q);
  const limit = resolveLimit(entity, query.limit);
  const cursor = query.cursor ? decodeCursor(query.cursor, sort, entity) : null;

  let base: Query = db.selectFrom(entity.table).select(recordColumns(entity)).where(scope);
  for (const [name, value] of Object.entries(filters)) base = base.where(columnFor(entity, name), '=', value);
  if (search !== null) base = base.where(sql<boolean>`search @@ websearch_to_tsquery('simple', ${search})`);

  const column = columnFor(entity, sort.field);
  const rows = await keysetPage(base, column, sort.direction, sort.nullable, cursor, limit + 1);
  const page = rows.slice(0, limit).map((row) => rowToRecord(entity, row));
  const last = page[page.length - 1];
  return {
    rows: page,
    references: await loadReferenceTitles(model, db, entity, page),
    nextCursor: rows.length > limit && last ? encodeCursor(sort, last[sort.field], last.id) : null,
    sort: { field: sort.field, direction: sort.direction },
  };
}

async function keysetPage(
  base: Query,
  column: string,
  direction: 'asc' | 'desc',
  nullable: boolean,
  cursor: Cursor | null,
  take: number,
): Promise<Record<string, unknown>[]> {
  const after = sql.raw(direction === 'asc' ? '>' : '<');
  const ordered = (q: Query) => q.orderBy(column, direction).orderBy('id', direction).limit(take);
  const afterCursor = (q: Query, c: Cursor) => q.where(sql<boolean>`(${sql.ref(column)}, id) ${after} (${c.value}, ${c.id})`);

  if (!nullable) return ordered(cursor ? afterCursor(base, cursor) : base).execute();

  // Nullable column: the non-empty values in order, then the empty ones by id; two index ranges.
  let rows: Record<string, unknown>[] = [];
  if (!cursor || cursor.value !== null) {
    const nonEmpty = base.where(column, 'is not', null);
    rows = await ordered(cursor ? afterCursor(nonEmpty, cursor) : nonEmpty).execute();
  }
  if (rows.length < take) {
    let empty = base.where(column, 'is', null);
    if (cursor && cursor.value === null) empty = empty.where('id', direction === 'asc' ? '>' : '<', cursor.id);
    rows = rows.concat(await empty.orderBy('id', direction).limit(take - rows.length).execute());
  }
  return rows;
}

