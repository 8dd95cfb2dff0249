import { sql } from 'kysely';
import { rowScope } from '../access/authorize';
import { entityOf, type OpsContext } from './context';
import { isRecordId } from './record-id';
import type { Actor } from '../ground/actor';

/** Records that changed, as the change feed names them (see src/engine/live/changes.ts). */
export interface ChangedRecords {
  /** Their ids; null when too many changed to name ("some changed"). */
  readonly ids: readonly number[] | null;
  /** Deleted rows: the columns the read scopes test, of each row's last image. */
  readonly gone?: readonly Readonly<Record<string, unknown>>[] | null;
  /**
   * Instead of `ids`: the records whose reference `field` points at one of these changed records
   * of another entity, which a path in a read scope follows (`team.open`): they may have come into view.
   */
  readonly through?: { readonly field: string; readonly ids: readonly number[] };
}

/** At most this many records come into view through one batch of changed records (the page refreshes anyway). */
const MAX_THROUGH = 500;

/**
 * Which of these changed records the actor may read now: the ids (in one query per call, with
 * the same read scope as get and list), or null for "some, unnamed" — only ever for an actor who
 * may read every record of the entity, since anyone else could learn from it that something they
 * may not see exists. A deleted row is judged on its last image; without one, only such an actor
 * hears of it. Never throws FORBIDDEN: an actor without read access simply reads none.
 */
export async function readableRecords(
  ctx: OpsContext,
  actor: Actor,
  entityName: string,
  changed: ChangedRecords,
): Promise<readonly number[] | null> {
  const entity = entityOf(ctx.model, entityName);
  const scope = rowScope(ctx.model, entity, actor, 'read');
  if (!scope) return [];
  if (changed.through) {
    // A viewer who reads every record saw none come or go through the reference.
    const ids = changed.through.ids.filter(isRecordId);
    const field = entity.fieldsByName[changed.through.field];
    if (scope.all || ids.length === 0 || !field?.referenceTo) return [];
    const rows = await ctx.db
      .selectFrom(entity.table)
      .select('id')
      .where(field.column, 'in', ids)
      .where(scope.sql)
      .limit(MAX_THROUGH)
      .execute();
    return rows.map((r) => Number(r.id));
  }
  if (changed.ids === null) return scope.all ? null : [];
  const ids = [...new Set(changed.ids.filter(isRecordId))];
  if (scope.all || ids.length === 0) return ids;
  if (changed.gone !== undefined) {
    if (!changed.gone || changed.gone.length === 0) return [];
    // The deleted rows as rows of the entity's own type, under its name, so the scope's columns resolve.
    const { rows } = await sql<{ id: number }>`
      select ${sql.ref(`${entity.table}.id`)} as id
      from json_populate_recordset(null::${sql.table(entity.table)}, ${JSON.stringify(changed.gone)}::json) as ${sql.table(entity.table)}
      where ${scope.sql}`.execute(ctx.db);
    const wanted = new Set(ids);
    return rows.map((r) => Number(r.id)).filter((id) => wanted.has(id));
  }
  const rows = await ctx.db.selectFrom(entity.table).select('id').where('id', 'in', ids).where(scope.sql).execute();
  return rows.map((r) => Number(r.id));
}
