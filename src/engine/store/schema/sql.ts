import { createHash } from 'node:crypto';

/** Postgres truncates identifiers to 63 bytes; longer names get a hash so they stay unique. */
const MAX_IDENTIFIER_LENGTH = 63;

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function quoteLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

export function identList(names: readonly string[]): string {
  return names.map(quoteIdent).join(', ');
}

/** `ticket_organization_id_idx`: the table, the columns and a suffix, as Postgres names them. */
export function objectName(table: string, columns: readonly string[], suffix: string): string {
  const name = [table, ...columns, suffix].join('_');
  if (Buffer.byteLength(name) <= MAX_IDENTIFIER_LENGTH) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  const keep = MAX_IDENTIFIER_LENGTH - hash.length - suffix.length - 2;
  return `${name.slice(0, keep)}_${hash}_${suffix}`;
}

/** "due_at" → "dueAt": the field a column held, for messages about columns the spec has lost. */
export function fieldNameOf(column: string): string {
  return column.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}
