import type { CompiledLeaf, CompiledOperand } from './types';

/**
 * How a SQL writer writes the pieces of a leaf: bound (Kysely's `sql`, values as parameters)
 * or literal (a string with values written in, for an index predicate, which takes none).
 */
export interface SqlPieces<T> {
  raw(text: string): T;
  operand(operand: CompiledOperand): T;
  /** The pieces one after the other, as they are (spaces are raw pieces too). */
  seq(...pieces: readonly T[]): T;
  /** Whether an `{ actor }` operand has no value for the current user (a visitor, a user without it). */
  actorMissing(name: string): boolean;
  /** `ne` as `is distinct from` (what the spec means), or as `<>` (the due indexes' predicates, kept as they were made). */
  readonly ne: 'is distinct from' | '<>';
}

const OPERATORS = { eq: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

/** One leaf on a column, the same for both writers: what keeps bound SQL and index predicates agreeing. */
export function writeLeaf<T>(leaf: CompiledLeaf, column: T, p: SqlPieces<T>): T {
  switch (leaf.kind) {
    case 'present':
      return p.seq(column, p.raw(' is not null'));
    case 'absent':
      return p.seq(column, p.raw(' is null'));
    case 'in':
    case 'notIn': {
      if (leaf.values.length === 0) return p.raw(leaf.kind === 'in' ? 'false' : 'true');
      const list = leaf.values.map((v) => p.operand(v));
      // Not empty (returned above): reduce starts from the first item.
      const joined = list.reduce((all, item) => p.seq(all, p.raw(', '), item));
      return p.seq(column, p.raw(leaf.kind === 'in' ? ' in (' : ' not in ('), joined, p.raw(')'));
    }
    case 'compare': {
      // A user without a value for the field (or a visitor) matches nothing, not the records without one.
      if (leaf.operand.kind === 'actor' && p.actorMissing(leaf.operand.name))
        return leaf.op === 'ne' ? p.seq(column, p.raw(' is not null')) : p.raw('false');
      const operand = p.operand(leaf.operand);
      return p.seq(column, p.raw(` ${leaf.op === 'ne' ? p.ne : OPERATORS[leaf.op]} `), operand);
    }
  }
}
