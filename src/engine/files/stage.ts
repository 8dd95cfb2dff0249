import { createHash } from 'node:crypto';
import { NinefoldError } from '../errors/ninefold-error';
import type { Actor } from '../ground/actor';
import type { DynamicDatabase } from '../store/types';
import { accepts } from './file-limits';
import type { FileStore } from './file-store';
import { FILE_TABLE } from './file-tables';
import { SNIFF_BYTES, sniffContentType } from './sniff';
import { thumbnailTransform } from './thumbnail';
import type { FileMeta, ThumbnailSize } from './file-meta';
import { formatBytes } from './byte-size';

/** One file as a request brings it: its name as the client gave it, and its bytes as they arrive. */
export interface IncomingFile {
  readonly name: string;
  readonly source: AsyncIterable<Uint8Array>;
}

/** What a staged file may be: checked while its bytes stream in (size) and once they are in (type). */
export interface StageLimits {
  readonly maxBytes: number;
  readonly accept: readonly string[] | null;
  /** The field named by a refusal (a multipart write's file field); "file" for a plain upload. */
  readonly field: string;
}

/**
 * Receives one file into the store as a staged file of `actor`: the bytes pass through in
 * chunks (hashed and counted on the way, refused at maxBytes + 1), the type is read from the
 * first bytes and checked against `accept`, and an image gets its thumbnail, computed once here.
 * A refusal or a broken stream deletes the row and its bytes: nothing is left behind.
 */
export async function stageFile(
  db: DynamicDatabase,
  store: FileStore,
  actor: Actor,
  file: IncomingFile,
  limits: StageLimits,
): Promise<FileMeta> {
  const name = cleanFileName(file.name);
  const row = await db
    .insertInto(FILE_TABLE)
    .values({ name, state: 'uploading', uploaded_by: actor.userId > 0 ? actor.userId : null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  try {
    const measured = measure(file.source, limits);
    await store.write(id, 'original', measured.bytes);
    const { size, sha256, head } = measured.result();
    const contentType = await sniffContentType(head);
    if (!accepts(limits.accept, contentType)) throw refusedType(limits, name, contentType);
    const thumbnailSize = await writeThumbnail(store, id, contentType);
    await db
      .updateTable(FILE_TABLE)
      .set({
        size,
        sha256,
        content_type: contentType,
        has_thumbnail: thumbnailSize !== null,
        thumbnail_width: thumbnailSize?.width ?? null,
        thumbnail_height: thumbnailSize?.height ?? null,
        state: 'staged',
      })
      .where('id', '=', id)
      .execute();
    return { id, name, size, contentType, hasThumbnail: thumbnailSize !== null, thumbnailSize, sha256 };
  } catch (error) {
    await discardFiles(db, store, [id]);
    throw error;
  }
}

/** Deletes files and their bytes now (outside a record's transaction: staged files of a refused request). */
export async function discardFiles(db: DynamicDatabase, store: FileStore, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .deleteFrom(FILE_TABLE)
    .where('id', 'in', [...ids])
    .execute();
  await store.forget(ids);
}

/** The bytes of `source`, counted, hashed and their head kept for sniffing; too many is a refusal. */
function measure(source: AsyncIterable<Uint8Array>, limits: StageLimits) {
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let headBytes = 0;
  let size = 0;
  async function* bytes(): AsyncGenerator<Uint8Array> {
    for await (const piece of source) {
      size += piece.byteLength;
      if (size > limits.maxBytes) throw tooLarge(limits);
      hash.update(piece);
      if (headBytes < SNIFF_BYTES) {
        const take = Buffer.from(piece.subarray(0, SNIFF_BYTES - headBytes));
        head.push(take);
        headBytes += take.length;
      }
      yield piece;
    }
  }
  return { bytes: bytes(), result: () => ({ size, sha256: hash.digest('hex'), head: Buffer.concat(head) }) };
}

/**
 * An image's thumbnail, from the original as kept, and its size (sharp tells it once written);
 * an image sharp cannot read simply has none.
 */
async function writeThumbnail(store: FileStore, id: number, contentType: string): Promise<ThumbnailSize | null> {
  const transform = thumbnailTransform(contentType);
  if (!transform) return null;
  let size: ThumbnailSize | null = null;
  transform.once('info', (info: { width: number; height: number }) => {
    size = { width: info.width, height: info.height };
  });
  try {
    await store.write(id, 'thumbnail', store.read(id, 'original').pipe(transform));
    return size;
  } catch {
    return null;
  }
}

export function tooLarge(limits: Pick<StageLimits, 'maxBytes' | 'field'>): NinefoldError {
  const message = `A file can be at most ${formatBytes(limits.maxBytes)}.`;
  return new NinefoldError('PAYLOAD_TOO_LARGE', message, { fieldErrors: [{ field: limits.field, code: 'too_big', message }] });
}

function refusedType(limits: StageLimits, name: string, contentType: string): NinefoldError {
  const message = `${name} is ${contentType}; accepted: ${(limits.accept ?? []).join(', ')}.`;
  return new NinefoldError('VALIDATION_FAILED', message, { fieldErrors: [{ field: limits.field, code: 'invalid_type', message }] });
}

/** A name as people see it: no folders, no control characters, at most 200 characters; "file" when nothing is left. */
export function cleanFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim()
    .slice(0, 200);
  return clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
}
