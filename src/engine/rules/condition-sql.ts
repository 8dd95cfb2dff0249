import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Actor } from '../ops/types';
import type { AppModel, EntityModel } from '../spec/model';
import type { Condition, Operand } from '../spec/types';
import { columnFor } from '../ops/records';

/**
 * Compiles a spec Condition into a SQL predicate over one entity's table, so that scopes and
 * filters are applied by the database (and by the same index) rather than row by row in memory.
 */
export function conditionToSql(model: AppModel, entity: EntityModel, condition: Condition, actor: Actor, params: RouteParams = {}): RawBuilder<SqlBool> {
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

  const column = sql.ref(columnFor(entity, condition.field));
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
      const operand = operandToSql(model, entity, condition.value as Operand, actor, params);
      if (condition.op === 'ne') return sql<SqlBool>`${column} is distinct from ${operand}`;
      return sql<SqlBool>`${column} ${sql.raw(operator)} ${operand}`;
    }
  }
}

/** Values of a custom route's parameters, for `{ param }` operands. */
export type RouteParams = Readonly<Record<string, string | number | boolean>>;

function operandToSql(model: AppModel, entity: EntityModel, operand: Operand, actor: Actor, params: RouteParams): RawBuilder<unknown> {
  if (operand === null || typeof operand !== 'object') return sql`${operand}`;
  if ('actor' in operand) return sql`${actor.userId}`;
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
