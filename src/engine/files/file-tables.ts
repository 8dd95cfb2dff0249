/*
 * The engine's own tables for files. nf_file holds one row per uploaded file (its metadata, who
 * uploaded it, and once attached the record and field holding it); a file field's join table
 * pairs records with these rows. nf_file_chunk holds the bytes when the PostgreSQL store keeps
 * them (the default): chunks of CHUNK_BYTES, deleted with their nf_file row by the foreign key, so
 * the transaction that deletes a file's row deletes its bytes too.
 */

export const FILE_TABLE = 'nf_file';
export const FILE_CHUNK_TABLE = 'nf_file_chunk';

/** What the bytes of a chunk row are: the file itself, or its thumbnail. */
export type FilePart = 'original' | 'thumbnail';

/**
 * A file's life: being received (its bytes still streaming in), staged (its uploader may attach
 * it to one record), attached. Rows left uploading or staged are swept by the scheduler.
 */
export type FileState = 'uploading' | 'staged' | 'attached';

/**
 * 64 KB: never more than a chunk held in memory at once, and small enough that each chunk's
 * strings on their way through the driver stay in V8's young generation (collected at once),
 * where 256 KB ones went to its large-object space and piled up until a full collection.
 */
export const CHUNK_BYTES = 64 * 1024;
