import type { Readable } from 'node:stream';
import { notFound } from '../errors/ninefold-error';
import type { Actor } from '../ground/actor';
import type { Ops } from '../ops/ops';
import { modelFileFields } from '../spec/file-fields';
import type { AppModel } from '../spec/model';
import type { DynamicDatabase } from '../store/types';
import { DEFAULT_MAX_FILE_BYTES } from './file-limits';
import { fileMetaOf, type FileMeta } from './file-meta';
import type { ByteRange, FileStore } from './file-store';
import { FILE_TABLE, type FilePart } from './file-tables';
import { discardFiles, stageFile, type IncomingFile, type StageLimits } from './stage';
import { sweepFiles } from './sweep';

/** A file the actor may download: what it is, and its bytes (or a range of them) as a stream. */
export interface OpenedFile {
  readonly meta: FileMeta;
  /** The size of the part asked for (a thumbnail's own). */
  readonly size: number;
  /** The content type of the part (a thumbnail is WebP). */
  readonly contentType: string;
  read(range?: ByteRange): Readable;
}

/**
 * Files as the doors use them: staged by an upload, read back only through the access of the
 * record that holds them (ops.get: its read scope and the field's read rule). Attaching and
 * detaching happen in ops, with the record's write.
 */
export interface Files {
  readonly storeKind: FileStore['kind'];
  /** What an upload not yet bound to a field may be: the largest any file field allows, of any type. */
  uploadLimits(): StageLimits;
  /** Receives one file as a staged upload of the actor (refusals delete what was received). */
  stage(actor: Actor, file: IncomingFile, limits: StageLimits): Promise<FileMeta>;
  /** Deletes uploads of the actor still staged (a multipart write that was refused). */
  discard(actor: Actor, ids: readonly number[]): Promise<void>;
  /** What the files of records (ids as ops returned them) are, to describe them on the wire. */
  describe(ids: readonly number[]): Promise<ReadonlyMap<number, FileMeta>>;
  /** A file the actor may read, else NOT_FOUND (as for a record it may not see). */
  open(actor: Actor, id: number, part: FilePart): Promise<OpenedFile>;
  /** Deletes uploads never attached (older than `olderThan`), for the scheduler. */
  sweep(olderThan: Date): Promise<number>;
}

export function createFiles(model: AppModel, db: DynamicDatabase, store: FileStore, ops: Ops): Files {
  const largest = Math.max(0, ...modelFileFields(model).map(({ field }) => field.files.maxBytes)) || DEFAULT_MAX_FILE_BYTES;
  return {
    storeKind: store.kind,
    uploadLimits: () => ({ maxBytes: largest, accept: null, field: 'file' }),
    stage: (actor, file, limits) => stageFile(db, store, actor, file, limits),
    async discard(actor, ids) {
      if (ids.length === 0) return;
      const mine = await db
        .selectFrom(FILE_TABLE)
        .select('id')
        .where('id', 'in', [...ids])
        .where('state', '=', 'staged')
        .where('uploaded_by', '=', actor.userId)
        .execute();
      await discardFiles(
        db,
        store,
        mine.map((r) => Number(r.id)),
      );
    },
    async describe(ids) {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom(FILE_TABLE)
        .selectAll()
        .where('id', 'in', [...new Set(ids)])
        .execute();
      return new Map(rows.map((row) => [Number(row.id), fileMetaOf(row)]));
    },
    async open(actor, id, part) {
      const row =
        Number.isSafeInteger(id) && id > 0
          ? await db.selectFrom(FILE_TABLE).selectAll().where('id', '=', id).executeTakeFirst()
          : undefined;
      if (!row || !(await mayRead(ops, actor, row))) throw notFound('file');
      const meta = fileMetaOf(row);
      if (part === 'thumbnail' && !meta.hasThumbnail) throw notFound('thumbnail');
      const size = part === 'original' ? meta.size : await partSize(store, id);
      return {
        meta,
        size,
        contentType: part === 'original' ? meta.contentType : 'image/webp',
        read: (range) => store.read(id, part, range),
      };
    },
    sweep: (olderThan) => sweepFiles(db, store, olderThan),
  };
}

/**
 * A staged file is its uploader's alone; an attached one is readable by whoever may read its
 * record (ops.get: the read scope) and sees its field there holding it (the field's read rule).
 */
async function mayRead(ops: Ops, actor: Actor, row: Record<string, unknown>): Promise<boolean> {
  if (row.state !== 'attached') return row.state === 'staged' && actor.userId > 0 && Number(row.uploaded_by) === actor.userId;
  try {
    const view = await ops.get(actor, String(row.entity), Number(row.record_id));
    const value = view.record[String(row.field)];
    return Array.isArray(value) && value.includes(Number(row.id));
  } catch {
    return false;
  }
}

/** A thumbnail's size, counted as it is read: thumbnails are small (at most a few tens of kB). */
async function partSize(store: FileStore, id: number): Promise<number> {
  let size = 0;
  for await (const chunk of store.read(id, 'thumbnail')) size += (chunk as Buffer).length;
  return size;
}
