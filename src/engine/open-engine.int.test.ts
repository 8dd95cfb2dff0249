import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Engine } from './engine';
import { seedEmptyPglite } from '@testing/engine/ops';
import { openEngine } from './open-engine';
import type { Actor } from './ground/actor';
import type { Settings } from './settings';
import { loadSpecFile } from './spec/load-file';
import type { AppModel } from './spec/model';
import { SchemaChangeRefused } from './store/schema/sync';
import { forEachDatabase } from '@testing/engine/store';
import { withStore, type TestEngine } from '@testing/engine/engine';
import { SYSTEM_ACTOR } from './identity/system-actor';

const SPEC_PATH = path.resolve(process.cwd(), 'examples/helpdesk/ninefold.spec.ts');

forEachDatabase('openEngine', (database) => {
  let settings: Settings;
  let model: AppModel;
  const opened: TestEngine[] = [];

  async function open(overrides: Partial<Settings> = {}, options: Parameters<typeof openEngine>[1] = {}): Promise<TestEngine> {
    const engine = withStore(await openEngine({ ...settings, ...overrides }, options));
    opened.push(engine);
    return engine;
  }

  async function actorOf(engine: Engine, email: string): Promise<Actor> {
    const user = (await engine.identity.listUsers(SYSTEM_ACTOR)).find((u) => u.email === email)!;
    return { userId: user.id, email: user.email, name: user.name, roles: user.roles };
  }

  beforeAll(async () => {
    const options = await database.options();
    if (database.kind === 'pglite') await seedEmptyPglite(options.dataDir);
    model = await loadSpecFile(SPEC_PATH);
    settings = {
      root: process.cwd(),
      specPath: SPEC_PATH,
      dataDir: options.dataDir,
      ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
      adminEmail: 'Admin@Example.com',
      adminPassword: 'first admin password',
    };
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((engine) => engine.close()));
  });

  afterAll(async () => {
    await Promise.all(opened.splice(0).map((engine) => engine.close()));
  });

  it('creates no user without both admin settings', async () => {
    const engine = await open({ adminPassword: undefined });
    expect(await engine.identity.hasUsers()).toBe(false);
  });

  it('loads the spec, syncs the schema, creates the first admin once, and keeps the data across a reopen', async () => {
    const first = await open();
    expect(first.store.kind).toBe(database.kind);
    expect(first.model.name).toBe('helpdesk');
    expect(await first.identity.listUsers(SYSTEM_ACTOR)).toEqual([
      // The helpdesk keeps each user's organization (users.fields): none yet.
      {
        id: expect.any(Number),
        email: 'admin@example.com',
        name: 'Administrator',
        roles: ['admin'],
        disabled: false,
        createdAt: expect.any(Date),
        disabledAt: null,
        fields: { organization: null },
      },
    ]);
    expect(await first.identity.verifyCredentials('admin@example.com', 'first admin password')).not.toBeNull();
    const admin = await actorOf(first, 'admin@example.com');
    // The admin files a ticket for a customer: a ticket's requester is always one.
    const caller = await first.identity.createUser(admin, {
      email: 'caller@example.com',
      password: 'correct horse battery',
      name: 'Cleo Caller',
      roles: ['customer'],
    });
    const organization = await first.ops.create(admin, 'organization', { name: 'Kept Corp' });
    const ticket = await first.ops.create(admin, 'ticket', {
      subject: 'Survives a restart',
      organization: organization.id,
      requester: caller.id,
    });
    await first.close();
    await first.close();

    const second = await open({ adminEmail: 'other-admin@example.com', adminPassword: 'another password' });
    // The first admin alone was made from the settings (the customer is the admin's): the second settings make no one.
    expect((await second.identity.listUsers(SYSTEM_ACTOR)).map((u) => u.email).sort()).toEqual(['admin@example.com', 'caller@example.com']);
    expect(await second.identity.verifyCredentials('other-admin@example.com', 'another password')).toBeNull();
    const view = await second.ops.get(admin, 'ticket', ticket.id);
    expect(view.record).toEqual(ticket);
    expect(view.references.organization).toEqual({ [organization.id]: 'Kept Corp' });
    expect(view.references.requester?.[caller.id]).toBe('Cleo Caller');
  });

  it('refuses a spec change that would lose data, or a second engine on an open data directory; releases the database', async () => {
    const withoutComments: AppModel = {
      ...model,
      entities: model.entities.filter((e) => e.name !== 'comment'),
      entitiesByName: Object.fromEntries(model.entities.filter((e) => e.name !== 'comment').map((e) => [e.name, e])),
      navigation: model.navigation.filter((e) => e.name !== 'comment'),
    };
    await expect(openEngine(settings, { model: withoutComments })).rejects.toBeInstanceOf(SchemaChangeRefused);
    const engine = await open();
    expect(engine.model.entitiesByName.comment).toBeDefined();
    expect(await engine.identity.hasUsers()).toBe(true);

    if (database.kind === 'pglite') {
      // A second engine on the same data directory while this one is open is refused...
      await expect(openEngine(settings)).rejects.toThrow(/in use/);
      // ...without disturbing the first, nor keeping the directory once the first closes.
      const admin = await actorOf(engine, 'admin@example.com');
      expect((await engine.ops.list(admin, 'organization')).rows.length).toBeGreaterThan(0);
      await engine.close();
      const again = await open();
      expect((await again.ops.list(admin, 'organization')).rows.length).toBeGreaterThan(0);
    }
  });
});
