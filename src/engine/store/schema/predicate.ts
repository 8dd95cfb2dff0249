import type { EntityModel } from '../../spec/model';
import type { Condition, ConstantSpec, Operand } from '../../spec/types';
import { quoteIdent, quoteLiteral } from './sql';

/** A value an index predicate may hold: what a literal or a constant of the spec can be. */
export type PredicateLiteral = string | number | boolean | null;

type Constants = Readonly<Record<string, ConstantSpec>>;

/**
 * A condition as SQL with its values written in, for a partial index's predicate (an index takes
 * no parameters). Constants are resolved to their values, so that a changed constant is a changed
 * predicate (and index). Comparisons mean what `conditionToSql` makes them mean (`ne` is
 * `is distinct from`), so that the index holds exactly the records the spec's condition selects.
 * The spec checks (validate/unique-when.ts) allow only fields, the state and literal operands;
 * anything else here is a programming error and throws.
 */
export function literalPredicateSql(entity: EntityModel, condition: Condition, constants: Constants): string {
  if ('all' in condition)
    return group(
      condition.all.map((c) => literalPredicateSql(entity, c, constants)),
      ' and ',
      'true',
    );
  if ('any' in condition)
    return group(
      condition.any.map((c) => literalPredicateSql(entity, c, constants)),
      ' or ',
      'false',
    );
  if ('not' in condition) return `not (${literalPredicateSql(entity, condition.not, constants)})`;
  const column = quoteIdent(predicateColumn(entity, condition.field));
  switch (condition.op) {
    case 'present':
      return `${column} is not null`;
    case 'absent':
      return `${column} is null`;
    case 'in':
    case 'notIn': {
      const values = predicateValues(condition.value, constants);
      if (values.length === 0) return condition.op === 'in' ? 'false' : 'true';
      return `${column} ${condition.op === 'in' ? 'in' : 'not in'} (${values.map(sqlLiteral).join(', ')})`;
    }
    default: {
      const value = predicateValue(condition.value as Operand, constants);
      if (condition.op === 'ne') return `${column} is distinct from ${sqlLiteral(value)}`;
      const operator = { eq: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' }[condition.op];
      return `${column} ${operator} ${sqlLiteral(value)}`;
    }
  }
}

function group(parts: readonly string[], joiner: string, empty: string): string {
  return parts.length === 0 ? empty : `(${parts.join(joiner)})`;
}

/** The column of a field or of the workflow state: the only things an index predicate may read. */
export function predicateColumn(entity: EntityModel, name: string): string {
  if (entity.workflow && name === entity.workflow.field) return entity.workflow.column;
  const field = entity.fieldsByName[name];
  if (!field || field.type === 'references') throw new Error(`${entity.name}: "${name}" cannot be part of an index predicate`);
  return field.column;
}

/** A literal or a constant's value. */
export function predicateValue(operand: Operand | undefined, constants: Constants): PredicateLiteral {
  if (operand === undefined || operand === null) return null;
  if (typeof operand !== 'object') return operand;
  if ('$constant' in operand) {
    const value = constants[operand.$constant]?.value;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  }
  throw new Error(`an index predicate compares with literal values and constants only, got ${JSON.stringify(operand)}`);
}

/** The values of an `in` / `notIn` list (a single value counts as a list of one). */
export function predicateValues(value: unknown, constants: Constants): PredicateLiteral[] {
  const list = (Array.isArray(value) ? value : [value]) as readonly (Operand | undefined)[];
  return list.map((v) => predicateValue(v, constants));
}

/**
 * Written in, quoted: strings as escaped literals (Postgres coerces an untyped literal to the
 * column's type, so '2025-01-31' compares as a date), numbers and booleans bare.
 */
function sqlLiteral(value: PredicateLiteral): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`an index predicate cannot hold ${value}`);
    return String(value);
  }
  return quoteLiteral(value);
}
