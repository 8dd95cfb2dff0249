import { describe, expect, it } from 'vitest';
import { buildModel } from '../spec/build';
import type { AppSpec, Condition } from '../spec/types';
import { holds, uniqueWhenOfIndex, uniqueWhenViolation } from './unique-when';

const model = buildModel({
  name: 'shelf',
  entities: {
    item: {
      titleField: 'name',
      fields: {
        name: { type: 'text', required: true },
        size: { type: 'integer' },
        price: { type: 'decimal' },
        featured: { type: 'boolean' },
        due: { type: 'date' },
      },
      uniqueWhen: { fields: ['name', 'size'], where: { field: 'featured', op: 'eq', value: true } },
    },
  },
  constants: { big: { value: 10 } },
} as unknown as AppSpec);
const item = model.entitiesByName.item!;
const on = (condition: Condition, record: Record<string, unknown>) => holds(model, item, condition, record);

describe('holds: a uniqueWhen condition on a record, as the index predicate reads it', () => {
  it('compares numbers, decimals, booleans, dates and constants like the database', () => {
    expect(on({ field: 'size', op: 'gte', value: { $constant: 'big' } }, { size: 10 })).toBe(true);
    expect(on({ field: 'price', op: 'lt', value: 10 }, { price: '9.50' })).toBe(true);
    expect(on({ field: 'featured', op: 'eq', value: true }, { featured: true })).toBe(true);
    expect(on({ field: 'due', op: 'gt', value: '2025-01-31' }, { due: '2025-02-01' })).toBe(true);
    expect(on({ field: 'size', op: 'in', value: [1, 2] }, { size: 3 })).toBe(false);
  });

  it('reads an empty value with three values: a comparison is unknown, and so is its negation', () => {
    expect(on({ field: 'size', op: 'eq', value: 3 }, { size: null })).toBeNull();
    expect(on({ not: { field: 'size', op: 'eq', value: 3 } }, { size: null })).toBeNull();
    expect(
      on(
        {
          any: [
            { field: 'size', op: 'eq', value: 3 },
            { field: 'name', op: 'present' },
          ],
        },
        { size: null, name: 'x' },
      ),
    ).toBe(true);
    expect(
      on(
        {
          all: [
            { field: 'size', op: 'eq', value: 3 },
            { field: 'name', op: 'absent' },
          ],
        },
        { size: null, name: 'x' },
      ),
    ).toBe(false);
  });

  it('reads ne as `is distinct from`: an empty value differs from any value', () => {
    expect(on({ field: 'size', op: 'ne', value: 3 }, { size: null })).toBe(true);
    expect(on({ field: 'size', op: 'ne', value: null }, { size: null })).toBe(false);
    expect(on({ field: 'size', op: 'ne', value: 3 }, { size: 3 })).toBe(false);
  });
});

describe('the refusal', () => {
  it('is VALIDATION_FAILED with the rule message on its first field, found by index name', () => {
    const rule = uniqueWhenOfIndex(item, item.uniqueWhen[0]!.index)!;
    expect(uniqueWhenOfIndex(item, 'item_name_key')).toBeUndefined();
    expect(uniqueWhenViolation({}, rule)).toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: [{ field: 'name', code: 'unique', message: 'Another record already has this name and size.' }],
    });
  });
});
