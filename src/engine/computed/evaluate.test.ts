import { describe, expect, it } from 'vitest';
import { buildModel } from '../spec/build';
import type { AppSpec } from '../spec/types';
import { computeValue, type ComputedFieldModel } from './evaluate';
import { add, divide, multiply, toDecimalText, toRational } from './rational';
import { slugText } from './slug-text';

const model = buildModel({
  name: 'evaluate',
  entities: {
    line: {
      fields: {
        title: { type: 'text' },
        quantity: { type: 'integer' },
        price: { type: 'decimal', precision: 6, scale: 2 },
        day: { type: 'date' },
        at: { type: 'datetime' },
        total: { type: 'decimal', precision: 6, scale: 2, computed: { multiply: [{ field: 'quantity' }, { field: 'price' }] } },
        third: { type: 'decimal', scale: 4, computed: { divide: [{ field: 'price' }, { field: 'quantity' }] } },
        net: { type: 'integer', computed: { subtract: [{ field: 'quantity' }, { $constant: 'reserve' }] } },
        due: { type: 'date', computed: { from: 'day', plus: { days: { field: 'quantity' } } } },
        before: { type: 'datetime', computed: { from: 'at', minus: { hours: 1.5 } } },
        answerBy: { type: 'date', computed: { from: 'day', plus: { workingDays: { field: 'quantity' } } } },
        remindAt: { type: 'datetime', computed: { from: 'at', minus: { workingDays: 1 } } },
        slug: { type: 'text', computed: { slug: 'title' } },
      },
    },
  },
  constants: { reserve: { value: 2 } },
  calendar: { holidays: ['2026-03-02'] },
} as unknown as AppSpec);
const field = (name: string) => model.entitiesByName.line!.fieldsByName[name] as ComputedFieldModel;

describe('exact arithmetic', () => {
  it('adds and multiplies decimals without floating-point drift, and rounds half away from zero', () => {
    expect(toDecimalText(add(toRational('0.1')!, toRational(0.2)!), 2)).toBe('0.30');
    expect(toDecimalText(multiply(toRational('1.005')!, toRational(1)!), 2)).toBe('1.01');
    expect(toDecimalText(multiply(toRational('-1.005')!, toRational(1)!), 2)).toBe('-1.01');
    expect(toDecimalText(toRational('1e-7')!, 8)).toBe('0.00000010');
    expect(divide(toRational(1)!, toRational('0.00')!)).toBeNull();
    expect(toRational('abc')).toBeNull();
    expect(toRational(null)).toBeNull();
  });
});

describe('computeValue', () => {
  it('computes arithmetic rounded to the scale, empty for an empty operand or a division by zero', () => {
    expect(computeValue(field('total'), { quantity: 3, price: '19.99' })).toBe('59.97');
    expect(computeValue(field('third'), { quantity: 3, price: '10.00' })).toBe('3.3333');
    expect(computeValue(field('third'), { quantity: 0, price: '10.00' })).toBeNull();
    expect(computeValue(field('total'), { quantity: null, price: '10.00' })).toBeNull();
    expect(computeValue(field('net'), { quantity: 5 })).toBe(3);
  });

  it('refuses a result its column cannot hold, naming the field', () => {
    expect(() => computeValue(field('total'), { quantity: 1000, price: '9999.99' })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', fieldErrors: [expect.objectContaining({ field: 'total', code: 'too_big' })] }),
    );
  });

  it('moves a date by days and a datetime by hours', () => {
    expect(computeValue(field('due'), { day: '2026-02-27', quantity: 3 })).toBe('2026-03-02');
    expect(computeValue(field('before'), { at: new Date('2026-01-01T00:00:00Z') })).toEqual(new Date('2025-12-31T22:30:00Z'));
    expect(computeValue(field('before'), { at: null })).toBeNull();
  });

  it("moves a date and a datetime by working days on the spec's calendar", () => {
    // Friday 27 February + 2: the weekend and Monday 2 March (a holiday) are skipped.
    expect(computeValue(field('answerBy'), { day: '2026-02-27', quantity: 2 })).toBe('2026-03-04');
    expect(computeValue(field('answerBy'), { day: '2026-02-27', quantity: 0 })).toBe('2026-02-27');
    expect(computeValue(field('remindAt'), { at: new Date('2026-03-03T08:00:00Z') })).toEqual(new Date('2026-02-27T08:00:00Z'));
    expect(() => computeValue(field('answerBy'), { day: '2026-02-27', quantity: 2_000_000 })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
  });

  it('makes a slug of the title', () => {
    expect(computeValue(field('slug'), { title: '  Crème Brûlée — 2 ways!  ' })).toBe('creme-brulee-2-ways');
    expect(slugText('!!!')).toBeNull();
    expect(slugText('Ærø Straße 5')).toBe('ærø-straße-5');
  });
});
