import { compareValues, orderHolds } from './compare';
import type { RecordLike } from './evaluate';
import { foldCondition } from './fold';
import type { CompiledCondition, CompiledOperand, Literal } from './types';

/**
 * The condition on a stored record as a partial index's predicate (literal-sql.ts) reads it, with
 * SQL's three values: null when a comparison meets an empty value, so that `not` of it does not
 * hold either (a row is in a partial index only when its predicate is true). It compares fields
 * with literals and constants only, as an index predicate does; anything else throws.
 */
export function holdsThreeValued(condition: CompiledCondition, record: RecordLike): boolean | null {
  const empty = (field: string) => record[field] === null || record[field] === undefined;
  return foldCondition<boolean | null>(condition, {
    all: and,
    any: or,
    not: (item) => (item === null ? null : !item),
    present: (leaf) => !empty(leaf.subject.field),
    absent: (leaf) => empty(leaf.subject.field),
    in: (leaf) =>
      member(
        record[leaf.subject.field],
        leaf.values.map((v) => v.value),
      ),
    notIn: (leaf) => {
      const found = member(
        record[leaf.subject.field],
        leaf.values.map((v) => v.value),
      );
      return found === null ? null : !found;
    },
    compare: (leaf) => {
      const actual = record[leaf.subject.field];
      const value = literalValue(leaf.operand);
      // `is distinct from`, as the SQL writers read `ne`.
      if (leaf.op === 'ne' && (empty(leaf.subject.field) || value === null)) return empty(leaf.subject.field) !== (value === null);
      const order = compareValues(actual, value);
      return order === null ? null : orderHolds(leaf.op, order);
    },
  });
}

/** `x in (...)`: true when found, else null when the value or a listed one is empty, else false. */
function member(actual: unknown, list: readonly Literal[]): boolean | null {
  if (list.length === 0) return false;
  if (actual === null || actual === undefined) return null;
  if (list.some((v) => compareValues(actual, v) === 0)) return true;
  return list.includes(null) ? null : false;
}

function literalValue(operand: CompiledOperand): Literal {
  if (operand.kind === 'literal') return operand.value;
  throw new Error(`an index predicate compares with literal values and constants only, got ${JSON.stringify(operand)}`);
}

function and(values: readonly (boolean | null)[]): boolean | null {
  if (values.includes(false)) return false;
  return values.includes(null) ? null : true;
}

function or(values: readonly (boolean | null)[]): boolean | null {
  if (values.includes(true)) return true;
  return values.includes(null) ? null : false;
}
