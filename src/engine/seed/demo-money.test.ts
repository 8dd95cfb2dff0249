import { faker } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { buildField } from '../spec/build';
import { demoAmount } from './demo-money';

describe('demo amounts of money', () => {
  it('stay within the range and the currency’s digits, spread over orders of magnitude', () => {
    faker.seed(7);
    const eur = buildField('value', { type: 'money', currency: 'EUR', min: 0 });
    const amounts = Array.from({ length: 200 }, () => demoAmount(faker, eur));
    expect(amounts.every((a) => /^\d+\.\d{2}$/.test(a) && Number(a) >= 0 && Number(a) <= 100_000)).toBe(true);
    expect(amounts.some((a) => Number(a) < 1_000)).toBe(true);
    expect(amounts.some((a) => Number(a) >= 10_000)).toBe(true);
  });

  it('writes whole yen, and keeps within a declared range', () => {
    faker.seed(8);
    const yen = buildField('price', { type: 'money', currency: 'JPY', min: 500, max: 2000 });
    const amounts = Array.from({ length: 100 }, () => demoAmount(faker, yen));
    expect(amounts.every((a) => /^\d+$/.test(a) && Number(a) >= 500 && Number(a) <= 2000)).toBe(true);
  });
});
