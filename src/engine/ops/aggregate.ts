import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { authorizeScope, type RowScope } from '../access/authorize';
import { accessFor } from '../access/entity-access';
import { checkQueryable, queryableBy } from '../access/fields';
import { fieldSight } from '../access/field-sight';
import { ownListField } from '../access/grants';
import { conditionToSql } from '../condition/bound-sql';
import type { EntityModel } from '../spec/model';
import type { Condition } from '../spec/types';
import { dayDimension, TALLY_EVERYONE, TALLY_TABLE, TALLY_TOTAL, tallyPlan, type EntityTally } from '../store/schema/tally';
import { entityOf, type OpsContext } from './context';
import { conditionFields } from '../condition/fields';
import { columnFor } from './records';
import { loadReferenceTitles } from './references';
import type { ListQuery, QueryUse, RecordData } from './types';
import type { Actor } from '../ground/actor';

/** Records (or a sum) per value of a field, in the actor's list scope. */
export interface GroupQuery {
  /** A state, enum, boolean, reference or user field; absent: the total only. */
  readonly by?: string;
  /** An integer or decimal field summed instead of counting records. */
  readonly sum?: string;
  /** A condition declared by the spec (never one a client sent); may use `{ actor: true }` and `{ param }`. */
  readonly where?: Condition;
  readonly params?: Readonly<Record<string, string | number | boolean>>;
}

export interface GroupTotals {
  /** Records (or the sum) over every value. */
  readonly total: number;
  /** One per value found (null: the field is empty), without the values no record has. */
  readonly groups: readonly { readonly value: string | null; readonly amount: number }[];
  /** For a reference or user field: the titles of the values the actor may read, by id. */
  readonly titles: Readonly<Record<string, string>>;
}

/** Records per day (UTC) of a datetime field, in the actor's list scope. */
export interface DayQuery {
  readonly field: string;
  /** How many days up to today included. */
  readonly days: number;
  readonly where?: Condition;
  readonly params?: Readonly<Record<string, string | number | boolean>>;
}

/** Every day of the range, oldest first, days without records included (count 0). */
export type DayCounts = readonly { readonly day: string; readonly count: number }[];

const tallies = new WeakMap<object, ReadonlyMap<string, EntityTally>>();

function tallyOf(ctx: OpsContext, entity: EntityModel): EntityTally | undefined {
  let plan = tallies.get(ctx.model);
  if (!plan) {
    plan = new Map(tallyPlan(ctx.model).map((t) => [t.entity, t]));
    tallies.set(ctx.model, plan);
  }
  return plan.get(entity.name);
}

/**
 * Where the actor's numbers can be read from the running totals: every record (a scope of all),
 * or the actor's own (every list grant is `{ own: field }` on the same user field). Null: count
 * the rows in scope.
 */
function tallyOwner(ctx: OpsContext, entity: EntityModel, actor: Actor, all: boolean): { field: string; owner: number } | null {
  if (all) return { field: TALLY_EVERYONE, owner: 0 };
  const field = ownListField(entity, actor);
  return field !== null && (tallyOf(ctx, entity)?.owners.has(field) ?? false) ? { field, owner: actor.userId } : null;
}

/** The running totals of one owner (or of everyone) for one dimension and measure. */
function tallyRows(ctx: OpsContext, entity: EntityModel, owner: { field: string; owner: number }, dimension: string, measure: string) {
  return ctx.db
    .selectFrom(TALLY_TABLE)
    .where('entity', '=', entity.name)
    .where('owner_field', '=', owner.field)
    .where('owner', '=', owner.owner)
    .where('dimension', '=', dimension)
    .where('measure', '=', measure);
}

/**
 * The scope of the actor's list, with the fields used checked readable (FORBIDDEN_FIELD otherwise),
 * and the actor's sight of the fields: where a field is read on some records only (field-sight.ts),
 * the numbers count it as empty on the others, and a condition on it holds on none of them.
 */
function scoped(ctx: OpsContext, actor: Actor, entity: EntityModel, fields: readonly string[], where: Condition | undefined) {
  const scope = authorizeScope(ctx.model, entity, actor, 'list');
  const sight = fieldSight(ctx.model, entity, actor);
  const whereFields = where ? conditionFields(ctx.model.conditions.of(where), { paths: 'head', operands: true }) : [];
  checkQueryable(entity, actor, sight.readable, { filters: [...fields, ...whereFields], sort: [], search: false });
  const masks = [...new Set(whereFields)].flatMap((name) => sight.readableWhere(name) ?? []);
  return { scope, sight, masks };
}

/**
 * Whether the actor may list the entity by these fields and condition (count, sum, sort or
 * filter by them) without a refusal: what a dashboard asks before it shows a widget, so that a
 * widget left out by design is not a refusal (nothing is logged).
 */
export function mayQuery(ctx: OpsContext, actor: Actor, entityName: string, query: QueryUse): boolean {
  const entity = entityOf(ctx.model, entityName);
  if (!accessFor(ctx.model, entity, actor).actions.list) return false;
  const whereFields = query.where ? conditionFields(ctx.model.conditions.of(query.where), { paths: 'head', operands: true }) : [];
  return queryableBy(entity, fieldSight(ctx.model, entity, actor).readable, [...query.fields, ...whereFields]);
}

function inScope(
  ctx: OpsContext,
  actor: Actor,
  entity: EntityModel,
  scoping: { readonly scope: RowScope; readonly masks: readonly RawBuilder<SqlBool>[] },
  query: GroupQuery | DayQuery,
): RawBuilder<SqlBool> {
  const parts = [scoping.scope.sql, ...scoping.masks];
  if (query.where) parts.push(conditionToSql(ctx.model, entity, query.where, actor, query.params));
  return parts.length === 1 ? scoping.scope.sql : sql<SqlBool>`(${sql.join(parts, sql`) and (`)})`;
}

/** The field's column, empty where the actor may not read it (`mask`). */
function maskedColumn(entity: EntityModel, name: string, mask: RawBuilder<SqlBool> | null) {
  const column = sql.ref(columnFor(entity, name));
  return mask ? sql`(case when ${mask} then ${column} end)` : column;
}

/**
 * Counts (or sums) per value of a field over the records the actor may list. Every record in
 * scope is counted: from the running totals when the scope allows (see tallyOwner), else by a
 * grouped scan of the rows in scope.
 */
export async function groupTotals(ctx: OpsContext, actor: Actor, entityName: string, query: GroupQuery = {}): Promise<GroupTotals> {
  const entity = entityOf(ctx.model, entityName);
  const used = [query.by, query.sum].filter((f): f is string => f !== undefined);
  for (const name of used) columnFor(entity, name); // an unknown name is a programming error
  const scoping = scoped(ctx, actor, entity, used, query.where);
  const byMask = query.by === undefined ? null : scoping.sight.readableWhere(query.by);
  const sumMask = query.sum === undefined ? null : scoping.sight.readableWhere(query.sum);
  const tally = tallyOf(ctx, entity);
  // The running totals count every value: not for a field some of the records hide.
  const owner = query.where || byMask || sumMask ? null : tallyOwner(ctx, entity, actor, scoping.scope.all);
  const dimension = query.by ?? TALLY_TOTAL;
  const sums = query.by === undefined ? undefined : tally?.groups.get(query.by);
  const tallied = query.by === undefined ? query.sum === undefined : sums !== undefined && (query.sum === undefined || sums.has(query.sum));

  let rows: { value: string; amount: string }[];
  if (owner && tallied) {
    rows = (await tallyRows(ctx, entity, owner, dimension, query.sum ?? '')
      .select(['value', 'amount'])
      .where('amount', '<>', 0)
      .execute()) as { value: string; amount: string }[];
  } else {
    const value = query.by ? sql<string>`coalesce(${maskedColumn(entity, query.by, byMask)}::text, '')` : sql<string>`''`;
    const amount = query.sum ? sql<string>`coalesce(sum(${maskedColumn(entity, query.sum, sumMask)}), 0)` : sql<string>`count(*)`;
    rows = (await ctx.db
      .selectFrom(entity.table)
      .select([value.as('value'), amount.as('amount')])
      .where(inScope(ctx, actor, entity, scoping, query))
      .groupBy(sql`1`)
      .execute()) as { value: string; amount: string }[];
  }
  const groups = rows
    .map((r) => ({ value: r.value === '' ? null : r.value, amount: Number(r.amount) }))
    .filter((g) => query.by !== undefined || g.amount !== 0);
  return {
    total: groups.reduce((sum, g) => sum + g.amount, 0),
    groups: query.by === undefined ? [] : groups,
    titles: query.by ? await titlesOf(ctx, actor, entity, query.by, groups) : {},
  };
}

/**
 * The exact number of records of a list, read from the running totals where they answer it:
 * no search and no condition, at most one filter, on a field they count by, which the actor
 * reads on every record, in a scope they keep (everyone's, or the actor's own). So a list past
 * its count's cap says the number the home says ("1,004 tickets" beside "In all: 1,004"), at
 * the cost of one index lookup. Null where they do not answer: the caller keeps its capped count.
 * The caller has checked the query (list access, filters the actor may use, their values).
 */
export async function talliedCount(ctx: OpsContext, actor: Actor, entityName: string, query: ListQuery): Promise<number | null> {
  const entity = entityOf(ctx.model, entityName);
  if (query.where || (typeof query.q === 'string' && query.q.trim() !== '')) return null;
  const filters = Object.entries(query.filters ?? {}).filter(([, value]) => value !== '' && value !== undefined);
  if (filters.length > 1) return null;
  const [name, value] = filters[0] ?? [TALLY_TOTAL, ''];
  if (name !== TALLY_TOTAL) {
    // Due and "has any of" filters are not equalities on a column; no tally counts by them anyway.
    const field = entity.fieldsByName[name];
    if (field?.due || field?.joinTable !== undefined || !tallyOf(ctx, entity)?.groups.has(name)) return null;
    if (fieldSight(ctx.model, entity, actor).readableWhere(name)) return null;
  }
  const owner = tallyOwner(ctx, entity, actor, authorizeScope(ctx.model, entity, actor, 'list').all);
  if (!owner) return null;
  // The totals keep a column's text (`true`, `12`), which is how a list's filter is written.
  const row = await tallyRows(ctx, entity, owner, name, '').where('value', '=', value).select('amount').executeTakeFirst();
  return row ? Number(row.amount) : 0;
}

async function titlesOf(
  ctx: OpsContext,
  actor: Actor,
  entity: EntityModel,
  by: string,
  groups: GroupTotals['groups'],
): Promise<Record<string, string>> {
  const field = entity.fieldsByName[by];
  const isPerson = by === 'createdBy' || by === 'updatedBy' || field?.type === 'user';
  if (!isPerson && field?.type !== 'reference') return {};
  const records = groups.filter((g) => g.value !== null).map((g) => ({ [by]: Number(g.value) }) as unknown as RecordData);
  const titles = await loadReferenceTitles(ctx.model, ctx.db, actor, entity, records);
  return Object.fromEntries(Object.entries(titles[by] ?? {}).map(([id, title]) => [id, title]));
}

const DAY_MS = 86_400_000;

/** The days of the range, oldest first, as YYYY-MM-DD (UTC). */
export function dayRange(days: number, now: Date = new Date()): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/**
 * Records per day of a datetime field over the last `days` days, in the actor's list scope:
 * from the running totals when the scope allows, else through the index on the field (only
 * the range's rows are read).
 */
export async function perDay(ctx: OpsContext, actor: Actor, entityName: string, query: DayQuery): Promise<DayCounts> {
  const entity = entityOf(ctx.model, entityName);
  if (!Number.isInteger(query.days) || query.days < 1) throw new Error(`perDay: days must be a positive integer, got ${query.days}`);
  const column = columnFor(entity, query.field);
  const scoping = scoped(ctx, actor, entity, [query.field], query.where);
  // Records whose field is hidden from the actor are not counted on any day.
  const fieldMask = scoping.sight.readableWhere(query.field);
  if (fieldMask) scoping.masks.push(fieldMask);
  const range = dayRange(query.days);
  const owner = query.where || fieldMask ? null : tallyOwner(ctx, entity, actor, scoping.scope.all);
  let rows: { day: string; n: string }[];
  if (owner && tallyOf(ctx, entity)?.days.has(query.field)) {
    rows = (await tallyRows(ctx, entity, owner, dayDimension(query.field), '')
      .select(['value as day', 'amount as n'])
      .where('value', '>=', range[0])
      .where('value', '<=', range[range.length - 1])
      .execute()) as { day: string; n: string }[];
  } else {
    const day = sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD')`;
    rows = (await ctx.db
      .selectFrom(entity.table)
      .select([day.as('day'), sql<string>`count(*)`.as('n')])
      .where(inScope(ctx, actor, entity, scoping, query))
      .where(column, '>=', new Date(`${range[0]}T00:00:00Z`))
      .where(column, '<', new Date(Date.parse(`${range[range.length - 1]}T00:00:00Z`) + DAY_MS))
      .groupBy(sql`1`)
      .execute()) as { day: string; n: string }[];
  }
  const counts = new Map(rows.map((r) => [r.day, Number(r.n)]));
  return range.map((d) => ({ day: d, count: counts.get(d) ?? 0 }));
}
