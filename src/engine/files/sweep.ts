import type { DynamicDatabase } from '../store/types';
import type { FileStore } from './file-store';
import { FILE_TABLE } from './file-tables';

/** How long an upload waits to be attached before the scheduler deletes it: a day. */
export const STAGED_FILE_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes uploads never attached, and uploads a crash left half-received, created before
 * `olderThan`: their rows and bytes. Attached files go with their records (pair-triggers.ts);
 * on disk, the bytes of files whose rows are gone are deleted here.
 */
export async function sweepFiles(db: DynamicDatabase, store: FileStore, olderThan: Date): Promise<number> {
  const gone = await db
    .deleteFrom(FILE_TABLE)
    .where('state', 'in', ['uploading', 'staged'])
    .where('created_at', '<', olderThan)
    .returning('id')
    .execute();
  const ids = gone.map((r) => Number(r.id));
  await store.forget(ids);
  // Bytes on disk whose row went with a record (the pair trigger) or whose forget a crash missed.
  const orphans = await store.sweepOrphans(async (fileIds) => {
    const rows = await db
      .selectFrom(FILE_TABLE)
      .select('id')
      .where('id', 'in', [...fileIds])
      .execute();
    return new Set(rows.map((r) => Number(r.id)));
  });
  return ids.length + orphans;
}
