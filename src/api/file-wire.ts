import type { Engine } from '@/engine/engine';
import type { FileMeta } from '@/engine/files/file-meta';
import type { RecordData } from '@/engine/ops/types';
import { fileFields } from '@/engine/spec/file-fields';
import type { EntityModel } from '@/engine/spec/model';
import { API_PREFIX } from './routes';

/** A file as JSON: what it is, and where to download it (with the same credentials). */
export interface WireFile {
  readonly id: number;
  readonly name: string;
  readonly size: number;
  readonly contentType: string;
  readonly url: string;
  readonly thumbnailUrl?: string;
}

export function fileToWire(meta: FileMeta): WireFile {
  const url = `${API_PREFIX}/files/${meta.id}`;
  return {
    id: meta.id,
    name: meta.name,
    size: meta.size,
    contentType: meta.contentType,
    url,
    ...(meta.hasThumbnail ? { thumbnailUrl: `${url}/thumbnail` } : {}),
  };
}

/**
 * What the files the records hold are (ids as ops returned them: only fields the caller may
 * read), for recordToWire to describe them. Every door that answers records asks this once per
 * answer, so a list of fifty records costs one query.
 */
export function describeRecordFiles(
  engine: Engine,
  entity: EntityModel,
  records: readonly RecordData[],
): Promise<ReadonlyMap<number, FileMeta>> {
  const ids = fileFields(entity).flatMap((field) =>
    records.flatMap((record) => (Array.isArray(record[field.name]) ? (record[field.name] as readonly number[]) : [])),
  );
  return engine.files.describe(ids);
}
