import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { REFUSED_ROWS_LISTED } from '@/engine/ops/create-many';
import { seedEmptyPglite } from '@testing/engine/ops';
import { openEngine } from '@/engine/open-engine';
import type { Settings } from '@/engine/settings';
import { forEachDatabase } from '@testing/engine/store';
import { importCommand } from './import-command';
import { withStore } from '@testing/engine/engine';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

const SPEC_PATH = path.resolve(process.cwd(), 'examples/helpdesk/ninefold.spec.ts');

forEachDatabase('the CLI: import streams the file, with the same row cap and bounded report as the page', (database) => {
  let settings: Settings;
  let folder: string;

  /** Runs `import ...` as typed after `npm run ninefold --`, with what it prints. */
  async function run(...argv: string[]): Promise<{ code: number; log: string[]; error: string[] }> {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const code = await importCommand(argv, settings);
    return { code, log: log.mock.calls.map((c) => String(c[0])), error: error.mock.calls.map((c) => String(c[0])) };
  }
  async function csvFile(name: string, text: string): Promise<string> {
    const file = path.join(folder, name);
    await writeFile(file, text);
    return file;
  }
  async function tickets(): Promise<number> {
    const engine = withStore(await openEngine(settings));
    try {
      return Number(
        (
          await engine.store.db
            .selectFrom('ticket')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    } finally {
      await engine.close();
    }
  }

  beforeAll(async () => {
    const options = await database.options();
    if (database.kind === 'pglite') await seedEmptyPglite(options.dataDir);
    folder = await mkdtemp(path.join(os.tmpdir(), 'nf-cli-import-'));
    settings = {
      root: process.cwd(),
      specPath: SPEC_PATH,
      dataDir: options.dataDir,
      ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
      adminEmail: 'admin@example.com',
      adminPassword: 'first admin password',
    };
    const engine = await openEngine(settings);
    await engine.identity.createUser(SYSTEM_ACTOR, { email: 'carl@example.com', password: 'a long password', roles: ['customer'] });
    await engine.close();
  });

  afterEach(() => vi.restoreAllMocks());

  it('refuses a customer’s file beyond their cap, naming it, and writes nothing', async () => {
    const flood = await csvFile('flood.csv', `Subject\n${'A flooding ticket\n'.repeat(20_000)}`);
    const answer = await run('ticket', flood, '--as', 'carl@example.com', '--good-rows');
    expect(answer.code).toBe(1);
    expect(answer.error).toContain(
      'The file has more than 1,000 rows; at most 1,000 tickets can be imported at once. Split it into smaller files.',
    );
    expect(await tickets()).toBe(0);
  });

  it('lists the first refused rows and counts the others', async () => {
    const rows = REFUSED_ROWS_LISTED + 500;
    const bad = await csvFile('bad.csv', `Subject\n${'xx\n'.repeat(rows)}`);
    const answer = await run('ticket', bad);
    expect(answer.code).toBe(1);
    expect(answer.error.filter((line) => line.startsWith('line '))).toHaveLength(REFUSED_ROWS_LISTED);
    expect(answer.error[0]).toBe('line 2: Subject: Subject must be at least 3 characters.');
    expect(answer.error.at(-1)).toBe('…and 500 more rows with problems, not listed.');
    expect(answer.log).toEqual([`Nothing imported: ${rows} of ${rows} rows were refused (above). Fix them and run again.`]);
    expect(await tickets()).toBe(0);
  });
});
