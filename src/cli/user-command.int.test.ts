import { beforeAll, expect, it } from 'vitest';
import type { TestEngine } from '@testing/engine/engine';
import { NinefoldError } from '@/engine/errors/ninefold-error';
import { teamsSpec } from '@testing/engine/user-fields';
import { openSyncedQuickly } from '@testing/engine/ops';
import { buildModel } from '@/engine/spec/build';
import { engineOnStore } from '@testing/engine/store-outage';
import { forEachDatabase } from '@testing/engine/store';
import { userCommand } from './user-command';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

const model = buildModel(teamsSpec);

forEachDatabase('the CLI: user add and user set with --field', (database) => {
  let engine: TestEngine;
  let team: number;

  /** Runs `user ...` against the suite's engine (kept open: the command closes what it opened). */
  const run = async (...argv: string[]) => {
    const out = { log: [] as string[], error: [] as string[] };
    const io = { log: (line: string) => out.log.push(line), error: (line: string) => out.error.push(line) };
    let code: number;
    try {
      // argv as typed after `npm run ninefold --`; main.ts hands userCommand what follows "user".
      code = await userCommand(argv.slice(1), async () => ({ ...engine, close: async () => {} }), io);
    } catch (error) {
      // main.ts prints a refusal's field messages and exits 1.
      if (!(error instanceof NinefoldError)) throw error;
      out.error.push(...error.fieldErrors.map((e) => `${e.field}: ${e.message}`), ...(error.fieldErrors.length ? [] : [error.message]));
      code = 1;
    }
    return { code, ...out };
  };
  const fieldsOf = async (email: string) => (await engine.identity.listUsers(SYSTEM_ACTOR)).find((u) => u.email === email)?.fields;

  beforeAll(async () => {
    engine = engineOnStore(await openSyncedQuickly(database, model), model);
    team = Number((await engine.store.db.insertInto('team').values({ name: 'Red' }).returning('id').executeTakeFirstOrThrow()).id);
  });

  it('adds an account with fields, and lists them', async () => {
    const added = await run(
      'user',
      'add',
      '--email',
      'ann@example.com',
      '--password',
      'a long password',
      '--role',
      'member',
      '--field',
      `team=${team}`,
      '--field',
      'desk=4',
    );
    expect(added).toEqual({ code: 0, log: ['Created ann@example.com (ann) with roles: member.'], error: [] });
    expect(await fieldsOf('ann@example.com')).toEqual({ team, boss: null, level: 'junior', desk: 4, remote: null });
    const listed = await run('user', 'list');
    expect(listed.log).toContain(`ann@example.com\tann\tmember\tactive\tteam=${team} level=junior desk=4`);
  });

  it('sets and clears fields of an account', async () => {
    await run('user', 'add', '--email', 'bob@example.com', '--password', 'a long password', '--role', 'member');
    expect(await run('user', 'set', '--email', 'bob@example.com', '--field', `team=${team}`, '--field', 'remote=yes')).toEqual({
      code: 0,
      log: [`Saved the fields of bob@example.com: team=${team} level=junior remote=true.`],
      error: [],
    });
    expect(await run('user', 'set', '--email', 'BOB@example.com', '--field', 'team=')).toMatchObject({ code: 0 });
    expect(await fieldsOf('bob@example.com')).toMatchObject({ team: null, remote: true });
  });

  it('exits 1 with a clear message for unknown fields, bad values and unknown accounts, changing nothing', async () => {
    await run('user', 'add', '--email', 'cat@example.com', '--password', 'a long password', '--role', 'member');
    expect(await run('user', 'set', '--email', 'cat@example.com', '--field', 'squad=1')).toEqual({
      code: 1,
      log: [],
      error: ['squad: "squad" is not a user field (user fields: team, boss, level, desk, remote).'],
    });
    expect(await run('user', 'set', '--email', 'cat@example.com', '--field', 'team=999999', '--field', 'desk=lots')).toMatchObject({
      code: 1,
      error: ['team: Team: no record #999999.', 'desk: Desk must be a whole number.'],
    });
    expect(await run('user', 'set', '--email', 'cat@example.com', '--field', 'team')).toMatchObject({
      code: 1,
      error: [expect.stringMatching(/^--field takes name=value/)],
    });
    expect(await run('user', 'set', '--email', 'nobody@example.com', '--field', `team=${team}`)).toEqual({
      code: 1,
      log: [],
      error: ['No user with the email nobody@example.com.'],
    });
    expect(await fieldsOf('cat@example.com')).toEqual({ team: null, boss: null, level: 'junior', desk: null, remote: null });
    const refused = await run(
      'user',
      'add',
      '--email',
      'dan@example.com',
      '--password',
      'a long password',
      '--role',
      'member',
      '--field',
      'level=boss',
    );
    expect(refused).toMatchObject({ code: 1, error: ['level: Level must be one of: junior, senior.'] });
    expect(await fieldsOf('dan@example.com')).toBeUndefined();
  });

  it('answers usage mistakes with the usage (exit 2)', async () => {
    expect((await run('user', 'set', '--email', 'ann@example.com')).code).toBe(2);
    expect((await run('user', 'disable', '--email', 'ann@example.com', '--field', 'team=1')).code).toBe(2);
  });
});
