import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Actor } from '../ground/actor';
import type { AppModel, EntityModel } from '../spec/model';
import type { Condition, Operand } from '../spec/types';
import { columnFor } from '../ops/records';
import { authorId } from '../access/visitor';
// The spec's user fields are `f_*` columns of the accounts table (build.ts, userFieldColumn).
import { USER_TABLE } from '../store/schema/desired';
import { actorOperand, splitPath, type FieldPath } from './condition-paths';

type Leaf = Extract<Condition, { readonly field: string }>;

/**
 * Compiles a spec Condition into a SQL predicate over one entity's table, so that scopes and
 * filters are applied by the database (and by the same index) rather than row by row in memory.
 */
export function conditionToSql(
  model: AppModel,
  entity: EntityModel,
  condition: Condition,
  actor: Actor,
  params: RouteParams = {},
): RawBuilder<SqlBool> {
  const nested = (c: Condition) => conditionToSql(model, entity, c, actor, params);
  if ('all' in condition) {
    if (condition.all.length === 0) return sql<SqlBool>`true`;
    return sql<SqlBool>`(${sql.join(condition.all.map(nested), sql` and `)})`;
  }
  if ('any' in condition) {
    if (condition.any.length === 0) return sql<SqlBool>`false`;
    return sql<SqlBool>`(${sql.join(condition.any.map(nested), sql` or `)})`;
  }
  if ('not' in condition) return sql<SqlBool>`not (${nested(condition.not)})`;

  const path = splitPath(condition.field);
  if (path) return pathToSql(model, entity, path, condition, actor, params);
  return leafToSql(
    sql.ref(columnFor(entity, condition.field)),
    condition,
    () => operandToSql(model, entity, condition.value as Operand, actor, params),
    actor,
  );
}

/**
 * A leaf on a path, as a subquery on the record the path's head points at: `patient.account = 3`
 * is `patient in (select id from patient where account = 3)`, which the index on the reference
 * column (and the target's primary key) serves. It holds only when the reference is set, and is
 * never null, so `not` over it means what it says. The inner predicate names only the target's
 * columns (the checks refuse `{ field }` operands on paths), so nothing in it binds to the outer row.
 */
function pathToSql(
  model: AppModel,
  entity: EntityModel,
  path: FieldPath,
  leaf: Leaf,
  actor: Actor,
  params: RouteParams,
): RawBuilder<SqlBool> {
  const head = sql.ref(columnFor(entity, path.head));
  const targetName = entity.fieldsByName[path.head]?.referenceTo;
  let subquery: RawBuilder<unknown>;
  if (targetName) {
    const target = model.entitiesByName[targetName];
    if (!target) throw new Error(`${entity.name}.${path.head} refers to an unknown entity "${targetName}"`);
    const inner = conditionToSql(model, target, { ...leaf, field: path.tail }, actor, params);
    subquery = sql`select ${sql.ref(`${target.table}.id`)} from ${sql.table(target.table)} where ${inner}`;
  } else {
    // A user field (or createdBy / updatedBy): the tail is one of the spec's user fields.
    const field = model.users.fieldsByName[path.tail];
    if (!field) throw new Error(`${entity.name}: "${path.head}.${path.tail}" names no user field`);
    const inner = leafToSql(
      sql.ref(`${USER_TABLE}.${field.column}`),
      leaf,
      () => operandToSql(model, entity, leaf.value as Operand, actor, params),
      actor,
    );
    subquery = sql`select ${sql.ref(`${USER_TABLE}.id`)} from ${sql.table(USER_TABLE)} where ${inner}`;
  }
  return sql<SqlBool>`(${head} is not null and ${head} in (${subquery}))`;
}

/** One comparison of a column, the operand compiled on demand. */
function leafToSql(column: RawBuilder<unknown>, condition: Leaf, operandSql: () => RawBuilder<unknown>, actor: Actor): RawBuilder<SqlBool> {
  switch (condition.op) {
    case 'present':
      return sql<SqlBool>`${column} is not null`;
    case 'absent':
      return sql<SqlBool>`${column} is null`;
    case 'in':
    case 'notIn': {
      const values = Array.isArray(condition.value) ? condition.value : [condition.value];
      if (values.length === 0) return condition.op === 'in' ? sql<SqlBool>`false` : sql<SqlBool>`true`;
      const list = sql.join(values.map((v) => sql`${v}`));
      return condition.op === 'in' ? sql<SqlBool>`${column} in (${list})` : sql<SqlBool>`${column} not in (${list})`;
    }
    default: {
      const operator = { eq: '=', ne: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' }[condition.op];
      // A user without a value for the field (or a visitor) matches nothing, not the records without one.
      const name = actorOperand(condition.value);
      if (name !== null && actorValue(actor, name) === null)
        return condition.op === 'ne' ? sql<SqlBool>`${column} is not null` : sql<SqlBool>`false`;
      const operand = operandSql();
      if (condition.op === 'ne') return sql<SqlBool>`${column} is distinct from ${operand}`;
      return sql<SqlBool>`${column} ${sql.raw(operator)} ${operand}`;
    }
  }
}

/** Values of a custom route's parameters, for `{ param }` operands. */
export type RouteParams = Readonly<Record<string, string | number | boolean>>;

function operandToSql(model: AppModel, entity: EntityModel, operand: Operand, actor: Actor, params: RouteParams): RawBuilder<unknown> {
  if (operand === null || typeof operand !== 'object') return sql`${operand}`;
  if ('actor' in operand) return sql`${actorValue(actor, actorOperand(operand)!)}`;
  if ('param' in operand) {
    const value = params[operand.param];
    // A missing parameter matches nothing rather than everything.
    return value === undefined ? sql`null` : sql`${value}`;
  }
  if ('$constant' in operand) return sql`${model.constants[operand.$constant]?.value as string | number | boolean}`;
  if ('field' in operand) return sql.ref(columnFor(entity, operand.field)) as RawBuilder<unknown>;
  if ('now' in operand) return sql`now()`;
  const days = typeof operand.daysAgo === 'number' ? operand.daysAgo : Number(model.constants[operand.daysAgo.$constant]?.value);
  return sql`now() - make_interval(days => ${days})`;
}

/** The id of the actor (`'id'`), or the value of one of their user fields; null when they have none. */
function actorValue(actor: Actor, name: string): unknown {
  const value = name === 'id' ? authorId(actor) : actor.fields?.[name];
  return value === undefined ? null : value;
}
