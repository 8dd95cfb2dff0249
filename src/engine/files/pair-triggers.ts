import { sql } from 'kysely';
import { modelFileFields } from '../spec/file-fields';
import type { AppModel } from '../spec/model';
import { quoteIdent } from '../store/schema/sql';
import type { DynamicDatabase } from '../store/types';
import { FILE_TABLE } from './file-tables';

/*
 * A file belongs to the one record that holds it: when its pair goes — the record deleted, by
 * ops or by a cascade from another record, or the file taken off the record — a trigger on the
 * field's join table deletes its nf_file row, and with it its bytes (nf_file_chunk cascades). In
 * the same transaction as the delete: what rolls back keeps its files.
 */
const FUNCTION = 'nf_file_pair_gone';
const TRIGGER = 'nf_file_pair_gone';

function fileJoinTables(model: AppModel): string[] {
  return modelFileFields(model).map(({ field }) => field.joinTable);
}

/** Changes with the set of file join tables, so that schema sync installs the triggers again. */
export function fileTriggersFingerprint(model: AppModel): string {
  return `files:${fileJoinTables(model).join(',')}`;
}

export async function installFileTriggers(trx: DynamicDatabase, model: AppModel): Promise<void> {
  const tables = fileJoinTables(model);
  if (tables.length === 0) return;
  await sql
    .raw(
      `create or replace function ${FUNCTION}() returns trigger language plpgsql as $$
begin
  delete from ${quoteIdent(FILE_TABLE)} where id = old.target_id;
  return null;
end $$`,
    )
    .execute(trx);
  for (const table of tables) {
    await sql.raw(`drop trigger if exists ${TRIGGER} on ${quoteIdent(table)}`).execute(trx);
    await sql
      .raw(`create trigger ${TRIGGER} after delete on ${quoteIdent(table)} for each row execute function ${FUNCTION}()`)
      .execute(trx);
  }
}
