import sharp, { type Sharp } from 'sharp';
import { isInlineImage, THUMBNAIL_PIXELS } from './file-limits';
/** Images larger than this many pixels are not decoded for a thumbnail (a decompression bomb). */
const MAX_INPUT_PIXELS = 50_000_000;

/**
 * A thumbnail transform for an image file (WebP, at most THUMBNAIL_PIXELS a side), or null for a
 * type that has none. sharp reads the original as a stream; only the small result is kept.
 */
export function thumbnailTransform(contentType: string): Sharp | null {
  if (!isInlineImage(contentType)) return null;
  return sharp({ limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
    .rotate()
    .resize(THUMBNAIL_PIXELS, THUMBNAIL_PIXELS, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 75 });
}
