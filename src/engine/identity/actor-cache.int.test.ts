import { beforeAll, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { openSyncedQuickly } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createIdentity } from './identity';
import type { Identity } from './types';
import { SYSTEM_ACTOR } from './system-actor';

const model = buildModel(helpdesk);
const PASSWORD = 'correct horse battery staple';
let counter = 0;

/**
 * The actor of a session or API token is served from memory while this process writes nothing
 * (store/write-clock.ts). These prove both halves: a repeated lookup sends no statement, and
 * every change that must end or alter access does so on the very next lookup.
 */
forEachDatabase('actor lookups served from memory', (database) => {
  let store: Store;
  let identity: Identity;

  const statementsOf = async <T>(run: () => Promise<T>): Promise<{ value: T; statements: number }> => {
    const before = store.statementCount();
    const value = await run();
    return { value, statements: store.statementCount() - before };
  };
  const newUser = (roles: string[] = ['agent']) =>
    identity.createUser(SYSTEM_ACTOR, { email: `cached${++counter}@example.com`, password: PASSWORD, roles });

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    identity = createIdentity(store.db, Object.keys(model.roles));
  });

  it('looks a session up once, then from memory', async () => {
    const user = await newUser();
    const session = await identity.createSession(user.id);
    const first = await statementsOf(() => identity.actorForSession(session.token));
    expect(first.value).toEqual({ userId: user.id, email: user.email, name: user.name, roles: ['agent'] });
    const again = await statementsOf(() => identity.actorForSession(session.token));
    expect(again).toEqual({ value: first.value, statements: 0 });
  });

  it('ends a session at once when it signs out, and no other', async () => {
    const user = await newUser();
    const [session, other] = [await identity.createSession(user.id), await identity.createSession(user.id)];
    expect(await identity.actorForSession(session.token)).not.toBeNull();
    expect(await identity.actorForSession(other.token)).not.toBeNull();
    await identity.endSession(session.token);
    expect(await identity.actorForSession(session.token)).toBeNull();
    expect(await identity.actorForSession(other.token)).not.toBeNull();
  });

  it('stops a disabled user at once, by session and by token', async () => {
    const user = await newUser();
    const session = await identity.createSession(user.id);
    const { token } = await identity.createApiToken(user.id, { name: 'script' });
    for (let i = 0; i < 2; i++) {
      expect(await identity.actorForSession(session.token)).not.toBeNull();
      expect(await identity.actorForApiToken(token)).not.toBeNull();
    }
    await identity.disableUser(SYSTEM_ACTOR, user.id);
    expect(await identity.actorForSession(session.token)).toBeNull();
    expect(await identity.actorForApiToken(token)).toBeNull();
  });

  it('stops a user disabled by a direct write through the store (any write ends what is kept)', async () => {
    const user = await newUser();
    const session = await identity.createSession(user.id);
    await identity.actorForSession(session.token);
    await identity.actorForSession(session.token);
    await store.db.updateTable('nf_user').set({ disabled_at: new Date() }).where('id', '=', user.id).execute();
    expect(await identity.actorForSession(session.token)).toBeNull();
  });

  it('gives the new roles and name on the next lookup after they change', async () => {
    const user = await newUser(['agent']);
    const session = await identity.createSession(user.id);
    const { token } = await identity.createApiToken(user.id, { name: 'script' });
    expect((await identity.actorForSession(session.token))?.roles).toEqual(['agent']);
    expect((await identity.actorForApiToken(token))?.roles).toEqual(['agent']);
    await identity.setRoles(SYSTEM_ACTOR, user.id, ['customer']);
    expect((await identity.actorForSession(session.token))?.roles).toEqual(['customer']);
    expect((await identity.actorForApiToken(token))?.roles).toEqual(['customer']);
    await identity.updateProfile(user.id, { name: 'Renamed' });
    expect((await identity.actorForSession(session.token))?.name).toBe('Renamed');
  });

  it('refuses a revoked token at once', async () => {
    const user = await newUser();
    const issued = await identity.createApiToken(user.id, { name: 'short-lived' });
    expect(await identity.actorForApiToken(issued.token)).not.toBeNull();
    expect(await identity.actorForApiToken(issued.token)).not.toBeNull();
    await identity.revokeApiToken(user.id, issued.id);
    expect(await identity.actorForApiToken(issued.token)).toBeNull();
  });

  it('ends every session at once when the password changes', async () => {
    const user = await newUser();
    const session = await identity.createSession(user.id);
    expect(await identity.actorForSession(session.token)).not.toBeNull();
    const renewed = await identity.changePassword(user.id, PASSWORD, 'another long password');
    expect(await identity.actorForSession(session.token)).toBeNull();
    expect(await identity.actorForSession(renewed.token)).not.toBeNull();
  });

  it('checks the idle timeout on every lookup, also of a session kept in memory', async () => {
    // 0.002 minutes: idle after 120 ms, touched after 60 ms.
    const quick = createIdentity(store.db, Object.keys(model.roles), { sessionIdleMinutes: 0.002 });
    const user = await newUser();
    const session = await quick.createSession(user.id);
    expect(await quick.actorForSession(session.token)).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await quick.actorForSession(session.token)).toBeNull();
  });
});
