import type { Faker } from '@faker-js/faker';
import type { FieldModel } from '../spec/model';
import { digitsOf } from '../spec/field-numbers';

/**
 * A plausible amount of money for a field: spread over orders of magnitude as prices and deals
 * are (more 4,800 than 97,312.57), round to two significant digits, and now and then a price
 * ending in .99; always within the field's range and column. `span` is how far an amount reaches
 * when the field declares no max.
 */
export function demoAmount(faker: Faker, field: FieldModel, span = 100_000): string {
  const { precision, scale } = digitsOf(field);
  const unit = 10 ** -scale;
  const largest = 10 ** (precision - scale) - unit;
  const min = Math.max(field.bounds?.min ?? 0, -largest);
  const max = Math.min(field.bounds?.max ?? Math.max(min, 0) + span, largest);
  if (max <= min) return min.toFixed(scale);
  const low = Math.max(min, max / 1000, unit);
  if (low >= max) return faker.number.float({ min, max, fractionDigits: scale }).toFixed(scale);
  const amount = Math.exp(faker.number.float({ min: Math.log(low), max: Math.log(max) }));
  const step = 10 ** Math.max(Math.floor(Math.log10(amount)) - 1, -scale);
  let rounded = Math.round(amount / step) * step;
  if (scale > 0 && rounded >= 1 && faker.datatype.boolean({ probability: 0.2 })) rounded -= unit;
  return Math.min(Math.max(rounded, min), max).toFixed(scale);
}
