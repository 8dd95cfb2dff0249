/**
 * `npm run soak` (full, ~20 minutes) and `npm run soak -- --quick`: faults and load, end to end.
 * Starts real servers the way a user does, on PGlite and PostgreSQL, kills them, cuts their
 * database, loads them, stops them, backs them up, and checks that nothing acknowledged was lost.
 * Prints a table, writes soak/results/<date>.json, exits non-zero when a scenario failed.
 * See README "Soak".
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIsCurrent, sourceFingerprint, timedBuild } from '../bench/lib/build';
import { postgresVersion } from '../bench/lib/databases';
import { cleanUpEverything, installSignalHandlers } from '../bench/lib/processes';
import { configFromArgs, DB_LABEL, type Context, type DatabaseKind, type ScenarioName } from './lib/context';
import { renderTable, row, writeResults, type Row } from './lib/report';
import { SOAK_SPEC } from './lib/server';
import { backupScenario } from './scenarios/backup';
import { crashScenario } from './scenarios/crash';
import { loadScenario } from './scenarios/load';
import { outageScenario, partitionScenario } from './scenarios/outage';
import { secondProcessScenario } from './scenarios/second-process';
import { shutdownScenario } from './scenarios/shutdown';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const began = performance.now();

function log(message: string): void {
  process.stderr.write(`[soak ${((performance.now() - began) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);
}

/** Each scenario, on the databases it applies to. */
const PLAN: readonly { name: ScenarioName; databases: readonly DatabaseKind[]; run: (ctx: Context, kind: DatabaseKind) => Promise<Row> }[] =
  [
    { name: 'crash', databases: ['pglite', 'postgres'], run: crashScenario },
    { name: 'second-process', databases: ['pglite'], run: secondProcessScenario },
    { name: 'outage', databases: ['postgres'], run: outageScenario },
    { name: 'partition', databases: ['postgres'], run: partitionScenario },
    { name: 'load', databases: ['pglite', 'postgres'], run: loadScenario },
    { name: 'shutdown', databases: ['pglite', 'postgres'], run: shutdownScenario },
    { name: 'backup', databases: ['pglite', 'postgres'], run: backupScenario },
  ];

async function main(): Promise<number> {
  installSignalHandlers();
  const config = configFromArgs(process.argv.slice(2), process.env);
  const logDir = path.join(os.tmpdir(), `nf-soak-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(logDir, { recursive: true });
  let logs = 0;
  const pg = await postgresVersion(config.postgresUrl);
  const ctx: Context = {
    root,
    config,
    logDir,
    postgresVersion: pg,
    log,
    logFile: (name) => path.join(logDir, `${String(++logs).padStart(3, '0')}-${name}.log`),
  };
  log(`${config.quick ? 'quick' : 'full'} run; server logs in ${logDir}`);
  log(
    `spec ${SOAK_SPEC}: the helpdesk with apiRateLimitPerMinute and apiRateLimitPerIpPerMinute raised to 1,000,000 (constants), so the limiter does not refuse the load`,
  );
  log(
    pg
      ? `PostgreSQL ${pg} at ${new URL(config.postgresUrl).host}`
      : `no PostgreSQL at ${new URL(config.postgresUrl).host}: its rows are skipped`,
  );

  const fingerprint = sourceFingerprint(root);
  if (!buildIsCurrent(root, fingerprint)) {
    log('building the app (sources changed since the last build)...');
    const built = await timedBuild(root);
    log(`built in ${built.seconds.toFixed(0)} s`);
  }

  const rows: Row[] = [];
  for (const step of PLAN) {
    if (!config.scenarios.includes(step.name)) continue;
    for (const kind of step.databases) {
      if (!config.databases.includes(kind)) continue;
      if (kind === 'postgres' && !pg) {
        rows.push(
          row({
            scenario: step.name,
            database: DB_LABEL[kind],
            tried: '-',
            lost: null,
            figures: '',
            result: 'skipped',
            problems: ['skipped: no PostgreSQL'],
          }),
        );
        continue;
      }
      log(`${step.name} on ${DB_LABEL[kind]}...`);
      const started = performance.now();
      let result: Row;
      try {
        result = await step.run(ctx, kind);
      } catch (error) {
        result = row({
          scenario: step.name,
          database: DB_LABEL[kind],
          tried: '-',
          lost: null,
          figures: '',
          problems: [error instanceof Error ? error.message : String(error)],
        });
      }
      rows.push(result);
      const [firstProblem] = result.problems;
      log(
        `${step.name} on ${DB_LABEL[kind]}: ${result.result} in ${((performance.now() - started) / 1000).toFixed(0)} s${firstProblem !== undefined ? ` (${firstProblem.slice(0, 200)})` : ''}`,
      );
    }
  }

  const table = renderTable(rows);
  console.log(`\n## Soak (${config.quick ? 'quick' : 'full'}), ${new Date().toISOString()}\n\n${table}\n`);
  const file = writeResults(root, config.quick, {
    mode: config.quick ? 'quick' : 'full',
    finishedAt: new Date().toISOString(),
    durationSeconds: Math.round((performance.now() - began) / 1000),
    machine: { cpus: os.cpus().length, memoryMb: Math.round(os.totalmem() / 2 ** 20), node: process.version, postgres: pg },
    spec: SOAK_SPEC,
    rateLimits: 'apiRateLimitPerMinute and apiRateLimitPerIpPerMinute raised to 1,000,000 by the spec constants',
    config: { ...config, postgresUrl: withoutPassword(config.postgresUrl) },
    rows,
  });
  log(`results written to ${path.relative(root, file)}`);
  return rows.some((r) => r.result === 'FAIL') ? 1 : 0;
}

/** A database URL as it may be written down: any password replaced. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}

main()
  .then(async (code) => {
    await cleanUpEverything();
    process.exit(code);
  })
  .catch(async (error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    await cleanUpEverything();
    process.exit(1);
  });
