import { describe, expect, it } from 'vitest';
import { digestDay } from './digest';

describe('the day a digest is of', () => {
  it('is yesterday on the product’s clock, which began at its own midnight', () => {
    // 23:30 UTC on 27 November is already the 28th in Berlin: the 27th is over there, not in UTC.
    const now = new Date('2026-11-27T23:30:00Z');
    expect(digestDay(now, 'UTC')).toEqual({ day: '2026-11-26', today: new Date('2026-11-27T00:00:00Z') });
    expect(digestDay(now, 'Europe/Berlin')).toEqual({ day: '2026-11-27', today: new Date('2026-11-27T23:00:00Z') });
    // New York is still on the 27th at that instant.
    expect(digestDay(now, 'America/New_York')).toEqual({ day: '2026-11-26', today: new Date('2026-11-27T05:00:00Z') });
  });

  it('crosses months and years', () => {
    expect(digestDay(new Date('2027-01-01T08:00:00Z'), 'Asia/Tokyo').day).toBe('2026-12-31');
    expect(digestDay(new Date('2026-03-01T12:00:00Z'), 'UTC').day).toBe('2026-02-28');
  });
});
