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

type TypeParser = (value: string) => unknown;

const defaultParser = types.getTypeParser as (oid: number, format?: 'text' | 'binary') => TypeParser;
const parseTextArray = defaultParser(TEXT_ARRAY) as (value: string) => (string | null)[];

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
