import { sql } from 'kysely';
import { NinefoldError } from '../errors/ninefold-error';
import { evaluateCondition, type RecordLike } from '../condition/evaluate';
import { conditionToSql } from '../condition/bound-sql';
import { limitMessage } from '../spec/limit-message';
import type { AppModel, EntityModel, LimitModel } from '../spec/model';
import { isLimitMaxField } from '../spec/limit-max';
import type { LimitSpec } from '../spec/types';
import type { DynamicDatabase } from '../store/types';
import type { Actor } from '../ground/actor';
import { withPathValues } from './path-values';
import { declaredField } from './declared';

function counts(model: AppModel, limit: LimitSpec, record: RecordLike | null, now: Date): boolean {
  if (!record) return false;
  const owner = record[limit.per];
  if (owner === null || owner === undefined) return false;
  return !limit.where || evaluateCondition(model, limit.where, record, now);
}

/**
 * Refuses with LIMIT_EXCEEDED a write that makes a record count towards a limit (e.g. a ticket
 * that is created, or reopened, as open) when its owner already has the maximum. A record that
 * already counted, for the same owner, is left alone: lowering a constant never blocks edits of
 * what exists.
 *
 * Two concurrent writes for the same owner could each see one place left; a transaction-scoped
 * advisory lock on (table, limit, owner field, owner) makes them take turns, so the cap holds under
 * races. The owner is a user (a customer's open tickets) or a referenced record (a supplier's
 * open orders).
 * The count stops at the maximum: never an unbounded COUNT(*).
 */
export async function checkLimits(
  model: AppModel,
  trx: DynamicDatabase,
  entity: EntityModel,
  actor: Actor,
  before: RecordLike | null,
  after: RecordLike,
  now: Date,
): Promise<void> {
  // Conditions through a path (`supplier.country`) compare the record it points at: read it first.
  const conditions = Object.values(entity.limits).map((l) => l.where);
  after = await withPathValues(model, trx, entity, conditions, after);
  if (before) before = await withPathValues(model, trx, entity, conditions, before);
  for (const [name, limit] of Object.entries(entity.limits)) {
    if (limit.exempt?.some((role) => actor.roles.includes(role))) continue;
    if (!counts(model, limit, after, now)) continue;
    const owner = after[limit.per] as number;
    if (counts(model, limit, before, now) && before?.[limit.per] === owner) continue;
    await sql`select pg_advisory_xact_lock(hashtext(${`${entity.table}:${name}:${limit.per}:${owner}`}))`.execute(trx);
    // Read under the lock: the writers it makes wait see the maximum as the last one left it.
    const max = limit.maxValue ?? (await maxOfOwner(model, trx, limit, owner));
    if (max === null) continue;
    const column = declaredField(entity, limit.per).column;
    let others = trx.selectFrom(entity.table).select(sql.lit(1).as('one')).where(column, '=', owner).limit(max);
    if (limit.where) others = others.where(conditionToSql(model, entity, limit.where, actor));
    if (typeof after.id === 'number') others = others.where('id', '<>', after.id);
    const found = await trx
      .selectFrom(others.as('counted'))
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(found.n) < max) continue;
    const constant = typeof limit.max === 'object' && '$constant' in limit.max ? limit.max.$constant : undefined;
    throw new NinefoldError('LIMIT_EXCEEDED', limitMessage(model.constants, name, limit, max), {
      details: {
        limit: name,
        max,
        ...(constant ? { constant } : {}),
        ...(isLimitMaxField(limit.max) ? { field: limit.max.field } : {}),
      },
    });
  }
}

/**
 * The maximum the owner record holds (`max: { field: 'event.capacity' }`): its field's value, or
 * null (no limit) when it is empty or the record is gone (the reference check answers that).
 */
async function maxOfOwner(model: AppModel, trx: DynamicDatabase, limit: LimitModel, owner: number): Promise<number | null> {
  const source = limit.maxField;
  const target = source ? model.entitiesByName[source.entity] : undefined;
  if (!source || !target)
    throw new Error(`The limit's maximum names no field of a referenced record, though the spec's validation checks it`);
  const row = await trx
    .selectFrom(target.table)
    .select(sql.ref<number | string | null>(source.column).as('max'))
    .where('id', '=', owner)
    .executeTakeFirst();
  // A negative value (the spec may leave the field without a minimum) allows none, as zero does.
  return row?.max === null || row?.max === undefined ? null : Math.max(0, Number(row.max));
}
