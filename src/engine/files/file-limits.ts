/*
 * The engine's own bounds for file fields, where the spec sets none (its maxBytes and maxItems
 * may lower or raise them within these caps), and what an `accept` entry may look like.
 */

/** One file's size when the spec says nothing: 25 MB. */
export const DEFAULT_MAX_FILE_BYTES = 25_000_000;
/** The largest a spec may allow for one file: 2 GB (a Range-served video, not a database dump). */
export const MAX_FILE_BYTES = 2_000_000_000;
/** How many files a `files` field holds when the spec says nothing. */
export const DEFAULT_MAX_FILES = 20;
/** The most a `files` field may hold. */
export const MAX_FILES = 100;

/** "image/png", "application/vnd.ms-excel", or a family "image/*" (never a bare "*"). */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/(?:\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126})$/;

export function isAcceptEntry(value: string): boolean {
  return MEDIA_TYPE.test(value);
}

/** Whether a content type (as read from the bytes) is one of `accept`'s; no `accept` takes any. */
export function accepts(accept: readonly string[] | null, contentType: string): boolean {
  if (!accept) return true;
  return accept.some((entry) => (entry.endsWith('/*') ? contentType.startsWith(entry.slice(0, -1)) : entry === contentType));
}

/** Images a browser may show in place: raster formats only, never SVG (scripts) or HTML. */
const INLINE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export function isInlineImage(contentType: string): boolean {
  return INLINE_IMAGES.has(contentType);
}

/** A thumbnail's longest side, in pixels (sharp resizes to it; /spec says it). */
export const THUMBNAIL_PIXELS = 320;
