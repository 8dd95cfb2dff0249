import type { DynamicDatabase } from '../store/types';
import type { FileStore } from './file-store';
import { FILE_TABLE } from './file-tables';

/** How long an upload waits to be attached before the scheduler deletes it: a day. */
export const STAGED_FILE_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes uploads never attached, and uploads a crash left half-received, created before
 * `olderThan`: their rows and bytes. Attached files go with their records (pair-triggers.ts).
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
  return ids.length;
}
