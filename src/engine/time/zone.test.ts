import { describe, expect, it } from 'vitest';
import { fromLocalInput, isTimeZone, timeZoneChoices, toLocalInput, zoneShortName } from './zone';

const iso = (value: string, zone: string) => fromLocalInput(value, zone)?.toISOString() ?? null;

describe('time zones', () => {
  it('knows IANA zones and refuses anything else', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Europe/Pariss')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone('x'.repeat(100))).toBe(false);
    expect(isTimeZone(3)).toBe(false);
    expect(timeZoneChoices()[0]).toBe('UTC');
    expect(timeZoneChoices()).toContain('America/New_York');
  });

  it('reads a wall time in UTC as itself', () => {
    expect(iso('2026-11-28T14:30', 'UTC')).toBe('2026-11-28T14:30:00.000Z');
    expect(iso('2026-11-28T14:30:15.5', 'UTC')).toBe('2026-11-28T14:30:15.500Z');
    expect(toLocalInput(new Date('2026-11-28T14:30:00Z'), 'UTC')).toBe('2026-11-28T14:30');
  });

  it('reads Paris in winter and summer', () => {
    expect(iso('2026-01-15T09:00', 'Europe/Paris')).toBe('2026-01-15T08:00:00.000Z');
    expect(iso('2026-07-15T09:00', 'Europe/Paris')).toBe('2026-07-15T07:00:00.000Z');
    expect(toLocalInput(new Date('2026-07-15T07:00:00Z'), 'Europe/Paris')).toBe('2026-07-15T09:00');
  });

  it('moves a time in the spring-forward gap on by the gap', () => {
    // Paris, 29 March 2026: 02:00 CET jumps to 03:00 CEST.
    expect(iso('2026-03-29T02:30', 'Europe/Paris')).toBe('2026-03-29T01:30:00.000Z');
    expect(toLocalInput(new Date('2026-03-29T01:30:00Z'), 'Europe/Paris')).toBe('2026-03-29T03:30');
    // New York, 8 March 2026: 02:00 EST jumps to 03:00 EDT.
    expect(iso('2026-03-08T02:30', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
    expect(iso('2026-03-08T03:00', 'America/New_York')).toBe('2026-03-08T07:00:00.000Z');
  });

  it('takes the earlier of a time that happens twice', () => {
    // Paris, 25 October 2026: 02:30 happens in CEST (00:30Z) and again in CET (01:30Z).
    expect(iso('2026-10-25T02:30', 'Europe/Paris')).toBe('2026-10-25T00:30:00.000Z');
    expect(toLocalInput(new Date('2026-10-25T01:30:00Z'), 'Europe/Paris')).toBe('2026-10-25T02:30');
    // New York, 1 November 2026: 01:30 EDT (05:30Z), then 01:30 EST (06:30Z).
    expect(iso('2026-11-01T01:30', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
  });

  it('round-trips every fifth hour across a year in both zones', () => {
    for (const zone of ['Europe/Paris', 'America/New_York']) {
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 5 * 3_600_000) {
        const instant = new Date(t);
        const back = fromLocalInput(toLocalInput(instant, zone), zone);
        // Only the second pass of a repeated hour reads back as the first one.
        const shift = (back?.getTime() ?? Number.NaN) - t;
        expect([0, -3_600_000]).toContain(shift);
      }
    }
  });

  it('refuses what is not a wall time', () => {
    expect(fromLocalInput('2030-02-30T10:00', 'UTC')).toBeNull();
    expect(fromLocalInput('2030-02-10T24:00', 'UTC')).toBeNull();
    expect(fromLocalInput('2030-02-10 10:00', 'UTC')).toBeNull();
    expect(fromLocalInput('tomorrow', 'Europe/Paris')).toBeNull();
  });

  it('names the zone shortly', () => {
    expect(zoneShortName(new Date('2026-01-15T12:00:00Z'), 'Europe/Paris')).toBe('CET');
    expect(zoneShortName(new Date('2026-07-15T12:00:00Z'), 'Europe/Paris')).toBe('CEST');
    expect(zoneShortName(new Date('2026-01-15T12:00:00Z'), 'America/New_York')).toBe('EST');
    expect(zoneShortName(new Date('2026-07-15T12:00:00Z'), 'UTC')).toBe('UTC');
    expect(zoneShortName(new Date('2026-07-15T12:00:00Z'), 'Asia/Tokyo')).toBe('GMT+9');
  });
});
