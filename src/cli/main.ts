import { parseArgs } from 'node:util';
import { SingleBar, Presets } from 'cli-progress';
import { openEngine } from '@/engine/open-engine';
import { seedDemoData, DEMO_PASSWORD } from '@/engine/seed/seed-demo-data';
import { describeMarkdown } from '@/engine/spec/describe';
import { loadSpecFile } from '@/engine/spec/load-file';
import { settingsFromEnv } from '@/engine/settings';

const USAGE = `Usage: npm run ninefold -- <command> [options]

Commands:
  describe                      Print the running spec as the nine-point Markdown document
  migrate [--allow-destructive] Bring the database schema in line with the spec
  seed --count N                Fill the spec's entities with realistic demo data

The spec is NINEFOLD_SPEC (default examples/helpdesk/ninefold.spec.ts); the database is
DATABASE_URL, or the embedded one in DATA_DIR (default ./.data).`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const settings = settingsFromEnv(process.env);
  switch (command) {
    case 'describe': {
      process.stdout.write(describeMarkdown(await loadSpecFile(settings.specPath)));
      return 0;
    }
    case 'migrate': {
      const { values } = parseArgs({ args: rest, options: { 'allow-destructive': { type: 'boolean', default: false } } });
      const engine = await openEngine(settings, { allowDestructive: values['allow-destructive'] });
      await engine.close();
      console.log(`The ${engine.store.kind} database matches the spec "${engine.model.name}".`);
      return 0;
    }
    case 'seed': {
      const { values } = parseArgs({ args: rest, options: { count: { type: 'string', default: '1000' } } });
      const count = Number(values.count);
      if (!Number.isInteger(count) || count < 1 || count > 10_000_000) {
        console.error('--count must be a whole number from 1 to 10000000.');
        return 2;
      }
      const engine = await openEngine(settings);
      try {
        const bar = new SingleBar({ format: 'Seeding [{bar}] {percentage}% | {value}/{total} rows | {eta}s left', stream: process.stderr }, Presets.shades_classic);
        const result = await seedDemoData(engine.model, engine.store.db, engine.identity, count, {
          start: (total) => bar.start(total, 0),
          advance: (n) => bar.increment(n),
          stop: () => bar.stop(),
        });
        const total = Object.values(result.rows).reduce((a, b) => a + b, 0);
        for (const [entity, n] of Object.entries(result.rows)) console.log(`  ${entity}: ${n} rows`);
        console.log(`Seeded ${total} rows in ${result.seconds.toFixed(1)} s (${Math.round(total / result.seconds)} rows/s).`);
        if (result.users.length) console.log(`Demo users (password "${DEMO_PASSWORD}"): ${result.users.map((u) => u.email).join(', ')}`);
      } finally {
        await engine.close();
      }
      return 0;
    }
    case undefined:
    case 'help':
    case '--help':
      console.log(USAGE);
      return command ? 0 : 2;
    default:
      console.error(`Unknown command "${command}".\n\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
