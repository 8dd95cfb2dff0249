import { createHash } from 'node:crypto';
import type { EntityModel } from '../../spec/model';
import type { Condition } from '../../spec/types';
import { objectName, quoteIdent, quoteLiteral } from './sql';
import type { IndexDef } from './types';

/*
 * Work still running against a due time, oldest due first ("overdue", "needs my action") is what
 * a due field exists for. Most records of a long-lived table are done, so an index on the due time
 * alone walks past every done record before the first open one. These partial indexes hold only
 * the records whose `doneWhen` does not hold: by due time, and per person (each user field).
 * Postgres uses them for queries whose condition implies theirs (`state not in (resolved, closed)`,
 * or `state in (open, pending)`).
 */
export function dueQueueIndexes(entity: EntityModel): IndexDef[] {
  const indexes: IndexDef[] = [];
  for (const field of entity.fields) {
    const doneWhen = field.due?.doneWhen;
    const done = doneWhen ? literalSql(entity, doneWhen) : null;
    if (!done) continue;
    const where = `not (${done})`;
    const tag = createHash('sha256').update(where).digest('hex').slice(0, 8);
    const keys = [[field.column, 'id'], ...entity.fields.filter((f) => f.type === 'user').map((u) => [u.column, field.column, 'id'])];
    for (const columns of keys) {
      indexes.push({ name: objectName(entity.table, [...columns.slice(0, -1), 'open', tag], 'idx'), columns, method: 'btree', where });
    }
  }
  return indexes;
}

/**
 * A condition as SQL with its values written in (an index predicate takes no parameters); null
 * when it compares with anything but literals (the time now, a constant, another field).
 */
function literalSql(entity: EntityModel, condition: Condition): string | null {
  const nested = (items: readonly Condition[], joiner: string) => {
    const parts = items.map((c) => literalSql(entity, c));
    return parts.length > 0 && parts.every((p) => p !== null) ? `(${parts.join(joiner)})` : null;
  };
  if ('all' in condition) return nested(condition.all, ' and ');
  if ('any' in condition) return nested(condition.any, ' or ');
  if ('not' in condition) {
    const inner = literalSql(entity, condition.not);
    return inner && `not (${inner})`;
  }
  const column = columnOf(entity, condition.field);
  if (!column) return null;
  const value = condition.value;
  switch (condition.op) {
    case 'present':
      return `${column} is not null`;
    case 'absent':
      return `${column} is null`;
    case 'in':
    case 'notIn': {
      if (!Array.isArray(value) || value.length === 0) return null;
      const list = value.map(literal);
      if (list.some((v) => v === null)) return null;
      return `${column} ${condition.op === 'in' ? 'in' : 'not in'} (${list.join(', ')})`;
    }
    default: {
      const operand = Array.isArray(value) ? null : literal(value);
      if (operand === null) return null;
      const operator = { eq: '=', ne: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' }[condition.op];
      return `${column} ${operator} ${operand}`;
    }
  }
}

function literal(value: unknown): string | null {
  if (typeof value === 'string') return quoteLiteral(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return null;
}

function columnOf(entity: EntityModel, name: string): string | null {
  if (entity.workflow && name === entity.workflow.field) return quoteIdent(entity.workflow.column);
  const column = entity.fieldsByName[name]?.column ?? entity.systemColumns.find((c) => c.name === name)?.column;
  return column ? quoteIdent(column) : null;
}
