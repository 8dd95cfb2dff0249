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
    ]) {
      expect((parseTimestamptz(text) as Date).getTime(), text).toBe((pgParser(text) as Date).getTime());
    }
  });

  it('leaves the unusual ones to pg', () => {
    for (const text of ['infinity', '-infinity', '0044-03-15 12:00:00+00 BC']) {
      expect(String(parseTimestamptz(text))).toBe(String(pgParser(text)));
    }
  });
});
