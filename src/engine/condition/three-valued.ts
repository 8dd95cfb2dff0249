import { compareValues, isPresent, orderHolds } from './compare';
import { existsKey, operandValue, type EvalContext, type RecordLike } from './evaluate';
import { foldCondition } from './fold';
import { setLeafHolds, setMembers } from './set-leaf';
import type { CompiledCondition, CompiledLeaf, CompiledOperand, Literal } from './types';

/** The time and the viewer, for conditions that compare with more than literals. */
export interface ThreeValuedContext extends EvalContext {
  readonly now: Date;
}

/**
 * The condition on a stored record as SQL reads it, with three values: null when a comparison
 * meets an empty value, so that `not` of it does not hold either. A partial index holds a row
 * when its predicate (literal-sql.ts) is true, and `WHERE` with the bound SQL selects it then
 * (bound-sql.ts). Without a context only literals and constants may be compared (an index
 * predicate's); anything else throws.
 */
export function holdsThreeValued(condition: CompiledCondition, record: RecordLike, context?: ThreeValuedContext): boolean | null {
  const leaf = (l: CompiledLeaf) => {
    // A path is a subquery that holds only when the reference is set: never unknown.
    if (l.subject.tail === null) return leafValue(l, record, context);
    return isPresent(record[l.subject.head]) && leafValue(l, record, context) === true;
  };
  return foldCondition<boolean | null>(condition, {
    all: and,
    any: or,
    not: (item) => (item === null ? null : !item),
    // A subquery: true or false, never unknown (the spec checks keep it out of index predicates).
    exists: (node) => record[existsKey(node)] === true,
    present: leaf,
    absent: leaf,
    in: leaf,
    notIn: leaf,
    compare: leaf,
  });
}

function leafValue(leaf: CompiledLeaf, record: RecordLike, context: ThreeValuedContext | undefined): boolean | null {
  const actual = record[leaf.subject.field];
  // A set is an EXISTS on its join table: true or false, never unknown (set-leaf.ts).
  const members = leaf.subject.tail === null ? setMembers(actual) : null;
  if (members !== null) return setLeafHolds(leaf, members, leaf.kind === 'compare' ? operandOf(leaf.operand, record, context) : undefined);
  const empty = actual === null || actual === undefined;
  switch (leaf.kind) {
    case 'present':
      return !empty;
    case 'absent':
      return empty;
    case 'in':
      return member(
        actual,
        leaf.values.map((v) => v.value),
      );
    case 'notIn': {
      const found = member(
        actual,
        leaf.values.map((v) => v.value),
      );
      return found === null ? null : !found;
    }
    case 'compare': {
      const value = operandOf(leaf.operand, record, context);
      // A user without a value for the field (or a visitor) matches nothing, not the records without one.
      if (leaf.operand.kind === 'actor' && (value === null || value === undefined)) return leaf.op === 'ne' && !empty;
      // `is distinct from`, as the SQL writers read `ne`.
      if (leaf.op === 'ne' && (empty || value === null || value === undefined)) return empty !== (value === null || value === undefined);
      const order = compareValues(actual, value);
      return order === null ? null : orderHolds(leaf.op, order);
    }
  }
}

/** `x in (...)`: true when found, else null when the value or a listed one is empty, else false. */
function member(actual: unknown, list: readonly Literal[]): boolean | null {
  if (list.length === 0) return false;
  if (actual === null || actual === undefined) return null;
  if (list.some((v) => compareValues(actual, v) === 0)) return true;
  return list.includes(null) ? null : false;
}

function operandOf(operand: CompiledOperand, record: RecordLike, context: ThreeValuedContext | undefined): unknown {
  if (operand.kind === 'literal') return operand.value;
  if (context) return operandValue(operand, record, context.now, context);
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
