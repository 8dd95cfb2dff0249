import type { Readable } from 'node:stream';
import type { FilePart } from './file-tables';

/** Bytes `start` to `end`, both included (an HTTP Range, resolved against the size). */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Where the bytes of files live; their metadata is always in nf_file. Both built-ins stream: a
 * file passes through in chunks, never whole in memory. PostgreSQL (the default, on PGlite too)
 * keeps them in the database, so one backup holds everything and every process of a fleet sees
 * the same files; a directory on disk (NINEFOLD_FILES_DIR) is the other.
 */
export interface FileStore {
  readonly kind: 'postgres' | 'disk';
  /** Keeps a part's bytes as they come; resolves once all are kept. */
  write(fileId: number, part: FilePart, source: AsyncIterable<Uint8Array>): Promise<void>;
  /** The part's bytes (only `range` when given), read as they are consumed. */
  read(fileId: number, part: FilePart, range?: ByteRange): Readable;
  /**
   * Told after the transaction that deleted these files' rows committed. PostgreSQL has nothing
   * left to do (the chunks went with the rows, in that transaction); the disk store deletes them.
   */
  forget(fileIds: readonly number[]): Promise<void>;
  /**
   * Deletes bytes whose file is gone (`known` tells which ids still have their nf_file row) and
   * says how many files it deleted: a record deleted in a transaction (the pair trigger deletes
   * its files' rows) cannot delete files on disk, nor can a process that died before `forget`.
   * PostgreSQL has none: its chunks go with their rows.
   */
  sweepOrphans(known: (fileIds: readonly number[]) => Promise<ReadonlySet<number>>): Promise<number>;
}
