import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileStore } from './file-store';
import type { FilePart } from './file-tables';

/** Ids looked up per query by the sweep. */
const SWEEP_PAGE = 1000;

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
    async sweepOrphans(known) {
      const names = await readdir(directory).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      });
      // `<id>`, `<id>.thumbnail`, and either `.partial` (a write a crash cut short).
      const byId = new Map<number, string[]>();
      for (const name of names) {
        const match = /^(\d+)(?:\.thumbnail)?(?:\.partial)?$/.exec(name);
        if (match) byId.set(Number(match[1]), [...(byId.get(Number(match[1])) ?? []), name]);
      }
      const ids = [...byId.keys()];
      let gone = 0;
      // A page of ids at a time: one query each, whatever the size of the directory.
      for (let start = 0; start < ids.length; start += SWEEP_PAGE) {
        const page = ids.slice(start, start + SWEEP_PAGE);
        const present = await known(page);
        for (const id of page.filter((id) => !present.has(id))) {
          for (const name of byId.get(id) ?? []) await rm(join(directory, name), { force: true });
          gone += 1;
        }
      }
      return gone;
    },
  };
}
