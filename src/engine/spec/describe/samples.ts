import type { FieldModel } from '../model';
import { code } from './text';

/**
 * A field's `samples` in point 3: what its demo data reads (the seeder takes only these texts),
 * which fields' samples go with it, and, for a unique field, what it does once every sample is taken.
 */
export function samplesText(field: FieldModel): string {
  const samples = field.samples ?? [];
  const count = samples.length === 1 ? '1 sample text' : `${samples.length} sample texts`;
  const paired = field.samplesWith?.length
    ? `, each going with the sample of ${field.samplesWith.map(code).join(' and ')} at its place`
    : '';
  return `demo data picks from ${count}${paired}${field.unique ? ' (with a number added once each is taken)' : ''}`;
}
