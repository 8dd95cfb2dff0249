import type { EntityModel } from '../spec/model';
import { quoteIdent, quoteLiteral } from '../store/schema/sql';
import { foldCondition } from './fold';
import { writeLeaf, type SqlPieces } from './leaf-sql';
import type { CompiledCondition, CompiledLeaf, Literal } from './types';

/** Raised inside the literal writer when a condition holds what an index predicate cannot. */
class NotLiteral extends Error {}

/**
 * A condition as SQL with its values written in, for a partial index's predicate (an index takes
 * no parameters). Constants are their values, so that a changed constant is a changed predicate
 * (and index). Comparisons mean what the bound SQL makes them mean (`ne` is `is distinct from`),
 * so that the index holds exactly the records the spec's condition selects. The spec checks
 * (validate/unique-when.ts) allow only fields, the state and literal operands; anything else
 * here is a programming error and throws.
 */
export function literalPredicateSql(entity: EntityModel, condition: CompiledCondition): string {
  return literalSql(condition, (name) => quoteIdent(predicateColumn(entity, name)), { ne: 'is distinct from', strict: true });
}

/**
 * The predicate of a due field's open-work indexes, as they have always been written (`ne` as
 * `<>`, constants refused, system columns allowed): null when the condition compares with
 * anything but literals (the time now, a constant, another field), which no index can hold.
 */
export function duePredicateSql(entity: EntityModel, condition: CompiledCondition): string | null {
  const column = (name: string) => {
    const found = entity.workflow && name === entity.workflow.field ? entity.workflow.column : dueColumn(entity, name);
    if (!found) throw new NotLiteral(name);
    return quoteIdent(found);
  };
  try {
    return literalSql(condition, column, { ne: '<>', strict: false });
  } catch (error) {
    if (error instanceof NotLiteral) return null;
    throw error;
  }
}

function dueColumn(entity: EntityModel, name: string): string | undefined {
  return entity.fieldsByName[name]?.column ?? entity.systemColumns.find((c) => c.name === name)?.column;
}

interface LiteralOptions {
  readonly ne: SqlPieces<string>['ne'];
  /**
   * True: constants and null are written in, and anything else throws (a programming error).
   * False: only plain literals are, anything else makes the predicate unwritable (NotLiteral).
   */
  readonly strict: boolean;
}

function literalSql(condition: CompiledCondition, column: (name: string) => string, options: LiteralOptions): string {
  const pieces: SqlPieces<string> = {
    raw: (text) => text,
    operand(operand) {
      if (options.strict) {
        if (operand.kind === 'literal') return sqlLiteral(operand.value);
        throw new Error(`an index predicate compares with literal values and constants only, got ${JSON.stringify(operand)}`);
      }
      const plain = operand.kind === 'literal' && operand.constant === undefined && operand.value !== null;
      if (!plain || (typeof operand.value === 'number' && !Number.isFinite(operand.value))) throw new NotLiteral(operand.kind);
      return sqlLiteral(operand.value);
    },
    seq: (...parts) => parts.join(''),
    actorMissing: () => false,
    ne: options.ne,
  };
  const leaf = (l: CompiledLeaf) => writeLeaf(l, column(l.subject.field), pieces);
  return foldCondition<string>(condition, {
    all: (items) => group(items, ' and ', 'true'),
    any: (items) => group(items, ' or ', 'false'),
    not: (item) => `not (${item})`,
    exists: () => {
      // Refused at load wherever a condition is kept as a literal predicate (validate/unique-when.ts).
      throw new Error('a literal predicate cannot ask whether other records exist');
    },
    present: leaf,
    absent: leaf,
    in: leaf,
    notIn: leaf,
    compare: leaf,
  });
}

function group(parts: readonly string[], joiner: string, empty: string): string {
  return parts.length === 0 ? empty : `(${parts.join(joiner)})`;
}

/** The column of a field or of the workflow state: the only things an index predicate may read. */
export function predicateColumn(entity: EntityModel, name: string): string {
  if (entity.workflow && name === entity.workflow.field) return entity.workflow.column;
  const field = entity.fieldsByName[name];
  if (!field || field.joinTable !== undefined) throw new Error(`${entity.name}: "${name}" cannot be part of an index predicate`);
  return field.column;
}

/**
 * Written in, quoted: strings as escaped literals (Postgres coerces an untyped literal to the
 * column's type, so '2025-01-31' compares as a date), numbers and booleans bare.
 */
function sqlLiteral(value: Literal): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`an index predicate cannot hold ${value}`);
    return String(value);
  }
  return quoteLiteral(value);
}
