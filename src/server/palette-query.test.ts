import { describe, expect, it } from 'vitest';
import { parseRecordId } from './palette-query';

describe('parseRecordId', () => {
  it('reads "123" and "#123"', () => {
    expect(parseRecordId('123')).toBe(123);
    expect(parseRecordId('#123')).toBe(123);
    expect(parseRecordId('  # 7 ')).toBe(7);
  });

  it('refuses anything else', () => {
    for (const text of ['', '#', '0', '#0', '012', '12a', 'ticket 12', '-3', '1.5', '1e3', '99999999999999999'])
      expect(parseRecordId(text), text).toBeNull();
  });
});
