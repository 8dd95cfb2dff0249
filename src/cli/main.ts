import { parseArgs } from 'node:util';
import { SingleBar, Presets } from 'cli-progress';
import type { Engine } from '@/engine/engine';
import { asNinefoldError } from '@/engine/errors/ninefold-error';
import { normalizeEmail } from '@/engine/identity/identity';
import { setupCodeMessage } from '@/engine/identity/setup-code';
import { openEngine } from '@/engine/open-engine';
import { DEMO_PASSWORD } from '@/engine/seed/seed-demo-data';
import { importCommand } from './import-command';
import { backupImportCommand, exportCommand } from './backup-command';
import { userCommand } from './user-command';
import { describeMarkdown } from '@/engine/spec/describe';
import { loadSpecFile } from '@/engine/spec/load-file';
import { settingsFromEnv } from '@/engine/settings';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

const USAGE = `Usage: npm run ninefold -- <command> [options]

Commands:
  describe                      Print the running spec as the nine-point Markdown document
  migrate [--allow-destructive] Bring the database schema in line with the spec
  seed --count N                Fill the spec's entities with realistic demo data
  user add --email E --password P --role R [--role R2] [--name N] [--field name=value ...]
                                Create an account (roles of the spec, or admin), with values
                                of the spec's user fields (users.fields), e.g. --field team=3
  user set --email E --field name=value [--field ...]
                                Set user fields of an account (--field team= clears one)
  user list                     List the accounts: email, name, roles, disabled, fields
  user disable --email E        Disable an account: its sessions end and its API
                                tokens are revoked at once
  user enable --email E         Let a disabled account sign in again
  setup-code                    While there is no user: print a new one-time code for /setup
                                (the server prints one in its log when it starts)
  token create --email E --name N [--days D]
                                Create a personal API token for that user (printed once;
                                send it as "Authorization: Bearer <token>"); --days: expiry
  token list --email E          List that user's API tokens
  token revoke --email E --id N Revoke one of that user's API tokens
  import <entity> <file.csv> [--as E] [--good-rows]
                                Create records from a CSV file (header row: field names or
                                labels), checked as the user E would create them (default:
                                the first administrator). Refused rows are listed by line and
                                nothing is written, unless --good-rows writes the others
  export [--out backup.jsonl]   Write the whole database (records, history, users, tokens,
                                invitations, saved views; not sessions) as JSON lines, to
                                the file or to standard output
  import <backup.jsonl>         Restore such a backup into an empty database synced for the
                                same spec, all or nothing (the way from PGlite to PostgreSQL)

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
      const engine = await openEngine(settings, { allowDestructive: values['allow-destructive'], compareCatalogue: true });
      await engine.close();
      console.log(`The ${engine.databaseKind} database matches the spec "${engine.model.name}".`);
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
        const bar = new SingleBar(
          { format: 'Seeding [{bar}] {percentage}% | {value}/{total} rows | {eta}s left', stream: process.stderr },
          Presets.shades_classic,
        );
        const result = await engine.seedDemo(count, {
          start: (total) => bar.start(total, 0),
          advance: (n) => bar.increment(n),
          stop: () => bar.stop(),
        });
        const total = Object.values(result.rows).reduce((a, b) => a + b, 0);
        for (const [entity, n] of Object.entries(result.rows)) {
          const short = result.short.find((s) => s.entity === entity);
          console.log(`  ${entity}: ${n} rows${short ? ` of ${short.planned} planned (${short.reason})` : ''}`);
        }
        console.log(`Seeded ${total} rows in ${result.seconds.toFixed(1)} s (${Math.round(total / result.seconds)} rows/s).`);
        if (result.users.length) console.log(`Demo users (password "${DEMO_PASSWORD}"): ${result.users.map((u) => u.email).join(', ')}`);
      } finally {
        await engine.close();
      }
      return 0;
    }
    case 'user':
      return userCommand(rest, () => openEngine(settings));
    case 'setup-code':
      return setupCodeCommand(settings);
    case 'token':
      return tokenCommand(rest, settings);
    case 'import':
      // One argument is a backup (`import <backup.jsonl>`); a CSV import names its entity first.
      return rest.length === 1 && rest[0] !== undefined && !rest[0].startsWith('-')
        ? backupImportCommand(rest, settings)
        : importCommand(rest, settings);
    case 'export':
      return exportCommand(rest, settings);
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

async function setupCodeCommand(settings: ReturnType<typeof settingsFromEnv>): Promise<number> {
  const engine = await openEngine(settings);
  try {
    if (await engine.identity.hasUsers()) {
      console.error('This application already has users: no setup code is needed. Sign in, or ask an administrator for an invitation.');
      return 1;
    }
    console.log(setupCodeMessage(await engine.identity.issueSetupCode()));
    return 0;
  } finally {
    await engine.close();
  }
}

async function userIdByEmail(engine: Engine, email: string): Promise<number | null> {
  const wanted = normalizeEmail(email);
  return (await engine.identity.listUsers(SYSTEM_ACTOR)).find((u) => u.email === wanted)?.id ?? null;
}

async function tokenCommand(argv: string[], settings: ReturnType<typeof settingsFromEnv>): Promise<number> {
  const [action, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { email: { type: 'string' }, name: { type: 'string' }, days: { type: 'string' }, id: { type: 'string' } },
  });
  if (!['create', 'list', 'revoke'].includes(action ?? '') || !values.email) {
    console.error(`Usage: token create --email E --name N [--days D] | token list --email E | token revoke --email E --id N`);
    return 2;
  }
  let expiresAt: Date | null = null;
  if (values.days !== undefined) {
    const days = Number(values.days);
    if (!Number.isInteger(days) || days < 1 || days > 3650) {
      console.error('--days must be a whole number from 1 to 3650.');
      return 2;
    }
    expiresAt = new Date(Date.now() + days * 24 * 60 * 60 * 1000);
  }
  const engine = await openEngine(settings);
  try {
    const userId = await userIdByEmail(engine, values.email);
    if (userId === null) {
      console.error(`No user with the email ${values.email}.`);
      return 1;
    }
    if (action === 'create') {
      const issued = await engine.identity.createApiToken(userId, { name: values.name ?? '', expiresAt });
      console.error(
        `Token #${issued.id} "${issued.name}" for ${values.email}, ${issued.expiresAt ? `expires ${issued.expiresAt.toISOString()}` : 'no expiry'}.`,
      );
      console.error('It is shown this once; keep it secret. Send it as "Authorization: Bearer <token>".');
      console.log(issued.token);
    } else if (action === 'list') {
      for (const t of await engine.identity.listApiTokens(userId)) {
        const status = t.revokedAt ? 'revoked' : t.expiresAt && t.expiresAt <= new Date() ? 'expired' : 'active';
        const used = t.lastUsedAt ? `last used ${t.lastUsedAt.toISOString()}` : 'never used';
        console.log(`#${t.id}\t${status}\t${t.name}\tcreated ${t.createdAt.toISOString()}\t${used}`);
      }
    } else {
      await engine.identity.revokeApiToken(userId, Number(values.id));
      console.log(`Token #${values.id} revoked.`);
    }
    return 0;
  } finally {
    await engine.close();
  }
}

/** A refusal with field errors reads as its fields' messages ("email: A user with this email already exists."). */
function errorText(error: unknown): string {
  const known = asNinefoldError(error);
  if (known && known.fieldErrors.length > 0) return known.fieldErrors.map((e) => `${e.field}: ${e.message}`).join('\n');
  return error instanceof Error ? error.message : String(error);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(errorText(error));
    process.exit(1);
  },
);
