import type { ImportState } from '@/ui/csv/import-state';

/**
 * The report of an import posted without JavaScript, carried from the import door
 * (./import-door.ts) to the import page it has `npm start`'s server render. A client's own
 * x-ninefold-* headers never reach the app (src/api/incoming-headers.mjs): only the server sets it.
 */
export const IMPORT_REPORT_HEADER = 'x-ninefold-import-report';

/** The report as a header value: JSON in base64url (a header holds no line breaks nor any character beyond Latin-1). */
export function reportHeaderValue(state: ImportState): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

/** The report the header carries, or null when there is none. */
export function reportFromHeader(value: string | null): ImportState | null {
  if (!value) return null;
  try {
    const state = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as ImportState;
    return state.kind === 'done' || state.kind === 'refused' ? state : null;
  } catch {
    return null;
  }
}
