import { computeValue } from '../computed/evaluate';
import { numberedSlug } from '../computed/slug-text';
import { computedFields } from '../ops/computed';
import type { EntityModel } from '../spec/model';
import { freeFor } from './demo-unique';
import type { SeedRun } from './seed-run';
import type { Values } from './workflow-walk';

/**
 * Computed fields set as ops set them on create (ops/computed.ts): from the record's own values,
 * a slug numbered past those other demo records took. A value too large for its column is left
 * empty: demo data never stops on it.
 */
export function setComputedValues(run: SeedRun, entity: EntityModel, record: Values): void {
  for (const field of computedFields(entity)) {
    let value: unknown;
    try {
      value = computeValue(field, record);
    } catch {
      value = null;
    }
    if (field.computed.kind === 'slug' && typeof value === 'string') {
      const free = freeFor(run, entity, field, record);
      let n = 1;
      while (!free(numberedSlug(value, n))) n += 1;
      value = numberedSlug(value, n);
    }
    record[field.name] = value as Values[string];
  }
}
