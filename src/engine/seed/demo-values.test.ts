import { faker } from '@faker-js/faker';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildModel } from '../spec/build';
import type { FieldModel } from '../spec/model';
import type { FieldSpec } from '../spec/types';
import { fieldSchema } from '../rules/field-schema';
import { demoValue, NoDemoValue } from './demo-values';

/** A field as the model has it, from its spec. */
function fieldOf(spec: FieldSpec, name = 'value'): FieldModel {
  const model = buildModel({
    name: 'values',
    entities: { thing: { titleField: 'label', fields: { label: { type: 'text' }, [name]: spec } } },
  });
  return model.entitiesByName.thing!.fieldsByName[name]!;
}

/** `n` values of a unique field, each free of those made before (as the seeder asks for them). */
function uniqueValues(field: FieldModel, n: number): unknown[] {
  const taken = new Set<unknown>();
  return Array.from({ length: n }, (_, i) => {
    const value = demoValue(faker, { ...field, required: true }, i + 1, { entityName: 'tag', isFree: (v) => !taken.has(v) });
    taken.add(value);
    return value;
  });
}

const problems = (field: FieldModel, values: unknown[]) => values.filter((v) => !fieldSchema(field).safeParse(v).success);

describe('demo values keep their field’s schema', () => {
  beforeEach(() => faker.seed(19));

  it('makes distinct slugs that match the pattern and lengths', () => {
    const slug = fieldOf(
      { type: 'text', required: true, unique: true, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', minLength: 3, maxLength: 24 },
      'slug',
    );
    const values = uniqueValues(slug, 200);
    expect(problems(slug, values)).toEqual([]);
    expect(new Set(values).size).toBe(200);
    // Most read as words, not random letters: the record's text shaped as a slug.
    expect(values.filter((v) => /^[a-z]+(-[a-z]+)+(-\d+)?$/.test(String(v))).length).toBeGreaterThan(150);
  });

  it('makes codes of a fixed shape, lookarounds too', () => {
    const code = fieldOf({ type: 'text', unique: true, pattern: '^[A-Z]{2}-\\d{3}$' }, 'code');
    const values = uniqueValues(code, 300);
    expect(problems(code, values)).toEqual([]);
    expect(new Set(values).size).toBe(300);
    const guarded = fieldOf({ type: 'text', required: true, pattern: '^(?<![a-z])[A-Z]{3}(?!Q)\\d{2}$' }, 'guarded');
    expect(problems(guarded, uniqueValues(guarded, 50))).toEqual([]);
  });

  it('keeps the number that makes a short unique text distinct', () => {
    const name = fieldOf({ type: 'text', required: true, unique: true, maxLength: 12 }, 'name');
    const values = uniqueValues(name, 300);
    expect(problems(name, values)).toEqual([]);
    expect(new Set(values).size).toBe(300);
  });

  it('names the field whose pattern it cannot match', () => {
    const odd = fieldOf({ type: 'text', required: true, pattern: '^(?<a>x)\\k<a>y$' }, 'odd');
    expect(() => demoValue(faker, odd, 1, { entityName: 'tag' })).toThrow(
      new NoDemoValue('tag.odd: no demo value matches its pattern ^(?<a>x)\\k<a>y$.'),
    );
  });

  it('keeps numbers within their column and declared range', () => {
    const price = fieldOf({ type: 'decimal', required: true, precision: 4, scale: 2 }, 'price');
    const floor = fieldOf({ type: 'integer', required: true, min: 5000 }, 'floor');
    const below = fieldOf({ type: 'integer', required: true, max: -10 }, 'below');
    for (const field of [price, floor, below])
      expect(
        problems(
          field,
          Array.from({ length: 100 }, () => demoValue(faker, field, 1)),
        ),
      ).toEqual([]);
  });
});
