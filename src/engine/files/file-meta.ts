/** A file as the engine knows it (nf_file), for the doors to describe and serve. */
export interface FileMeta {
  readonly id: number;
  readonly name: string;
  readonly size: number;
  /** Read from the content when it was uploaded. */
  readonly contentType: string;
  readonly hasThumbnail: boolean;
  /** The thumbnail's size in pixels (known when it was made), for pages to reserve its place. */
  readonly thumbnailSize: ThumbnailSize | null;
  /** Hex: the download's ETag. */
  readonly sha256: string;
}

export interface ThumbnailSize {
  readonly width: number;
  readonly height: number;
}

/** A row of nf_file as FileMeta. */
export function fileMetaOf(row: Record<string, unknown>): FileMeta {
  return {
    id: Number(row.id),
    name: String(row.name),
    size: Number(row.size),
    contentType: String(row.content_type),
    hasThumbnail: row.has_thumbnail === true,
    thumbnailSize:
      row.has_thumbnail === true && row.thumbnail_width != null && row.thumbnail_height != null
        ? { width: Number(row.thumbnail_width), height: Number(row.thumbnail_height) }
        : null,
    sha256: String(row.sha256 ?? ''),
  };
}
