import { describe, expect, it } from 'vitest';
import { formatCount, formatFieldNumber, formatSum } from './format';

const eur = { type: 'money', currency: 'EUR', decimal: { precision: 12, scale: 2 } } as const;
const usd = { type: 'money', currency: 'USD', decimal: { precision: 12, scale: 2 } } as const;
const jpy = { type: 'money', currency: 'JPY', decimal: { precision: 12, scale: 0 } } as const;
const decimal = { type: 'decimal', decimal: { precision: 12, scale: 2 } } as const;
const integer = { type: 'integer' } as const;

describe('numbers as pages write them', () => {
  it('writes amounts with their currency, by locale', () => {
    expect(formatFieldNumber(usd, '38533.32', 'en-US')).toBe('$38,533.32');
    expect(formatFieldNumber(eur, '178225.2', 'en-US')).toBe('€178,225.20');
    expect(formatFieldNumber(eur, '38533.32', 'de-DE')).toBe('38.533,32\u00a0€');
    expect(formatFieldNumber(jpy, '1200', 'en-US')).toBe('¥1,200');
    expect(formatFieldNumber(jpy, '1200', 'ja-JP')).toBe('￥1,200');
  });

  it('writes decimals with their scale and integers whole, with the locale’s separators', () => {
    expect(formatFieldNumber(decimal, '9485.65', 'en-US')).toBe('9,485.65');
    expect(formatFieldNumber(decimal, '9485.6', 'de-DE')).toBe('9.485,60');
    expect(formatFieldNumber(integer, 1234567, 'fr-FR')).toBe('1\u202f234\u202f567');
    expect(formatFieldNumber(integer, 42, 'en-US')).toBe('42');
  });

  it('keeps every digit of a decimal too long for a float', () => {
    expect(formatFieldNumber(eur, '9999999999999999.99', 'en-US')).toBe('€9,999,999,999,999,999.99');
  });

  it('leaves what is not a number to its caller', () => {
    expect(formatFieldNumber(decimal, 'abc', 'en-US')).toBeNull();
    expect(formatFieldNumber({ type: 'text' }, '12', 'en-US')).toBeNull();
  });

  it('writes sums of money as money, other sums and counts as numbers', () => {
    expect(formatSum(eur, 38545.82, 'en-US')).toBe('€38,545.82');
    expect(formatSum(undefined, 98500.5, 'en-US')).toBe('98,500.5');
    expect(formatCount(1234, 'de-DE')).toBe('1.234');
  });
});
