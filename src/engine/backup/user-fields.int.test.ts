import { afterAll, expect, it } from 'vitest';
import { createIdentity } from '../identity/identity';
import { teamsSpec } from '@testing/engine/user-fields';
import { seedEmptyPglite } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import { openStore } from '../store/open-store';
import { syncSchema } from '../store/schema/sync';
import { forEachDatabase, type TestDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { exportBackup } from './export';
import { importBackup } from './import';
import { SYSTEM_ACTOR } from '../identity/system-actor';

const model = buildModel(teamsSpec);

async function freshStore(database: TestDatabase, opened: Store[]): Promise<Store> {
  const options = await database.freshOptions();
  if (database.kind === 'pglite') await seedEmptyPglite(options.dataDir);
  const store = await openStore(options);
  opened.push(store);
  await syncSchema(store, model);
  return store;
}

/**
 * The user fields live on nf_user, and a reference field points from nf_user at an entity
 * table that points back at nf_user (created_by): a cycle, which the import must still restore.
 */
forEachDatabase('backup: user fields', (database) => {
  const opened: Store[] = [];
  afterAll(async () => {
    await Promise.allSettled(opened.map((s) => s.close()));
  });

  it('carries every user field across a round trip, references into entity tables included', async () => {
    const source = await freshStore(database, opened);
    const identity = createIdentity(source.db, Object.keys(model.roles), {}, model);
    const admin = await identity.createUser(SYSTEM_ACTOR, {
      email: 'root@example.com',
      password: 'a long admin password',
      roles: ['admin', 'manager'],
    });
    const team = Number(
      (await source.db.insertInto('team').values({ name: 'Red', created_by: admin.id }).returning('id').executeTakeFirstOrThrow()).id,
    );
    await identity.setUserFields(SYSTEM_ACTOR, admin.id, { team, boss: admin.id, level: 'senior', desk: 7, remote: true });
    const lines: string[] = [];
    for await (const line of exportBackup(source.db, { kind: source.kind })) lines.push(line);

    const target = await freshStore(database, opened);
    await importBackup(
      target.db,
      (async function* () {
        yield* lines;
      })(),
      { model },
    );
    const restored = createIdentity(target.db, Object.keys(model.roles), {}, model);
    expect((await restored.listUsers(SYSTEM_ACTOR)).map((u) => u.fields)).toEqual([
      { team, boss: admin.id, level: 'senior', desk: 7, remote: true },
    ]);
    const session = (await restored.signIn('root@example.com', 'a long admin password', { ip: '192.0.2.9' })).session;
    expect((await restored.actorForSession(session.token))?.fields).toEqual({
      team,
      boss: admin.id,
      level: 'senior',
      desk: 7,
      remote: true,
    });
    expect((await syncSchema(target, model)).changed).toBe(false);
  }, 120_000);
});
