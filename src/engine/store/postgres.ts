import { PostgresDialect } from 'kysely';
import pg from 'pg';

const { Pool, types } = pg;

const DEFAULT_POOL_SIZE = 10;

// OIDs of the types whose JS value we choose, so that PGlite and `pg` return the same values.
const INT8 = 20;
const INT8_ARRAY = 1016;
const TEXT_ARRAY = 1009;
const DATE = 1082;
const DATE_ARRAY = 1182;
const NUMERIC_ARRAY = 1231;
const TIMESTAMPTZ = 1184;

type TypeParser = (value: string) => unknown;

const defaultParser = types.getTypeParser as (oid: number, format?: 'text' | 'binary') => TypeParser;
const parseTextArray = defaultParser(TEXT_ARRAY) as (value: string) => (string | null)[];

const parseTimestampDefault = defaultParser(TIMESTAMPTZ);
/** What PostgreSQL writes for a timestamptz with DateStyle ISO: "2026-11-21 21:41:27.91+00", "…+05:30". */
const ISO_TIMESTAMPTZ = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?([+-])(\d{2})(?::(\d{2}))?(?::(\d{2}))?$/;

/**
 * timestamptz as a Date, read directly for the common shape. Profiling the API list on
 * PostgreSQL showed pg's general date parser (postgres-date) at ~7% of the server's CPU, three
 * columns per row. Anything unusual (BC years, infinity, other DateStyles) goes to pg's parser.
 */
export function parseTimestamptz(value: string): unknown {
  const m = ISO_TIMESTAMPTZ.exec(value);
  if (!m) return parseTimestampDefault(value);
  const [, y, mo, d, h, mi, s, fraction = '', sign, oh, om = '0', os = '0'] = m;
  const offsetMs = (sign === '-' ? -1 : 1) * ((Number(oh) * 60 + Number(om)) * 60 + Number(os)) * 1000;
  // Date.UTC reads years 0-99 as 1900-1999; setUTCFullYear does not.
  const date = new Date(Date.UTC(2000, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(fraction.padEnd(3, '0').slice(0, 3))));
  date.setUTCFullYear(Number(y));
  return new Date(date.getTime() - offsetMs);
}

/** Parsers that differ from pg's defaults; every other type keeps pg's parser. */
const OVERRIDES: Readonly<Record<number, TypeParser>> = {
  // Ids and counts: numbers (exact up to 2^53, far beyond any row count here).
  [INT8]: (value) => Number(value),
  [INT8_ARRAY]: (value) => parseTextArray(value).map((item) => (item === null ? null : Number(item))),
  // Dates stay 'YYYY-MM-DD': a Date would shift with the server's time zone.
  [DATE]: (value) => value,
  [DATE_ARRAY]: (value) => parseTextArray(value),
  // numeric is already a string in pg (exact decimals); arrays of it too, made explicit here.
  [NUMERIC_ARRAY]: (value) => parseTextArray(value),
  [TIMESTAMPTZ]: parseTimestamptz,
};

const customTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format !== 'binary' && oid in OVERRIDES) return OVERRIDES[oid];
    return defaultParser(oid, format);
  }) as typeof types.getTypeParser,
};

export function poolSizeFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const size = Number(env.DATABASE_POOL_SIZE);
  return Number.isInteger(size) && size > 0 ? size : DEFAULT_POOL_SIZE;
}

export function createPostgresDialect(databaseUrl: string): PostgresDialect {
  const pool = new Pool({ connectionString: databaseUrl, max: poolSizeFromEnv(), types: customTypes });
  // An idle client losing its connection must not crash the server; the next query reconnects.
  pool.on('error', (error) => {
    console.error('[ninefold] PostgreSQL idle connection error:', error.message);
  });
  return new PostgresDialect({ pool });
}
