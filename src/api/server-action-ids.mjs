// The server actions the build holds, so that scripts/server.mjs can answer a script's call to one
// that does not exist (a page from an earlier build, or a probe) with NOT_FOUND in the catalogue's
// words; Next.js 16 answers it with 409 or 400 and a text of its own. The ids are read once at
// start from the build's server-reference manifest; should its shape change in another Next.js,
// nothing is answered here and Next.js answers as before (still a 4xx). A form posted without
// JavaScript names its action in the body, which only Next.js reads: that answer stays Next.js's
// (400 with its own text). The response is never patched: Next.js wraps it itself (compression).
// Plain JavaScript: the server script imports it before anything is bundled.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The header Next.js's client router reads to tell an unknown action from a failed one. */
export const ACTION_NOT_FOUND_HEADER = 'x-nextjs-action-not-found';

/**
 * The build's server actions: each id with the name its module exports it by (what
 * src/server/actions/arguments.ts lists their arguments by), or null when the manifest cannot be read.
 */
export function serverActionIds(root, distDir = '.next') {
  try {
    const manifest = JSON.parse(readFileSync(path.join(root, distDir, 'server', 'server-reference-manifest.json'), 'utf8'));
    if (typeof manifest?.node !== 'object' || manifest.node === null) return null;
    const entries = [...Object.entries(manifest.node), ...Object.entries(manifest.edge ?? {})];
    return new Map(entries.map(([id, entry]) => [id, typeof entry?.exportedName === 'string' ? entry.exportedName : '']));
  } catch {
    return null;
  }
}

/** Whether a `next-action` header names an action the build does not hold (never, when the ids are unknown). */
export function isUnknownAction(ids, header) {
  if (ids === null || header === undefined) return false;
  const id = Array.isArray(header) ? header[0] : header;
  return !ids.has(id);
}
