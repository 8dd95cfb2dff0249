import { describe, expect, it } from 'vitest';
import { enumLabel } from './format';

describe('enum labels', () => {
  it("shows a value's declared label, and the value itself for a name every object inherits", () => {
    const labels = { low: 'Low', high: 'High!' };
    expect(enumLabel(labels, 'high')).toBe('High!');
    expect(enumLabel(undefined, 'high')).toBe('high');
    for (const value of Object.getOwnPropertyNames(Object.prototype)) expect(enumLabel(labels, value)).toBe(value);
  });
});
