/** The longest text the palette searches for (the list's search box takes as much). */
export const PALETTE_QUERY_MAX = 200;

/**
 * A record id typed into the palette: "123" or "#123" (spaces around ignored). Null for
 * anything else, including ids too large to be one.
 */
export function parseRecordId(query: string): number | null {
  const match = /^#?\s*([1-9]\d{0,15})$/.exec(query.trim());
  if (!match) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) ? id : null;
}
