import { openStore } from '../store/open-store';
import { readRecordedMeta } from '../store/schema/introspect';
import type { SchemaMeta } from '../store/schema/types';
import type { DatabaseKind, StoreOptions } from '../store/types';
import { exportBackup, type ExportOptions } from './export';

/** A database opened to be copied out as a backup: as it is, without a schema sync or an engine. */
export interface BackupSource {
  readonly kind: DatabaseKind;
  /** What nf_meta recorded at the last sync; null for a database without a Ninefold schema. */
  readonly meta: SchemaMeta | null;
  /** Every row as lines of JSON (./export.ts). */
  lines(options?: Omit<ExportOptions, 'kind'>): AsyncGenerator<string>;
  close(): Promise<void>;
}

/**
 * Opens the database for `export`. No schema sync: a backup copies the database as it is, also
 * before a migration it may need.
 */
export async function openBackupSource(options: StoreOptions): Promise<BackupSource> {
  const store = await openStore(options);
  try {
    const meta = await readRecordedMeta(store.db);
    return {
      kind: store.kind,
      meta,
      lines: (exportOptions = {}) => exportBackup(store.db, { ...exportOptions, kind: store.kind }),
      close: () => store.close(),
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
