import { createHash } from 'node:crypto';
import { quoteIdent, quoteLiteral } from './sql';

/*
 * Enum values sort in the order the spec declares them (low < normal < high < urgent), not
 * alphabetically: lists order by a value's position, and schema sync gives every enum column an
 * index on (position, id) so that keyset pages stay index range scans. The expression is written
 * here only, because Postgres uses an expression index only for the very same expression.
 */

/**
 * The position of the column's value among `values` (1, 2, ...); a value the spec no longer
 * declares comes after them all; empty stays empty (null), so it can sort last either way.
 */
export function enumOrderSql(column: string, values: readonly string[]): string {
  const col = quoteIdent(column);
  const whens = values.map((value, i) => `when ${col} = ${quoteLiteral(value)} then ${i + 1}`).join(' ');
  return `case when ${col} is null then null ${whens} else ${values.length + 1} end`;
}

/** What enumOrderSql yields for a value, for comparing with a cursor's value. */
export function enumPosition(values: readonly string[], value: string): number {
  const at = values.indexOf(value);
  return at === -1 ? values.length + 1 : at + 1;
}

/**
 * A short fingerprint of the declared values, part of the index's name: when the values change,
 * the name changes, and schema sync replaces the index (an index holds no data of its own).
 */
export function enumOrderTag(values: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(values)).digest('hex').slice(0, 8);
}
