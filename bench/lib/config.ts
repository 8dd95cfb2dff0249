import { parseArgs } from 'node:util';

export type Mode = 'quick' | 'full';
export type DatabaseKind = 'pglite' | 'postgres';

export interface BenchConfig {
  readonly mode: Mode;
  /** Which databases to measure (default both). */
  readonly databases: readonly DatabaseKind[];
  /** Tickets at the small size, and at the large size per database. */
  readonly smallTickets: number;
  readonly largeTickets: Readonly<Record<DatabaseKind, number>>;
  /** autocannon: connections and seconds per case, and a warm-up before each case. */
  readonly connections: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  /** Sequential requests per growth case (after a few warm-up requests). */
  readonly growthSamples: number;
  readonly growthWarmup: number;
  /** Client-side navigations in Chromium (each way). */
  readonly navigations: number;
  /** The databases whose server Chromium measures (the quick run: the first one only). */
  readonly chromiumOn: readonly DatabaseKind[];
  /** Pause before reading the idle RSS. */
  readonly idleSeconds: number;
  /** `npm ci` is timed only in the full run. */
  readonly timeNpmCi: boolean;
  /** Profile the two slowest HTTP cases per database with the CPU profiler. */
  readonly profile: boolean;
  readonly postgresUrl: string;
}

export const USAGE = `Usage: npm run bench [-- --quick] [--db pglite|postgres] [--large N] [--profile]

  --quick        under 3 minutes: 3 s per case, 10,000 vs 50,000 tickets, Chromium on the
                 first database only (10 navigations), no npm ci,
                 no rebuild when the build is current
  --db KIND      measure only one database (default: both)
  --large N      tickets at the large size (default: 100,000 on PGlite, 1,000,000 on PostgreSQL)
  --pg-large N   tickets at the large size on PostgreSQL only
  --profile      also profile the two slowest HTTP cases per database (--cpu-prof style)

PostgreSQL: BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres); the
harness creates a fresh database nf_bench_* there and drops it at the end.`;

export function configFromArgs(argv: readonly string[], env: NodeJS.ProcessEnv): BenchConfig {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      quick: { type: 'boolean', default: false },
      db: { type: 'string' },
      large: { type: 'string' },
      'pg-large': { type: 'string' },
      profile: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const quick = values.quick;
  const count = (text: string | undefined, name: string): number | undefined => {
    if (text === undefined) return undefined;
    const n = Number(text.replace(/[_,]/g, ''));
    if (!Number.isInteger(n) || n < 10_000) throw new Error(`${name} must be a whole number of at least 10000.`);
    return n;
  };
  const large = count(values.large, '--large');
  const pgLarge = count(values['pg-large'], '--pg-large');
  const databases: DatabaseKind[] = values.db === undefined ? ['pglite', 'postgres'] : [values.db as DatabaseKind];
  if (!databases.every((d) => d === 'pglite' || d === 'postgres')) throw new Error('--db must be pglite or postgres.');
  return {
    mode: quick ? 'quick' : 'full',
    databases,
    smallTickets: 10_000,
    largeTickets: {
      pglite: large ?? (quick ? 50_000 : 100_000),
      postgres: pgLarge ?? large ?? (quick ? 50_000 : 1_000_000),
    },
    connections: 10,
    seconds: quick ? 3 : 10,
    warmupSeconds: quick ? 0.5 : 2,
    growthSamples: quick ? 9 : 41,
    growthWarmup: quick ? 2 : 5,
    navigations: quick ? 10 : 20,
    idleSeconds: quick ? 0.5 : 3,
    chromiumOn: quick ? databases.slice(0, 1) : databases,
    timeNpmCi: !quick,
    profile: values.profile,
    postgresUrl: env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  };
}
