import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Actor } from '../ground/actor';
import type { AppModel, EntityModel } from '../spec/model';
import type { Condition } from '../spec/types';
import { columnFor } from '../ops/records';
import { authorId } from '../access/visitor';
// The spec's user fields are `f_*` columns of the accounts table (build.ts, userFieldColumn).
import { USER_TABLE } from '../store/schema/desired';
import { workingDaysSql } from '../store/schema/working-days';
import { foldCondition } from './fold';
import { writeLeaf, type SqlPieces } from './leaf-sql';
import type { CompiledCondition, CompiledExists, CompiledLeaf, TimeShift } from './types';
import { reverseReferenceOf } from '../spec/reverse-reference';
import { JOIN_RECORD, JOIN_TARGET } from '../spec/join-fields';

/** Values of a custom route's parameters, for `{ param }` operands. */
export type RouteParams = Readonly<Record<string, string | number | boolean>>;

/**
 * A compiled condition as a SQL predicate over one entity's table, values bound as parameters,
 * so that scopes and filters are applied by the database (and by the same index) rather than
 * row by row in memory.
 */
export function boundConditionSql(
  model: AppModel,
  entity: EntityModel,
  condition: CompiledCondition,
  actor: Actor,
  params: RouteParams = {},
): RawBuilder<SqlBool> {
  return rowConditionSql(model, entity, condition, actor, params, { table: entity.table, depth: 0 });
}

/** Which row a condition is on: the entity's table itself, or the alias an `exists` gave it (depth: how many enclose it). */
interface RowAt {
  readonly table: string;
  readonly depth: number;
}

function rowConditionSql(
  model: AppModel,
  entity: EntityModel,
  condition: CompiledCondition,
  actor: Actor,
  params: RouteParams,
  row: RowAt,
): RawBuilder<SqlBool> {
  const pieces = boundPieces(model, entity, actor, params);
  const leaf = (l: CompiledLeaf) => leafSql(model, entity, l, pieces, row);
  return foldCondition<RawBuilder<SqlBool>>(condition, {
    all: (items) => (items.length === 0 ? sql<SqlBool>`true` : sql<SqlBool>`(${sql.join(items, sql` and `)})`),
    any: (items) => (items.length === 0 ? sql<SqlBool>`false` : sql<SqlBool>`(${sql.join(items, sql` or `)})`),
    not: (item) => sql<SqlBool>`not (${item})`,
    exists: (node) => existsSql(model, entity, node, actor, params, row),
    present: leaf,
    absent: leaf,
    in: leaf,
    notIn: leaf,
    compare: leaf,
  });
}

/**
 * `exists` as a correlated subquery on the related table, served by the index on its reference
 * column (schema sync indexes every reference column): `exists (select 1 from appointment r
 * where r.patient = patient.id and <where on the appointment>)`. The related table is aliased,
 * so that the outer `<table>.id` means the outer row even when both are the same entity; the
 * inner condition names its columns unqualified, which bind to the nearest table, the alias.
 */
function existsSql(
  model: AppModel,
  entity: EntityModel,
  node: CompiledExists,
  actor: Actor,
  params: RouteParams,
  row: RowAt,
): RawBuilder<SqlBool> {
  const { related, reference } = reverseReferenceOf(model, entity, node.entity, node.via);
  const inner: RowAt = { table: `nf_exists_${row.depth}`, depth: row.depth + 1 };
  const where = node.where === null ? sql<SqlBool>`true` : rowConditionSql(model, related, node.where, actor, params, inner);
  return sql<SqlBool>`exists (select 1 from ${sql.table(related.table)} as ${sql.table(inner.table)} where ${sql.ref(`${inner.table}.${reference.column}`)} = ${sql.ref(`${row.table}.id`)} and ${where})`;
}

/** A spec condition of the model (compiled by the model build) as a SQL predicate: see boundConditionSql. */
export function conditionToSql(
  model: AppModel,
  entity: EntityModel,
  condition: Condition,
  actor: Actor,
  params: RouteParams = {},
): RawBuilder<SqlBool> {
  return boundConditionSql(model, entity, model.conditions.of(condition), actor, params);
}

function boundPieces(model: AppModel, entity: EntityModel, actor: Actor, params: RouteParams): SqlPieces<RawBuilder<unknown>> {
  return {
    raw: (text) => sql.raw(text),
    operand(operand) {
      switch (operand.kind) {
        case 'literal':
          return sql`${operand.value}`;
        case 'actor':
          return sql`${actorValue(actor, operand.name)}`;
        case 'param': {
          const value = params[operand.name];
          // A missing parameter matches nothing rather than everything.
          return value === undefined ? sql`null` : sql`${value}`;
        }
        case 'field': {
          const of = entity.fieldsByName[operand.field]?.type === 'date' ? 'date' : 'time';
          return shifted(sql.ref(columnFor(entity, operand.field)) as RawBuilder<unknown>, operand.shift, of);
        }
        case 'now':
          return shifted(sql`now()`, operand.shift, 'time');
        case 'daysAgo':
          return sql`now() - make_interval(days => ${operand.days})`;
      }
    },
    seq: (...pieces) => sql.join(pieces, sql``),
    actorMissing: (name) => actorValue(actor, name) === null,
    ne: 'is distinct from',
  };
}

/**
 * A time moved by a duration, in seconds (a date becomes its midnight, as `date + interval` has
 * it), or by working days on the spec's calendar (a date stays a date).
 */
function shifted(time: RawBuilder<unknown>, shift: TimeShift | undefined, of: 'date' | 'time'): RawBuilder<unknown> {
  if (!shift) return time;
  if (shift.unit === 'workingDays') return workingDaysSql(time, shift.days, shift.calendar, of);
  return sql`(${time} + make_interval(secs => ${shift.seconds}))`;
}

/**
 * A leaf; on a path, as a subquery on the record the path's head points at: `patient.account = 3`
 * is `patient in (select id from patient where account = 3)`, which the index on the reference
 * column (and the target's primary key) serves. It holds only when the reference is set, and is
 * never null, so `not` over it means what it says. The inner predicate names only the target's
 * columns (the checks refuse `{ field }` operands on paths), so nothing in it binds to the outer row.
 */
function leafSql(
  model: AppModel,
  entity: EntityModel,
  leaf: CompiledLeaf,
  pieces: SqlPieces<RawBuilder<unknown>>,
  row: RowAt,
): RawBuilder<SqlBool> {
  const { head, tail } = leaf.subject;
  const joinTable = entity.fieldsByName[head]?.joinTable;
  if (tail === null && joinTable !== undefined) return setLeafSql(joinTable, leaf, pieces, row);
  if (tail === null) return writeLeaf(leaf, sql.ref(columnFor(entity, head)), pieces) as RawBuilder<SqlBool>;
  const headColumn = sql.ref(columnFor(entity, head));
  const targetName = entity.fieldsByName[head]?.referenceTo;
  let subquery: RawBuilder<unknown>;
  if (targetName) {
    const target = model.entitiesByName[targetName];
    if (!target) throw new Error(`${entity.name}.${head} refers to an unknown entity "${targetName}"`);
    const inner = writeLeaf(leaf, sql.ref(columnFor(target, tail)), pieces);
    subquery = sql`select ${sql.ref(`${target.table}.id`)} from ${sql.table(target.table)} where ${inner}`;
  } else {
    // A user field (or createdBy / updatedBy): the tail is one of the spec's user fields.
    const field = model.users.fieldsByName[tail];
    if (!field) throw new Error(`${entity.name}: "${head}.${tail}" names no user field`);
    const inner = writeLeaf(leaf, sql.ref(`${USER_TABLE}.${field.column}`), pieces);
    subquery = sql`select ${sql.ref(`${USER_TABLE}.id`)} from ${sql.table(USER_TABLE)} where ${inner}`;
  }
  return sql<SqlBool>`(${headColumn} is not null and ${headColumn} in (${subquery}))`;
}

/**
 * A leaf on a set (set-leaf.ts: "includes"), as an EXISTS on its join table, which its primary
 * key (record, member) serves: `eq` is "some pair names the value", `ne` its negation,
 * `present` "some pair", `absent` "none". Never null, as in memory.
 */
function setLeafSql(joinTable: string, leaf: CompiledLeaf, pieces: SqlPieces<RawBuilder<unknown>>, row: RowAt): RawBuilder<SqlBool> {
  const pairs = (member: RawBuilder<unknown> | null) =>
    sql<SqlBool>`exists (select 1 from ${sql.table(joinTable)} j where j.${sql.ref(JOIN_RECORD)} = ${sql.ref(`${row.table}.id`)}${member ? sql` and j.${sql.ref(JOIN_TARGET)} = ${member}` : sql``})`;
  switch (leaf.kind) {
    case 'present':
      return pairs(null);
    case 'absent':
      return sql<SqlBool>`not ${pairs(null)}`;
    case 'compare': {
      // A user without the value (a visitor) is in no set: `ne` then holds where the set has members.
      if (leaf.operand.kind === 'actor' && pieces.actorMissing(leaf.operand.name))
        return leaf.op === 'ne' ? pairs(null) : sql<SqlBool>`false`;
      const member = pairs(pieces.operand(leaf.operand));
      if (leaf.op === 'eq') return member;
      if (leaf.op === 'ne') return sql<SqlBool>`not ${member}`;
      throw new Error(`a set cannot be compared with "${leaf.op}" (the spec's checks refuse it)`);
    }
    case 'in':
    case 'notIn':
      throw new Error(`a set cannot be tested with "${leaf.kind}" (the spec's checks refuse it)`);
  }
}

/** The id of the actor (`'id'`), or the value of one of their user fields; null when they have none. */
function actorValue(actor: Actor, name: string): unknown {
  const value = name === 'id' ? authorId(actor) : actor.fields?.[name];
  return value === undefined ? null : value;
}
