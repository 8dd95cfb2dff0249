import { beforeAll, expect, it } from 'vitest';
import { captureLog } from '../log';
import { ninefoldError, openSyncedQuickly } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { actorOfAccount } from '@testing/engine/accounts';
import { createIdentity } from './identity';
import { SYSTEM_ACTOR } from './system-actor';
import type { Identity, UserAccount } from './types';

/**
 * Accounts and invitations are the administrators': the engine refuses anyone else itself, with
 * the catalogue's FORBIDDEN, whatever door forgot to check, and changes nothing.
 */
const model = buildModel({
  name: 'accounts',
  roles: { agent: { label: 'Agent' } },
  users: { fields: { desk: { type: 'integer' } } },
});
const PASSWORD = 'correct horse battery staple';

forEachDatabase('identity: administrators only', (database) => {
  let store: Store;
  let identity: Identity;
  let agent: UserAccount;
  let colleague: UserAccount;
  let inviteId: number;

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    identity = createIdentity(store.db, Object.keys(model.roles), {}, model);
    agent = await identity.createUser(SYSTEM_ACTOR, { email: 'agent@example.com', password: PASSWORD, roles: ['agent'] });
    colleague = await identity.createUser(SYSTEM_ACTOR, { email: 'colleague@example.com', password: PASSWORD, roles: ['agent'] });
    inviteId = (await identity.createInvite(SYSTEM_ACTOR, { email: 'new@example.com', roles: ['agent'] })).id;
  });

  const state = async () => ({
    users: await identity.listUsers(SYSTEM_ACTOR),
    invites: await identity.listInvites(SYSTEM_ACTOR),
  });

  it('refuses every administrative operation to a non-administrator, logs it, and changes nothing', async () => {
    const actor = actorOfAccount(agent);
    const before = await state();
    const attempts: Record<string, () => Promise<unknown>> = {
      'list users': () => identity.listUsers(actor),
      'create user': () => identity.createUser(actor, { email: 'made@example.com', password: PASSWORD, roles: ['admin'] }),
      'disable user': () => identity.disableUser(actor, colleague.id),
      'enable user': () => identity.enableUser(actor, colleague.id),
      'set roles': () => identity.setRoles(actor, colleague.id, ['admin']),
      'set user fields': () => identity.setUserFields(actor, colleague.id, { desk: '7' }),
      invite: () => identity.createInvite(actor, { email: 'friend@example.com', roles: ['admin'] }),
      'list invitations': () => identity.listInvites(actor),
      'revoke invitation': () => identity.revokeInvite(actor, inviteId),
    };
    for (const [action, attempt] of Object.entries(attempts)) {
      const { result: error, lines } = await captureLog(() => ninefoldError(attempt()));
      expect(error.code, action).toBe('FORBIDDEN');
      expect(error.message, action).toBe('Only administrators may manage accounts and invitations.');
      expect(lines, action).toEqual([expect.objectContaining({ level: 'warn', msg: 'access refused', actor: agent.id, action })]);
    }
    expect(await state()).toEqual(before);
  });

  it('lets an administrator and the system actor do them, recording the administrator as the one who acted', async () => {
    const admin = await identity.createUser(SYSTEM_ACTOR, { email: 'admin@example.com', password: PASSWORD, roles: ['admin'] });
    const { lines } = await captureLog(() => identity.setRoles(actorOfAccount(admin), colleague.id, ['agent', 'admin']));
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'roles changed', userId: colleague.id, by: admin.id }));
    const bySystem = await captureLog(() => identity.setRoles(SYSTEM_ACTOR, colleague.id, ['agent']));
    expect(bySystem.lines).toContainEqual(expect.objectContaining({ msg: 'roles changed', userId: colleague.id, by: null }));
    expect((await identity.createInvite(actorOfAccount(admin), { email: 'friend@example.com', roles: ['agent'] })).email).toBe(
      'friend@example.com',
    );
    expect((await identity.listInvites(SYSTEM_ACTOR)).find((i) => i.email === 'friend@example.com')?.invitedBy).toBe(admin.id);
    const made = await identity.createUser(actorOfAccount(admin), { email: 'made@example.com', password: PASSWORD, roles: ['agent'] });
    expect((await identity.listUsers(SYSTEM_ACTOR)).find((u) => u.id === made.id)?.roles).toEqual(['agent']);
  });
});
