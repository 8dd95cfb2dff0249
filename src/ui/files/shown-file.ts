/**
 * A file as a page shows it: serialisable, built on the server from the engine's descriptors
 * (src/server/shown-files.ts) for the files ops handed over, so a field the viewer may not read
 * has none here.
 */
export interface ShownFile {
  readonly id: number;
  readonly name: string;
  /** Human: "12 kB". */
  readonly sizeText: string;
  /** The download (the API door, with the viewer's session). */
  readonly url: string;
  /** A raster image's thumbnail, with its size so that the page keeps its place while it loads. */
  readonly thumbnail?: { readonly url: string; readonly width: number; readonly height: number };
}

/** The files of the records on a page, by id. */
export type ShownFiles = Readonly<Record<number, ShownFile>>;
