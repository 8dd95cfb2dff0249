import { sql, type RawBuilder } from 'kysely';

/** The last word of a search while it is still being typed: letters and digits after a space. */
const TRAILING_WORD = /(^|\s)([\p{L}\p{N}]+)$/u;
const TRAILING_OR = /(^|\s)or$/i;

/**
 * What the user typed as a tsquery (the 'simple' configuration, as the `search` vectors are
 * built). Web search syntax (words ANDed, "phrases", `or`, `-word`) through
 * websearch_to_tsquery, which never fails on any input; and the last word also as a prefix, so
 * that results appear while a word is being typed ("prin" finds "printer", as a palette or a
 * search-as-you-type field needs). The prefix word is letters and digits only, so it cannot
 * carry tsquery syntax.
 */
export function searchQuery(text: string): RawBuilder<unknown> {
  const trimmed = text.trim();
  const last = TRAILING_WORD.exec(trimmed);
  const insideQuotes = (trimmed.match(/"/g)?.length ?? 0) % 2 === 1;
  if (!last || insideQuotes) return sql`websearch_to_tsquery('simple', ${trimmed})`;
  const word = last[2]!.toLowerCase();
  const prefix = sql`to_tsquery('simple', ${`${word}:*`})`;
  let rest = trimmed.slice(0, last.index).trim();
  if (rest === '') return prefix;
  // "vpn or boun": the word is an alternative to what comes before it, not an addition.
  const alternative = TRAILING_OR.test(rest);
  if (alternative) rest = rest.replace(TRAILING_OR, '').trim();
  if (rest === '') return prefix;
  const before = sql`websearch_to_tsquery('simple', ${rest})`;
  return alternative ? sql`(${before} || ${prefix})` : sql`(${before} && ${prefix})`;
}

/** Whether a record's `search` vector matches what the user typed (`searchQuery`). */
export function searchMatches(text: string): RawBuilder<boolean> {
  return sql<boolean>`search @@ ${searchQuery(text)}`;
}
