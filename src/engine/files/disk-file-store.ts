import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileStore } from './file-store';
import type { FilePart } from './file-tables';

/**
 * Bytes as files in a directory (NINEFOLD_FILES_DIR): `<id>` and `<id>.thumbnail`. A part is
 * written under a temporary name and renamed once whole, so a reader never sees half a file.
 * Deleting a file's row cannot take a file on disk with it in the same transaction: `forget`
 * deletes them once it committed, and the scheduler's sweep removes what a crash left.
 */
export function diskFileStore(directory: string): FileStore {
  const pathOf = (fileId: number, part: FilePart) => join(directory, part === 'original' ? String(fileId) : `${fileId}.thumbnail`);
  return {
    kind: 'disk',
    async write(fileId, part, source) {
      await mkdir(directory, { recursive: true });
      const target = pathOf(fileId, part);
      const partial = `${target}.partial`;
      try {
        await pipeline(Readable.from(source), createWriteStream(partial));
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    read(fileId, part, range) {
      return createReadStream(pathOf(fileId, part), range ? { start: range.start, end: range.end } : {});
    },
    async forget(fileIds) {
      for (const id of fileIds) {
        await rm(pathOf(id, 'original'), { force: true });
        await rm(pathOf(id, 'thumbnail'), { force: true });
      }
    },
  };
}
