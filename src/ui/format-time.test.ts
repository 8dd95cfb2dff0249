import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './format';

describe('times as pages show them', () => {
  it("reads in the viewer's zone with the zone named, keeping the UTC value for <time dateTime>", () => {
    expect(formatDateTime('2026-11-28T13:30:00Z', 'Europe/Paris')).toEqual({
      iso: '2026-11-28T13:30:00.000Z',
      text: 'Nov 28, 2026, 14:30 CET',
    });
    expect(formatDateTime(new Date('2026-07-04T16:05:00Z'), 'America/New_York')?.text).toBe('Jul 4, 2026, 12:05 EDT');
    expect(formatDateTime('2026-07-04T16:05:00Z', 'UTC')?.text).toBe('Jul 4, 2026, 16:05 UTC');
    expect(formatDateTime('not a time', 'UTC')).toBeNull();
  });

  it('leaves calendar dates alone, whatever the zone', () => {
    expect(formatDate('2026-03-01')).toEqual({ iso: '2026-03-01', text: 'Mar 1, 2026' });
  });
});
