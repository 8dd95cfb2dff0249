import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Faker } from '@faker-js/faker';
import sharp from 'sharp';
import { accepts } from '../files/file-limits';
import type { FileStore } from '../files/file-store';
import { FILE_TABLE } from '../files/file-tables';
import { thumbnailTransform } from '../files/thumbnail';
import { JOIN_RECORD, JOIN_TARGET } from '../spec/join-fields';
import { fileFields } from '../spec/file-fields';
import type { EntityModel } from '../spec/model';
import type { DynamicDatabase } from '../store/types';

/** One kind of demo file: its bytes, type and thumbnail, made once per run and written for every record that gets one. */
interface DemoFile {
  readonly extension: string;
  readonly contentType: string;
  readonly bytes: Buffer;
  readonly sha256: string;
  readonly thumbnail: { readonly bytes: Buffer; readonly width: number; readonly height: number } | null;
}

/** About one record in three gets a file in each of its file fields... */
const SHARE_WITH_FILES = 0.3;
/** ...up to this many per field and run: a seed of 100,000 records stays fast (a few statements per file). */
const MAX_FILES_PER_FIELD = 300;

const TEXT = Buffer.from('Steps to reproduce:\n1. Open the page\n2. Press the button\nExpected: it works.\n');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

async function demoFile(extension: string, contentType: string, bytes: Buffer): Promise<DemoFile> {
  const transform = thumbnailTransform(contentType);
  const thumbnail = transform ? await Readable.from([bytes]).pipe(transform).toBuffer({ resolveWithObject: true }) : null;
  return {
    extension,
    contentType,
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    thumbnail: thumbnail ? { bytes: thumbnail.data, width: thumbnail.info.width, height: thumbnail.info.height } : null,
  };
}

/** The run's demo files (a small PNG, a short text, a minimal PDF), made on first use. */
export function demoFileKinds(): () => Promise<readonly DemoFile[]> {
  let made: Promise<readonly DemoFile[]> | null = null;
  return () =>
    (made ??= (async () => {
      const png = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#5b7fd6' } })
        .png()
        .toBuffer();
      return Promise.all([demoFile('png', 'image/png', png), demoFile('txt', 'text/plain', TEXT), demoFile('pdf', 'application/pdf', PDF)]);
    })());
}

/**
 * Gives some of the records just inserted a small file in each file field (of a type the field
 * accepts; none where it takes none of them), attached as ops would leave it: an nf_file row
 * naming the record and field, uploaded by the record's author, its bytes (and an image's
 * thumbnail) in the store, and the pair in the field's join table.
 */
export async function seedDemoFiles(
  trx: DynamicDatabase,
  store: FileStore,
  faker: Faker,
  kinds: () => Promise<readonly DemoFile[]>,
  entity: EntityModel,
  records: readonly { readonly id: number; readonly author: unknown }[],
  seededSoFar: Map<string, number>,
): Promise<Map<number, SeededFile[]>> {
  const byRecord = new Map<number, SeededFile[]>();
  for (const field of fileFields(entity)) {
    const key = `${entity.name}.${field.name}`;
    const room = MAX_FILES_PER_FIELD - (seededSoFar.get(key) ?? 0);
    const fitting = (await kinds()).filter(
      (kind) => accepts(field.files.accept, kind.contentType) && kind.bytes.length <= field.files.maxBytes,
    );
    if (fitting.length === 0 || room <= 0) continue;
    const chosen = records.filter(() => faker.number.float() < SHARE_WITH_FILES).slice(0, room);
    if (chosen.length === 0) continue;
    seededSoFar.set(key, (seededSoFar.get(key) ?? 0) + chosen.length);
    const files = chosen.map((record) => {
      const kind = faker.helpers.arrayElement(fitting);
      const stem = faker.helpers.arrayElement(kind.thumbnail ? ['screenshot', 'photo', 'scan'] : ['notes', 'log', 'report']);
      return { record, kind, name: `${stem}-${record.id}.${kind.extension}` };
    });
    const inserted = await trx
      .insertInto(FILE_TABLE)
      .values(
        files.map(({ record, kind, name }) => ({
          name,
          size: kind.bytes.length,
          content_type: kind.contentType,
          sha256: kind.sha256,
          has_thumbnail: kind.thumbnail !== null,
          thumbnail_width: kind.thumbnail?.width ?? null,
          thumbnail_height: kind.thumbnail?.height ?? null,
          state: 'attached',
          uploaded_by: typeof record.author === 'number' ? record.author : null,
          entity: entity.name,
          field: field.name,
          record_id: record.id,
        })),
      )
      .returning('id')
      .execute();
    const ids = inserted.map((row) => Number(row.id));
    for (const [i, { kind }] of files.entries()) {
      const id = ids[i]!;
      await store.write(id, 'original', Readable.from([kind.bytes]));
      if (kind.thumbnail) await store.write(id, 'thumbnail', Readable.from([kind.thumbnail.bytes]));
    }
    await trx
      .insertInto(field.joinTable)
      .values(files.map(({ record }, i) => ({ [JOIN_RECORD]: record.id, [JOIN_TARGET]: ids[i] })))
      .execute();
    files.forEach(({ record, name }, i) =>
      byRecord.set(record.id, [...(byRecord.get(record.id) ?? []), { field: field.name, id: ids[i]!, name }]),
    );
  }
  return byRecord;
}

/** A file the seeder attached: its field, id and name (the record's history names it). */
export interface SeededFile {
  readonly field: string;
  readonly id: number;
  readonly name: string;
}

/**
 * A record's creation as ops would have written it with its files: attached from the start
 * (`fields`), named (`fileNames`, history.ts), so that its history ends with what it holds.
 */
export function createdWithFiles(changes: string, files: readonly SeededFile[]): string {
  const stored = JSON.parse(changes) as { fields: Record<string, unknown>; fileNames?: Record<string, string> };
  for (const file of files) {
    const [, held] = (stored.fields[file.field] as [unknown, number[]] | undefined) ?? [null, []];
    stored.fields[file.field] = [null, [...held, file.id]];
  }
  stored.fileNames = { ...stored.fileNames, ...Object.fromEntries(files.map((f) => [f.id, f.name])) };
  return JSON.stringify(stored);
}
