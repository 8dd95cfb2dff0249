import { sql } from 'kysely';
import { authorize } from '../access/authorize';
import { accessFor } from '../access/entity-access';
import { checkQueryable } from '../access/fields';
import { fieldSight } from '../access/field-sight';
import { NinefoldError } from '../errors/ninefold-error';
import type { Actor } from '../ground/actor';
import { BOARD_CARDS, MAX_PAGE_SIZE } from '../spec/page-size';
import { inSentence } from '../spec/naming';
import { transitionConditions } from '../workflow/transitions';
import { entityOf, type OpsContext } from './context';
import { isFinal } from './final-state';
import { listRecords, matchingRecords } from './list';
import { withPathValues } from './path-values';
import { canColumns } from './read';
import { columnFor, recordColumns, rowToRecord } from './records';
import { grantedColumns, transitionOffers } from './transition-offers';
import type { BoardCard, BoardPage, BoardQuery, ListPage, RecordData, ReferenceTitles } from './types';

/**
 * A list as a board (the list screen's `board`): per value of its field, how many records the
 * actor may list (filters, search and condition applied) and the sum of its number field, in one
 * grouped query; the first cards of each column, one keyset page per column that has any; and
 * per card what may move it, read in one more query.
 */
export async function boardRecords(ctx: OpsContext, actor: Actor, entityName: string, query: BoardQuery = {}): Promise<BoardPage> {
  const entity = entityOf(ctx.model, entityName);
  const board = entity.list.board;
  if (!board) throw new NinefoldError('VALIDATION_FAILED', `The ${inSentence(entity.label)} list has no board.`);
  const perColumn = query.perColumn ?? BOARD_CARDS;
  if (!Number.isSafeInteger(perColumn) || perColumn < 1 || perColumn > MAX_PAGE_SIZE) {
    throw new Error(`board: perColumn must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${perColumn}`);
  }
  const sight = fieldSight(ctx.model, entity, actor);
  // A column total the actor may not read is left out rather than refused: the counts still hold.
  const sum = board.sum !== null && sight.readable.has(board.sum) ? board.sum : null;
  checkQueryable(entity, actor, sight.readable, { filters: [board.field, ...(sum ? [sum] : [])], sort: [], search: false });

  const masked = (name: string) => {
    const column = sql.ref(columnFor(entity, name));
    const where = sight.readableWhere(name);
    return where ? sql`(case when ${where} then ${column} end)` : column;
  };
  const rows = (await matchingRecords(ctx, actor, entity, sight, query, [])
    .select([
      sql<string>`coalesce(${masked(board.field)}::text, '')`.as('value'),
      sql<string>`count(*)`.as('n'),
      (sum ? sql<string>`coalesce(sum(${masked(sum)}), 0)` : sql<string>`0`).as('amount'),
    ])
    .groupBy(sql`1`)
    .execute()) as { value: string; n: string; amount: string }[];
  const totals = new Map(rows.map((r) => [r.value, { count: Number(r.n), sum: Number(r.amount) }]));

  const pages = await Promise.all(
    board.values.map((value): Promise<ListPage | null> =>
      (totals.get(value)?.count ?? 0) === 0
        ? Promise.resolve(null)
        : listRecords(ctx, actor, entity.name, {
            ...query,
            filters: { ...query.filters, [board.field]: value },
            limit: perColumn,
            cursor: undefined,
          }),
    ),
  );
  const moves = await cardMoves(
    ctx,
    actor,
    entity.name,
    pages.flatMap((p) => p?.rows ?? []),
  );
  const references: Record<string, Record<number, string>> = {};
  for (const page of pages) {
    for (const [field, titles] of Object.entries(page?.references ?? {})) Object.assign((references[field] ??= {}), titles);
  }
  return {
    field: board.field,
    sum,
    columns: board.values.map((value, index) => ({
      value,
      count: totals.get(value)?.count ?? 0,
      sum: sum ? (totals.get(value)?.sum ?? 0) : null,
      cards: (pages[index]?.rows ?? []).map((record) => moves.get(record.id) ?? { record, transitions: [], canUpdate: false }),
      more: pages[index]?.nextCursor !== null && pages[index] !== null,
    })),
    references: references as ReferenceTitles,
  };
}

/**
 * What may move each card: the transitions offered to the actor on it (as a record's page offers
 * them: guards read from the whole record), and whether the actor may update it (an enum board).
 */
async function cardMoves(ctx: OpsContext, actor: Actor, entityName: string, cards: readonly RecordData[]): Promise<Map<number, BoardCard>> {
  const entity = entityOf(ctx.model, entityName);
  const result = new Map<number, BoardCard>();
  if (cards.length === 0) return result;
  const rows = await ctx.db
    .selectFrom(entity.table)
    .select(recordColumns(entity))
    .select(grantedColumns(ctx.model, entity, actor))
    .select(canColumns(ctx.model, entity, actor))
    .where(
      'id',
      'in',
      cards.map((c) => c.id),
    )
    .where(authorize(ctx.model, entity, actor, 'read'))
    .execute();
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  const board = entity.list.board!;
  const writable = accessFor(ctx.model, entity, actor).writable.update.includes(board.field);
  const conditions = transitionConditions(entity.workflow?.transitions ?? []);
  const now = new Date();
  for (const record of cards) {
    const row = byId.get(record.id);
    if (!row) continue;
    const full = rowToRecord(entity, row);
    const withPaths = entity.workflow ? await withPathValues(ctx.model, ctx.db, entity, conditions, full) : full;
    result.set(record.id, {
      record,
      transitions: entity.workflow ? transitionOffers(ctx.model, entity, withPaths, actor, row, now) : [],
      canUpdate: writable && Boolean(row.nf_can_update) && !isFinal(entity, full),
    });
  }
  return result;
}
