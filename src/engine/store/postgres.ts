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
const ZERO = 48; // '0'
const [DASH, SPACE, COLON, DOT, PLUS] = [45, 32, 58, 46, 43];

/** The number written by `count` digits from `at`, or -1 when one of them is not a digit. */
function digitsAt(text: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const digit = text.charCodeAt(i) - ZERO;
    if (!(digit >= 0 && digit <= 9)) return -1;
    n = n * 10 + digit;
  }
  return n;
}

/**
 * timestamptz as a Date, read directly for the shape PostgreSQL writes with DateStyle ISO:
 * "2026-11-21 21:41:27.91+00", "…+05:30", "…+00:19:32". Profiling the API list on PostgreSQL
 * showed pg's general date parser (postgres-date) at ~7% of the server's CPU, and a regular
 * expression still at ~3%: three or four columns per row. Read by character codes instead;
 * anything unusual (BC years, infinity, other DateStyles) goes to pg's parser.
 */
export function parseTimestamptz(value: string): unknown {
  const n = value.length;
  if (
    n < 22 ||
    value.charCodeAt(4) !== DASH ||
    value.charCodeAt(7) !== DASH ||
    value.charCodeAt(10) !== SPACE ||
    value.charCodeAt(13) !== COLON ||
    value.charCodeAt(16) !== COLON
  ) {
    return parseTimestampDefault(value);
  }
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  const hour = digitsAt(value, 11, 2);
  const minute = digitsAt(value, 14, 2);
  const second = digitsAt(value, 17, 2);
  let i = 19;
  // Milliseconds: the first three digits of the fraction (1 to 6 digits), the rest dropped.
  let millis = 0;
  if (value.charCodeAt(i) === DOT) {
    let scale = 100;
    const first = ++i;
    for (let digit = value.charCodeAt(i) - ZERO; digit >= 0 && digit <= 9; digit = value.charCodeAt(++i) - ZERO) {
      millis += digit * scale;
      scale = Math.trunc(scale / 10);
    }
    if (i === first || i - first > 6) return parseTimestampDefault(value);
  }
  const sign = value.charCodeAt(i);
  if (sign !== PLUS && sign !== DASH) return parseTimestampDefault(value);
  const offsetHours = digitsAt(value, i + 1, 2);
  i += 3;
  let offsetMinutes = 0;
  let offsetSeconds = 0;
  if (i < n && value.charCodeAt(i) === COLON) {
    offsetMinutes = digitsAt(value, i + 1, 2);
    i += 3;
    if (i < n && value.charCodeAt(i) === COLON) {
      offsetSeconds = digitsAt(value, i + 1, 2);
      i += 3;
    }
  }
  if (i !== n || Math.min(year, month, day, hour, minute, second, offsetHours, offsetMinutes, offsetSeconds) < 0)
    return parseTimestampDefault(value);
  const offsetMs = (sign === DASH ? -1 : 1) * ((offsetHours * 60 + offsetMinutes) * 60 + offsetSeconds) * 1000;
  if (year >= 100) return new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMs);
  // Date.UTC reads years 0-99 as 1900-1999; setUTCFullYear does not.
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, millis));
  date.setUTCFullYear(year);
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

/**
 * How long taking a connection may wait (opening one, or for a free one when all are busy). Without
 * it a request waits on an unreachable host until the operating system's TCP timeout (minutes);
 * with it the request fails with SERVICE_UNAVAILABLE in a few seconds (see ./unavailable.ts).
 */
const DEFAULT_CONNECT_TIMEOUT_MS = 3000;

export function connectTimeoutFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const ms = Number(env.DATABASE_CONNECT_TIMEOUT_MS);
  return Number.isInteger(ms) && ms > 0 ? ms : DEFAULT_CONNECT_TIMEOUT_MS;
}

/**
 * Connection settings shared by the pool, the LISTEN connection and the availability probe. TCP
 * keep-alive lets the operating system notice a peer that vanished without closing (a cut network)
 * under a connection that is waiting for an answer.
 */
export function connectionSettings(databaseUrl: string): pg.ClientConfig {
  return { connectionString: databaseUrl, connectionTimeoutMillis: connectTimeoutFromEnv(), keepAlive: true };
}

export function createPostgresDialect(databaseUrl: string): PostgresDialect {
  const pool = new Pool({ ...connectionSettings(databaseUrl), max: poolSizeFromEnv(), types: customTypes });
  // An idle client losing its connection must not crash the server; the next query reconnects.
  pool.on('error', (error) => {
    console.error('[ninefold] PostgreSQL idle connection error:', error.message);
  });
  // Nor may a client that is lent out and between two statements when its connection drops:
  // pg-pool listens for errors only on idle clients, and an 'error' event nobody listens to ends
  // the process. The statement in progress, or the next one, fails and is reported
  // (SERVICE_UNAVAILABLE); on release the pool discards the broken client.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return new PostgresDialect({ pool });
}

/**
 * How long the availability probe waits for a connection and for its `select 1`. Shorter than
 * taking a pooled connection: it runs when statements are already failing or waiting, and what it
 * decides (503 at once for everyone) should be decided soon. A false "down" lasts one probe (2 s).
 */
const DEFAULT_PROBE_TIMEOUT_MS = 1000;

export function probeTimeoutFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const ms = Number(env.DATABASE_PROBE_TIMEOUT_MS);
  return Number.isInteger(ms) && ms > 0 ? ms : DEFAULT_PROBE_TIMEOUT_MS;
}

/** Opens a connection of its own and runs `select 1`: whether PostgreSQL answers now. */
export async function probePostgres(databaseUrl: string): Promise<void> {
  const timeout = probeTimeoutFromEnv();
  const client = new pg.Client({ ...connectionSettings(databaseUrl), connectionTimeoutMillis: timeout, query_timeout: timeout });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    // On a silent network a polite goodbye would wait as long as the probe did not: the socket is
    // let go at once (pg offers no public way to do so).
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    throw error;
  } finally {
    void client.end().catch(() => undefined);
  }
}
