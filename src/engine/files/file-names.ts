import type { DynamicDatabase } from '../store/types';
import { FILE_TABLE } from './file-tables';

/** The names of files, by id (one query; none for no ids): what a history entry keeps of them. */
export async function fileNamesOf(db: DynamicDatabase, ids: readonly number[]): Promise<Record<number, string>> {
  if (ids.length === 0) return {};
  const rows = await db
    .selectFrom(FILE_TABLE)
    .select(['id', 'name'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return Object.fromEntries(rows.map((row) => [Number(row.id), String(row.name)]));
}
