import { describe, expect, it } from 'vitest';
import { countText } from './list-count';

describe('the count of a list', () => {
  it('is exact below the cap, "more than" past it', () => {
    expect(countText({ count: 1234, more: false }, 'ticket', 'tickets', 'en-US')).toBe('1,234 tickets');
    expect(countText({ count: 1, more: false }, 'ticket', 'tickets', 'en-US')).toBe('1 ticket');
    expect(countText({ count: 0, more: false }, 'ticket', 'tickets', 'en-US')).toBe('0 tickets');
    expect(countText({ count: 10_000, more: true }, 'ticket', 'tickets', 'en-US')).toBe('more than 10,000 tickets');
    expect(countText({ count: 1234, more: false }, 'Ticket', 'Tickets', 'de-DE')).toBe('1.234 Tickets');
  });
});
