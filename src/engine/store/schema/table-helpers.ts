import { objectName } from './sql';
import type { ColumnDef, ForeignKeyAction, ForeignKeyDef, IndexDef, TableDef, UniqueDef } from './types';

/* The pieces every table description is made of (desired.ts, notify-tables.ts). */

/**
 * Millisecond precision, the precision of a JavaScript Date: a keyset cursor that carries a
 * time must compare equal to the stored value, or rows would repeat or be skipped across pages.
 */
export const TIMESTAMPTZ = 'timestamp(3) with time zone';
export const NOW = 'now()';

export function table(
  name: string,
  columns: readonly ColumnDef[],
  extra: { entity?: string; uniques?: UniqueDef[]; foreignKeys?: ForeignKeyDef[]; indexes?: IndexDef[]; primaryKey?: string[] } = {},
): TableDef {
  return {
    name,
    ...(extra.entity ? { entity: extra.entity } : {}),
    columns,
    primaryKey: extra.primaryKey ?? ['id'],
    uniques: extra.uniques ?? [],
    foreignKeys: extra.foreignKeys ?? [],
    indexes: extra.indexes ?? [],
  };
}

export function foreignKey(tableName: string, column: string, references: string, onDelete: ForeignKeyAction): ForeignKeyDef {
  return {
    name: objectName(tableName, [column], 'fkey'),
    columns: [column],
    references: { table: references, columns: ['id'] },
    onDelete,
  };
}

export function index(tableName: string, columns: readonly string[], method: IndexDef['method'] = 'btree'): IndexDef {
  return { name: objectName(tableName, columns.length === 1 ? columns : columns.slice(0, -1), 'idx'), columns, method };
}

export const ID: ColumnDef = { name: 'id', type: 'bigint', nullable: false, identity: true };
