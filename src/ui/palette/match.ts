/**
 * How well a palette entry's label matches what was typed, without a library: every word typed
 * must start a word of the label, or else appear in it; a label starting with the query ranks
 * first. Null when it does not match. Case and accents are ignored.
 */
export function matchScore(label: string, query: string): number | null {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return 0;
  const text = fold(label);
  const labelWords = text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  let score = text.startsWith(words.join(' ')) ? 100 : 0;
  for (const word of words) {
    if (labelWords.some((w) => w.startsWith(word))) score += 10;
    else if (text.includes(word)) score += 1;
    else return null;
  }
  return score;
}

/** The items that match, best first; equal scores keep their order. */
export function rankByMatch<T>(items: readonly T[], label: (item: T) => string, query: string): T[] {
  return items
    .map((item, index) => ({ item, index, score: matchScore(label(item), query) }))
    .filter((entry): entry is { item: T; index: number; score: number } => entry.score !== null)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.item);
}

function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
}
