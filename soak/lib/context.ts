import { parseArgs } from 'node:util';
import type { DatabaseKind } from '../../bench/lib/config';

export type { DatabaseKind };

export const SCENARIOS = ['crash', 'second-process', 'outage', 'partition', 'load', 'shutdown', 'backup'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface SoakConfig {
  readonly quick: boolean;
  readonly scenarios: readonly ScenarioName[];
  readonly databases: readonly DatabaseKind[];
  /** kill -9 per database in the crash scenario, and the write load between two kills. */
  readonly kills: number;
  readonly writeSecondsBetweenKills: readonly [number, number];
  readonly writers: number;
  /** The sustained load: clients, seconds per run, runs. */
  readonly loadClients: number;
  readonly loadSeconds: number;
  readonly loadRuns: number;
  /** SIGTERMs per database in the shutdown scenario. */
  readonly shutdowns: number;
  /** How long the database stays cut in the outage scenario. */
  readonly outageSeconds: number;
  /** A start after a crash must answer 200 on /api/health within this. */
  readonly restartBudgetMs: number;
  /** Where fresh PostgreSQL databases are created (and dropped): the server's URL with any database. */
  readonly postgresUrl: string;
}

export const USAGE = `Usage: npm run soak [-- --quick] [--only crash,load,...] [--db pglite|postgres]

  --quick      shorter versions for development: 3 kills, 10 s loads, one shutdown
  --only LIST  run only these scenarios: ${SCENARIOS.join(', ')}
  --db KIND    only one database (default: both)

PostgreSQL: SOAK_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres;
a fresh database is created there per scenario and dropped after. Unreachable: those rows say skipped.`;

export function configFromArgs(argv: readonly string[], env: NodeJS.ProcessEnv): SoakConfig {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      db: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const scenarios = values.only ? values.only.split(',').map((s) => s.trim()) : [...SCENARIOS];
  for (const s of scenarios) if (!(SCENARIOS as readonly string[]).includes(s)) throw new Error(`Unknown scenario "${s}".\n\n${USAGE}`);
  const databases: DatabaseKind[] = values.db ? [values.db as DatabaseKind] : ['pglite', 'postgres'];
  if (!databases.every((d) => d === 'pglite' || d === 'postgres')) throw new Error('--db must be pglite or postgres.');
  const quick = values.quick;
  return {
    quick,
    scenarios: scenarios as ScenarioName[],
    databases,
    kills: quick ? 3 : 20,
    writeSecondsBetweenKills: quick ? [1, 2] : [1.5, 3],
    writers: 10,
    loadClients: 100,
    loadSeconds: quick ? 10 : 60,
    loadRuns: 3,
    shutdowns: quick ? 1 : 3,
    outageSeconds: quick ? 4 : 10,
    restartBudgetMs: 30_000,
    postgresUrl: env.SOAK_DATABASE_URL || env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  };
}

/** What every scenario gets. */
export interface Context {
  readonly root: string;
  readonly config: SoakConfig;
  /** Where server logs go (outside the repository). */
  readonly logDir: string;
  /** Null when no PostgreSQL answered at the start. */
  readonly postgresVersion: string | null;
  log(message: string): void;
  /** A fresh log file name for one server start. */
  logFile(name: string): string;
}

export const DB_LABEL: Readonly<Record<DatabaseKind, string>> = { pglite: 'PGlite', postgres: 'PostgreSQL' };
