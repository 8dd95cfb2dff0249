/** A file as the engine knows it (nf_file), for the doors to describe and serve. */
export interface FileMeta {
  readonly id: number;
  readonly name: string;
  readonly size: number;
  /** Read from the content when it was uploaded. */
  readonly contentType: string;
  readonly hasThumbnail: boolean;
  /** Hex: the download's ETag. */
  readonly sha256: string;
}

/** A row of nf_file as FileMeta. */
export function fileMetaOf(row: Record<string, unknown>): FileMeta {
  return {
    id: Number(row.id),
    name: String(row.name),
    size: Number(row.size),
    contentType: String(row.content_type),
    hasThumbnail: row.has_thumbnail === true,
    sha256: String(row.sha256 ?? ''),
  };
}
