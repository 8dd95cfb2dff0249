import { fileTypeFromBuffer } from 'file-type';

/** The bytes read for sniffing: what file-type needs to tell every format it knows. */
export const SNIFF_BYTES = 4100;

/**
 * A file's content type from its first bytes, never from its name or the client's header: a
 * format file-type recognises, else plain UTF-8 text (no NUL) as text/plain, else
 * application/octet-stream. HTML and SVG are text to file-type, so they never come out as a
 * type a browser would render.
 */
export async function sniffContentType(head: Uint8Array): Promise<string> {
  const known = await fileTypeFromBuffer(head);
  if (known) return known.mime;
  if (head.length > 0 && isUtf8Text(head)) return 'text/plain';
  return 'application/octet-stream';
}

function isUtf8Text(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    // stream: a character cut by the end of the sniffed bytes is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}
