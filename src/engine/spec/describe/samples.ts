/**
 * A field's `samples` in point 3: what its demo data reads (the seeder takes only these texts),
 * and, for a unique field, what it does once every sample is taken.
 */
export function samplesText(samples: readonly string[], unique: boolean): string {
  const count = samples.length === 1 ? '1 sample text' : `${samples.length} sample texts`;
  return `demo data picks from ${count}${unique ? ' (with a number added once each is taken)' : ''}`;
}
