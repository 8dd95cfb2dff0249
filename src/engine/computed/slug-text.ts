/** The longest slug kept (before a "-2" suffix): addresses stay readable. */
export const MAX_SLUG_LENGTH = 80;

/**
 * "Crème brûlée: 2 ways!" → "creme-brulee-2-ways": accents dropped, lower case, each run of
 * anything but letters and digits a single "-", none at either end. Null when nothing is left.
 */
export function slugText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const slug = value
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/^-+|-+$/g, '');
  return slug === '' ? null : slug;
}

/** The slug with its collision suffix: the first record keeps `base`, the next `base-2`, and so on. */
export function numberedSlug(base: string, n: number): string {
  return n <= 1 ? base : `${base}-${n}`;
}
