import { createHash } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { countRows, fieldCodes, ninefoldError, openSyncedQuickly } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createIdentity } from './identity';
import type { Identity, UserAccount } from './types';
import { SYSTEM_ACTOR } from './system-actor';
import { actorOfAccount } from '@testing/engine/accounts';

/** Accounts need no entity: a spec with roles is enough (and stays clear of the entities' own changes). */
const model = buildModel({
  name: 'accounts',
  roles: { agent: { label: 'Agent' }, customer: { label: 'Customer' } },
});
const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a brand new passphrase';
const IP = '203.0.113.7';

const sessionId = (token: string) => createHash('sha256').update(token).digest('hex');

forEachDatabase('identity: accounts', (database) => {
  let store: Store;
  let identity: Identity;
  let counter = 0;
  const newUser = async (roles: string[] = ['agent']): Promise<UserAccount> =>
    identity.createUser(SYSTEM_ACTOR, { email: `user${(counter += 1)}@example.com`, password: PASSWORD, roles, name: `User ${counter}` });
  const sessionsOf = async (userId: number) =>
    (await store.db.selectFrom('nf_session').select('id').where('user_id', '=', userId).execute()).length;

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    identity = createIdentity(store.db, Object.keys(model.roles), { sessionIdleMinutes: 60, sessionMaxDays: 2 });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  describe('sessions', () => {
    it('gives a new session id at every sign-in; the earlier one stays valid until it signs out', async () => {
      const user = await newUser();
      const first = await identity.signIn(user.email, PASSWORD, { ip: IP });
      const second = await identity.signIn(user.email, PASSWORD, { ip: IP });
      expect(first.session.token).not.toBe(second.session.token);
      expect(first.user).toEqual(user);
      expect(await identity.actorForSession(first.session.token)).toMatchObject({ userId: user.id });
      expect(await identity.actorForSession(second.session.token)).toMatchObject({ userId: user.id });
      await identity.endSession(first.session.token);
      expect(await identity.actorForSession(first.session.token)).toBeNull();
      expect(await identity.actorForSession(second.session.token)).toMatchObject({ userId: user.id });
    });

    it('ends a session left idle longer than sessionIdleMinutes, though the last-seen time is written only every few minutes', async () => {
      const user = await newUser();
      const { token } = await identity.createSession(user.id);
      const id = sessionId(token);
      const setLastSeen = (minutesAgo: number) =>
        store.db
          .updateTable('nf_session')
          .set({ last_seen_at: new Date(Date.now() - minutesAgo * 60_000) })
          .where('id', '=', id)
          .execute();

      // Within the idle timeout: still valid, and the visit counts as activity.
      await setLastSeen(59);
      expect(await identity.actorForSession(token)).not.toBeNull();
      const row = await store.db.selectFrom('nf_session').select('last_seen_at').where('id', '=', id).executeTakeFirstOrThrow();
      expect(Date.now() - (row.last_seen_at as Date).getTime()).toBeLessThan(60_000);

      // Seen 2 minutes ago (not written again within 5 minutes), still fine; past 60 minutes, ended.
      await setLastSeen(2);
      expect(await identity.actorForSession(token)).not.toBeNull();
      await setLastSeen(61);
      expect(await identity.actorForSession(token)).toBeNull();
    });

    it('keeps a session seen often alive across the idle timeout when the timeout is short', async () => {
      const short = createIdentity(store.db, Object.keys(model.roles), { sessionIdleMinutes: 4 });
      const user = await newUser();
      const { token } = await short.createSession(user.id);
      // 3 minutes idle of 4: the touch interval is at most half the timeout, so this visit writes.
      await store.db
        .updateTable('nf_session')
        .set({ last_seen_at: new Date(Date.now() - 3 * 60_000) })
        .where('id', '=', sessionId(token))
        .execute();
      expect(await short.actorForSession(token)).not.toBeNull();
      const row = await store.db
        .selectFrom('nf_session')
        .select('last_seen_at')
        .where('id', '=', sessionId(token))
        .executeTakeFirstOrThrow();
      expect(Date.now() - (row.last_seen_at as Date).getTime()).toBeLessThan(60_000);
    });

    it('ends a session sessionMaxDays after the sign-in, however active', async () => {
      const user = await newUser();
      const { token, expiresAt } = await identity.createSession(user.id);
      expect(expiresAt.getTime()).toBeGreaterThan(Date.now() + 2 * 86_400_000 - 60_000);
      expect(expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 2 * 86_400_000);
      const created = (hoursAgo: number) =>
        store.db
          .updateTable('nf_session')
          .set({ created_at: new Date(Date.now() - hoursAgo * 3_600_000) })
          .where('id', '=', sessionId(token))
          .execute();
      await created(47);
      expect(await identity.actorForSession(token)).not.toBeNull();
      // Active a minute ago, but signed in more than 2 days ago (expires_at notwithstanding).
      await created(49);
      expect(await identity.actorForSession(token)).toBeNull();
    });

    it('sweeps the ended sessions of a user when they sign in again', async () => {
      const user = await newUser();
      const old = await identity.createSession(user.id);
      await store.db
        .updateTable('nf_session')
        .set({ last_seen_at: new Date(Date.now() - 2 * 3_600_000) })
        .where('id', '=', sessionId(old.token))
        .execute();
      await identity.createSession(user.id);
      expect(await sessionsOf(user.id)).toBe(1);
    });
  });

  describe('disable and enable', () => {
    it('disables at once: every session and API token of the user stops working, others are untouched', async () => {
      const admin = await newUser(['admin']);
      const user = await newUser();
      const bystander = await newUser();
      const sessions = await Promise.all([1, 2].map(() => identity.createSession(user.id)));
      const tokens = await Promise.all(['one', 'two'].map((name) => identity.createApiToken(user.id, { name })));
      const theirs = await identity.createSession(bystander.id);
      const theirToken = await identity.createApiToken(bystander.id, { name: 'keep' });

      const disabled = await identity.disableUser(actorOfAccount(admin), user.id);
      expect(disabled).toMatchObject({ id: user.id, disabled: true });
      for (const session of sessions) expect(await identity.actorForSession(session.token)).toBeNull();
      for (const token of tokens) expect(await identity.actorForApiToken(token.token)).toBeNull();
      expect(await sessionsOf(user.id)).toBe(0);
      expect((await identity.listApiTokens(user.id)).every((t) => t.revokedAt instanceof Date)).toBe(true);
      expect(await identity.actorForSession(theirs.token)).not.toBeNull();
      expect(await identity.actorForApiToken(theirToken.token)).not.toBeNull();

      expect((await ninefoldError(identity.signIn(user.email, PASSWORD, { ip: IP }))).code).toBe('UNAUTHENTICATED');
      const listed = (await identity.listUsers(SYSTEM_ACTOR)).find((u) => u.id === user.id)!;
      expect(listed.disabled).toBe(true);
      expect(listed.disabledAt).toBeInstanceOf(Date);
      // Again is harmless and keeps the first time.
      await identity.disableUser(actorOfAccount(admin), user.id);
      expect((await identity.listUsers(SYSTEM_ACTOR)).find((u) => u.id === user.id)!.disabledAt).toEqual(listed.disabledAt);
    });

    it('enables again: the user signs in, while the revoked tokens stay revoked', async () => {
      const user = await newUser();
      const token = await identity.createApiToken(user.id, { name: 'old' });
      await identity.disableUser(SYSTEM_ACTOR, user.id);
      expect(await identity.enableUser(SYSTEM_ACTOR, user.id)).toMatchObject({ id: user.id, disabled: false });
      const { session } = await identity.signIn(user.email, PASSWORD, { ip: IP });
      expect(await identity.actorForSession(session.token)).toMatchObject({ userId: user.id });
      expect(await identity.actorForApiToken(token.token)).toBeNull();
    });

    it('refuses to disable oneself, and an unknown user', async () => {
      const admin = await newUser(['admin']);
      const { token } = await identity.createSession(admin.id);
      expect((await ninefoldError(identity.disableUser(actorOfAccount(admin), admin.id))).code).toBe('FORBIDDEN');
      expect(await identity.actorForSession(token)).not.toBeNull();
      expect((await ninefoldError(identity.disableUser(SYSTEM_ACTOR, 987_654))).code).toBe('NOT_FOUND');
      expect((await ninefoldError(identity.enableUser(SYSTEM_ACTOR, 987_654))).code).toBe('NOT_FOUND');
    });
  });

  describe('roles and profile', () => {
    it('sets known roles (admin always known), in a stable order, effective on the next request', async () => {
      const user = await newUser(['customer']);
      const { token } = await identity.createSession(user.id);
      expect(await identity.setRoles(SYSTEM_ACTOR, user.id, ['customer', 'agent', 'admin', 'agent'])).toMatchObject({
        roles: ['admin', 'agent', 'customer'],
      });
      expect(await identity.actorForSession(token)).toMatchObject({ roles: ['admin', 'agent', 'customer'] });
      expect(await identity.setRoles(SYSTEM_ACTOR, user.id, [])).toMatchObject({ roles: [] });
    });

    it('refuses an unknown role, an unknown user, and an administrator taking admin from themselves', async () => {
      const admin = await newUser(['admin']);
      const user = await newUser(['agent']);
      const unknown = await ninefoldError(identity.setRoles(SYSTEM_ACTOR, user.id, ['agent', 'wizard']));
      expect(unknown.code).toBe('VALIDATION_FAILED');
      expect(fieldCodes(unknown)).toEqual(['roles:unknown_role']);
      expect((await identity.listUsers(SYSTEM_ACTOR)).find((u) => u.id === user.id)!.roles).toEqual(['agent']);
      expect((await ninefoldError(identity.setRoles(SYSTEM_ACTOR, 987_654, ['agent']))).code).toBe('NOT_FOUND');
      expect((await ninefoldError(identity.setRoles(actorOfAccount(admin), admin.id, ['agent']))).code).toBe('FORBIDDEN');
      expect(await identity.setRoles(actorOfAccount(admin), admin.id, ['admin', 'agent'])).toMatchObject({ roles: ['admin', 'agent'] });
    });

    it('changes the name (trimmed), and refuses an empty or overlong one', async () => {
      const user = await newUser();
      expect(await identity.updateProfile(user.id, { name: '  Grace Hopper ' })).toMatchObject({ name: 'Grace Hopper' });
      expect(fieldCodes(await ninefoldError(identity.updateProfile(user.id, { name: '   ' })))).toEqual(['name:required']);
      expect(fieldCodes(await ninefoldError(identity.updateProfile(user.id, { name: 'x'.repeat(201) })))).toEqual(['name:too_big']);
      expect((await identity.listUsers(SYSTEM_ACTOR)).find((u) => u.id === user.id)!.name).toBe('Grace Hopper');
    });
  });

  describe('password change', () => {
    it('needs the current password; a wrong one changes nothing', async () => {
      const user = await newUser();
      const { token } = await identity.createSession(user.id);
      const wrong = await ninefoldError(identity.changePassword(user.id, 'not my password', NEW_PASSWORD));
      expect(wrong.code).toBe('VALIDATION_FAILED');
      expect(fieldCodes(wrong)).toEqual(['currentPassword:wrong_password']);
      expect(fieldCodes(await ninefoldError(identity.changePassword(user.id, PASSWORD, 'short')))).toEqual(['newPassword:too_short']);
      expect(await identity.verifyCredentials(user.email, PASSWORD)).not.toBeNull();
      expect(await identity.actorForSession(token)).not.toBeNull();
    });

    it('ends every other session and gives the asking device a new one', async () => {
      const user = await newUser();
      const here = await identity.createSession(user.id);
      const elsewhere = await identity.createSession(user.id);
      const token = await identity.createApiToken(user.id, { name: 'script' });

      const rotated = await identity.changePassword(user.id, PASSWORD, NEW_PASSWORD);
      expect(rotated.token).not.toBe(here.token);
      expect(await identity.actorForSession(rotated.token)).toMatchObject({ userId: user.id });
      expect(await identity.actorForSession(here.token)).toBeNull();
      expect(await identity.actorForSession(elsewhere.token)).toBeNull();
      expect(await sessionsOf(user.id)).toBe(1);
      // Personal API tokens are not tied to the password.
      expect(await identity.actorForApiToken(token.token)).not.toBeNull();

      expect(await identity.verifyCredentials(user.email, PASSWORD)).toBeNull();
      expect(await identity.verifyCredentials(user.email, NEW_PASSWORD)).not.toBeNull();
    });
  });

  describe('invitations', () => {
    it('creates a one-time link, stored hashed, valid for 7 days', async () => {
      const admin = await newUser(['admin']);
      const invite = await identity.createInvite(actorOfAccount(admin), { email: ' New.Agent@Example.com ', roles: ['agent'] });
      expect(invite).toEqual({
        id: expect.any(Number),
        token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        path: `/invite/${invite.token}`,
        email: 'new.agent@example.com',
        roles: ['agent'],
        expiresAt: expect.any(Date),
      });
      expect(Math.abs(invite.expiresAt.getTime() - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000);
      const rows = await store.db.selectFrom('nf_invite').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(invite.token);
      expect(rows.find((r) => Number(r.id) === invite.id)).toMatchObject({
        token_hash: sessionId(invite.token),
        invited_by: admin.id,
        used_at: null,
      });
      expect(await identity.inviteFor(invite.token)).toMatchObject({
        id: invite.id,
        email: 'new.agent@example.com',
        roles: ['agent'],
        invitedBy: admin.id,
      });
      expect((await identity.listInvites(SYSTEM_ACTOR)).map((i) => i.id)).toContain(invite.id);
    });

    it('is accepted once: the account gets the invited roles and can sign in; a second use is refused', async () => {
      const invite = await identity.createInvite(SYSTEM_ACTOR, { email: 'once@example.com', roles: ['customer', 'agent'] });
      const user = await identity.acceptInvite(invite.token, { name: ' Olivia Once ', password: PASSWORD });
      expect(user).toEqual({
        id: expect.any(Number),
        email: 'once@example.com',
        name: 'Olivia Once',
        roles: ['agent', 'customer'],
        disabled: false,
      });
      expect((await identity.signIn('once@example.com', PASSWORD, { ip: IP })).user.id).toBe(user.id);

      const again = await ninefoldError(identity.acceptInvite(invite.token, { name: 'Mallory', password: 'another password' }));
      expect(again.code).toBe('NOT_FOUND');
      expect(again.message).toMatch(/already been used/);
      expect((await ninefoldError(identity.inviteFor(invite.token))).message).toMatch(/already been used/);
      expect(await identity.verifyCredentials('once@example.com', 'another password')).toBeNull();
      expect((await identity.listInvites(SYSTEM_ACTOR)).map((i) => i.id)).not.toContain(invite.id);
    });

    it('accepts one of two acceptances at once', async () => {
      const invite = await identity.createInvite(SYSTEM_ACTOR, { email: 'race@example.com', roles: ['agent'] });
      const results = await Promise.allSettled(
        [1, 2].map((n) => identity.acceptInvite(invite.token, { name: `Racer ${n}`, password: PASSWORD })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({
        code: expect.stringMatching(/NOT_FOUND|VALIDATION_FAILED/),
      });
      expect((await identity.listUsers(SYSTEM_ACTOR)).filter((u) => u.email === 'race@example.com')).toHaveLength(1);
    });

    it('refuses an expired, unknown or malformed link, each with a clear message', async () => {
      const invite = await identity.createInvite(SYSTEM_ACTOR, { email: 'late@example.com', roles: ['customer'] });
      await store.db
        .updateTable('nf_invite')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('id', '=', invite.id)
        .execute();
      const expired = await ninefoldError(identity.acceptInvite(invite.token, { name: 'Late', password: PASSWORD }));
      expect(expired.code).toBe('NOT_FOUND');
      expect(expired.message).toMatch(/expired/);
      for (const token of ['A'.repeat(43), 'nope', '', 'x'.repeat(500)]) {
        const unknown = await ninefoldError(identity.inviteFor(token));
        expect(unknown.code).toBe('NOT_FOUND');
        expect(unknown.message).toMatch(/not valid/);
      }
      expect((await identity.listUsers(SYSTEM_ACTOR)).some((u) => u.email === 'late@example.com')).toBe(false);
    });

    it('refuses a bad email, an unknown role, an email that has an account, and a short password', async () => {
      const user = await newUser();
      expect(fieldCodes(await ninefoldError(identity.createInvite(SYSTEM_ACTOR, { email: 'not an email', roles: ['wizard'] })))).toEqual([
        'email:invalid_email',
        'roles:unknown_role',
      ]);
      expect(
        fieldCodes(await ninefoldError(identity.createInvite(SYSTEM_ACTOR, { email: user.email.toUpperCase(), roles: ['customer'] }))),
      ).toEqual(['email:unique']);
      const invite = await identity.createInvite(SYSTEM_ACTOR, { email: 'short@example.com', roles: ['customer'] });
      expect(fieldCodes(await ninefoldError(identity.acceptInvite(invite.token, { name: 'Short', password: 'short' })))).toEqual([
        'password:too_short',
      ]);
      // The link still works after a mistake in the form.
      expect(await identity.acceptInvite(invite.token, { name: 'Short', password: PASSWORD })).toMatchObject({
        email: 'short@example.com',
      });
    });

    it('refuses an invitation without a role (the account could open nothing): nothing is stored', async () => {
      const before = await countRows(store.db, 'nf_invite');
      for (const roles of [[], ['']]) {
        const refused = await ninefoldError(identity.createInvite(SYSTEM_ACTOR, { email: 'roleless@example.com', roles }));
        expect(refused.code).toBe('VALIDATION_FAILED');
        expect(refused.fieldErrors).toEqual([{ field: 'roles', code: 'required', message: 'Choose at least one role.' }]);
      }
      expect(await countRows(store.db, 'nf_invite')).toBe(before);
    });

    it('withdraws an unused invitation: its link stops working', async () => {
      const invite = await identity.createInvite(SYSTEM_ACTOR, { email: 'withdrawn@example.com', roles: ['agent'] });
      await identity.revokeInvite(SYSTEM_ACTOR, invite.id);
      expect((await ninefoldError(identity.acceptInvite(invite.token, { name: 'W', password: PASSWORD }))).code).toBe('NOT_FOUND');
      expect((await ninefoldError(identity.revokeInvite(SYSTEM_ACTOR, invite.id))).code).toBe('NOT_FOUND');
    });
  });
});
