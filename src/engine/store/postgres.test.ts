import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseTimestamptz } from './postgres';

const pgParser = pg.types.getTypeParser(1184) as (value: string) => unknown;

describe('reading timestamptz', () => {
  it('gives the same instant as pg’s own parser, for every shape PostgreSQL writes', () => {
    for (const text of [
      '2026-11-21 21:41:27.91+00',
      '2026-11-21 21:41:27+00',
      '2026-11-21 21:41:27.123456+00',
      '1999-12-31 23:59:59.999+05:30',
      '2024-02-29 00:00:00-08',
      '2030-06-15 12:00:00.5-03:30',
      '0099-01-01 00:00:00+00',
      '1900-01-01 00:00:00+00:19:32',
      '2026-11-21 21:41:27.9+00',
      '2026-11-21 21:41:27.999999-11',
      '2026-11-21 21:41:27.0005+14',
    ]) {
      expect((parseTimestamptz(text) as Date).getTime(), text).toBe((pgParser(text) as Date).getTime());
    }
  });

  it('agrees with pg’s parser on any instant, fraction and offset PostgreSQL can write', () => {
    const two = (n: number) => String(n).padStart(2, '0');
    fc.assert(
      fc.property(
        fc.record({
          year: fc.integer({ min: 1, max: 9999 }),
          month: fc.integer({ min: 1, max: 12 }),
          day: fc.integer({ min: 1, max: 28 }),
          hour: fc.integer({ min: 0, max: 23 }),
          minute: fc.integer({ min: 0, max: 59 }),
          second: fc.integer({ min: 0, max: 59 }),
          fraction: fc.option(fc.stringMatching(/^\d{1,6}$/), { nil: undefined }),
          sign: fc.constantFrom('+', '-'),
          offsetHours: fc.integer({ min: 0, max: 15 }),
          offsetMinutes: fc.option(fc.integer({ min: 0, max: 59 }), { nil: undefined }),
        }),
        (t) => {
          const text = `${String(t.year).padStart(4, '0')}-${two(t.month)}-${two(t.day)} ${two(t.hour)}:${two(t.minute)}:${two(t.second)}${t.fraction === undefined ? '' : `.${t.fraction}`}${t.sign}${two(t.offsetHours)}${t.offsetMinutes === undefined ? '' : `:${two(t.offsetMinutes)}`}`;
          expect((parseTimestamptz(text) as Date).getTime(), text).toBe((pgParser(text) as Date).getTime());
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('leaves the unusual ones to pg', () => {
    for (const text of [
      'infinity',
      '-infinity',
      '0044-03-15 12:00:00+00 BC',
      '2026-11-21 21:41:27.1234567+00',
      '2026-11-21 21:41:27.+00',
      '2026-11-21T21:41:27+00',
      '2026-11-21 21:41:27+0a',
    ]) {
      expect(String(parseTimestamptz(text))).toBe(String(pgParser(text)));
    }
  });
});
