import { sql } from 'kysely';
import { fieldSight } from '../access/field-sight';
import { entityOf, type OpsContext } from './context';
import { matchingRecords } from './list';
import { resolveLimit, resolveSearch } from './list-query';
import { recordColumns, rowToRecord } from './records';
import { withReferenceTitles } from './reference-sets';
import { searchQuery } from './search-query';
import { titleSql } from './title-sql';
import type { SearchPage } from './types';
import type { Actor } from '../ground/actor';

/**
 * Matches ranked at most, the most recently changed: ranking reads every candidate's title, so
 * a word found in a million records costs a thousand titles, not a million. Past it, a more
 * precise search (or the list's) finds the rest.
 */
export const SEARCH_RANK_WINDOW = 1000;

/**
 * The records matching a search, best first, in the actor's list scope (the list's search:
 * same words, same checks). Best means, in order: the title is what was typed, the title starts
 * with it, the title itself matches the words, the other searched fields do; ties go to the
 * most recently changed. The title is the one the actor sees (title-sql.ts), so a hidden field
 * never lifts a record. Nothing typed finds nothing.
 */
export async function searchRecords(
  ctx: OpsContext,
  actor: Actor,
  entityName: string,
  q: string,
  options: { readonly limit?: number } = {},
): Promise<SearchPage> {
  const { model, db } = ctx;
  const entity = entityOf(model, entityName);
  const limit = resolveLimit(entity, options.limit);
  const text = resolveSearch(entity, q);
  if (text === null) return { rows: [], references: {} };
  const sight = fieldSight(model, entity, actor);
  const candidates = matchingRecords(ctx, actor, entity, sight, { q: text }, [])
    .select('id')
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(SEARCH_RANK_WINDOW);
  const title = titleSql(model, entity, actor, entity.table).text;
  const typed = sql`lower(${text}::text)`;
  const rank = sql`case
    when lower(${title}) = ${typed} then 0
    when starts_with(lower(${title}), ${typed}) then 1
    when to_tsvector('simple', ${title}) @@ ${searchQuery(text)} then 2
    else 3 end`;
  const rows = await db
    .selectFrom(entity.table)
    .where('id', 'in', candidates)
    .select(recordColumns(entity))
    .select(sight.columns)
    .orderBy(rank)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  const records = rows.map((row) => sight.redact(rowToRecord(entity, row), row));
  const { records: visible, references } = await withReferenceTitles(model, db, actor, entity, records);
  return { rows: visible, references };
}
