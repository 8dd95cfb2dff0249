import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { NinefoldError } from '../errors/ninefold-error';
import { openSyncedQuickly } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createIdentity, MIN_PASSWORD_LENGTH } from './identity';
import type { Identity, UserAccount } from './types';
import { SYSTEM_ACTOR } from './system-actor';

const model = buildModel(helpdesk);
const PASSWORD = 'correct horse battery staple';

async function refusal(promise: Promise<unknown>): Promise<NinefoldError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NinefoldError);
  return error as NinefoldError;
}

const codes = (error: NinefoldError) => error.fieldErrors.map((e) => `${e.field}:${e.code}`).sort();

forEachDatabase('identity', (database) => {
  let store: Store;
  let identity: Identity;
  let ada: UserAccount;

  const userCount = async () =>
    Number(
      (
        await store.db
          .selectFrom('nf_user')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const sessionRow = (id: string) => store.db.selectFrom('nf_session').selectAll().where('id', '=', id).executeTakeFirst();

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    identity = createIdentity(store.db, Object.keys(model.roles));
  });

  describe('users', () => {
    it('has none at first', async () => {
      expect(await identity.hasUsers()).toBe(false);
    });

    it('creates exactly one first admin when two ask at once, and no more after', async () => {
      const first = (email: string) =>
        identity.createUser(SYSTEM_ACTOR, { email, password: PASSWORD, roles: ['admin'] }, { onlyIfNoUsers: true });
      const results = await Promise.allSettled([first('first-a@example.com'), first('first-b@example.com')]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ code: 'FORBIDDEN' });
      expect((await refusal(first('first-c@example.com'))).code).toBe('FORBIDDEN');
      expect(await userCount()).toBe(1);
      await store.db.deleteFrom('nf_user').execute();
    });

    it('creates a user with the email in lower case and the name trimmed', async () => {
      ada = await identity.createUser(SYSTEM_ACTOR, {
        email: '  Ada.Lovelace@Example.COM ',
        password: PASSWORD,
        name: '  Ada Lovelace ',
        roles: ['agent'],
      });
      expect(ada).toEqual({
        id: expect.any(Number),
        email: 'ada.lovelace@example.com',
        name: 'Ada Lovelace',
        roles: ['agent'],
        disabled: false,
      });
      expect(await identity.hasUsers()).toBe(true);
      const bare = await identity.createUser(SYSTEM_ACTOR, { email: 'grace@example.com', password: PASSWORD, roles: [] });
      expect(bare).toMatchObject({ name: 'grace', roles: [] });
    });

    it('stores a salted scrypt hash, never the password', async () => {
      const twin = await identity.createUser(SYSTEM_ACTOR, { email: 'twin@example.com', password: PASSWORD, roles: ['customer'] });
      const rows = await store.db.selectFrom('nf_user').select(['id', 'password_hash']).where('id', 'in', [ada.id, twin.id]).execute();
      for (const row of rows) {
        expect(row.password_hash).not.toContain(PASSWORD);
        expect(row.password_hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
      }
      expect(rows[0]!.password_hash).not.toBe(rows[1]!.password_hash);
    });

    it('refuses an email already used, whatever its case', async () => {
      const before = await userCount();
      const error = await refusal(identity.createUser(SYSTEM_ACTOR, { email: 'ADA.lovelace@example.com', password: PASSWORD, roles: [] }));
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(codes(error)).toEqual(['email:unique']);
      expect(await userCount()).toBe(before);
    });

    it('refuses the same new email sent twice at once as a field error, and creates it once', async () => {
      const before = await userCount();
      const results = await Promise.allSettled(
        [1, 2, 3].map(() => identity.createUser(SYSTEM_ACTOR, { email: 'racer@example.com', password: PASSWORD, roles: [] })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const result of results) {
        if (result.status === 'rejected') {
          expect(result.reason).toBeInstanceOf(NinefoldError);
          expect(codes(result.reason as NinefoldError)).toEqual(['email:unique']);
        }
      }
      expect(await userCount()).toBe(before + 1);
    });

    it('refuses a short password, a bad email and an unknown role, all at once', async () => {
      const before = await userCount();
      const short = await refusal(
        identity.createUser(SYSTEM_ACTOR, { email: 'new@example.com', password: 'x'.repeat(MIN_PASSWORD_LENGTH - 1), roles: [] }),
      );
      expect(codes(short)).toEqual(['password:too_short']);
      const all = await refusal(identity.createUser(SYSTEM_ACTOR, { email: 'not an email', password: 'short', roles: ['wizard'] }));
      expect(all.code).toBe('VALIDATION_FAILED');
      expect(codes(all)).toEqual(['email:invalid_email', 'password:too_short', 'roles:unknown_role']);
      expect(await userCount()).toBe(before);
      await identity.createUser(SYSTEM_ACTOR, { email: 'eight@example.com', password: 'x'.repeat(MIN_PASSWORD_LENGTH), roles: ['admin'] });
    });

    it('lists the users by email', async () => {
      const users = await identity.listUsers(SYSTEM_ACTOR);
      expect(users.map((u) => u.email)).toEqual([...users.map((u) => u.email)].sort());
      // No user fields: this identity was made without the model's users.fields.
      expect(users.find((u) => u.id === ada.id)).toEqual({ ...ada, createdAt: expect.any(Date), disabledAt: null, fields: {} });
    });
  });

  describe('credentials', () => {
    it('accepts the right password, with the email in any case', async () => {
      expect(await identity.verifyCredentials('ada.lovelace@example.com', PASSWORD)).toEqual(ada);
      expect(await identity.verifyCredentials(' ADA.Lovelace@example.com ', PASSWORD)).toEqual(ada);
    });

    it('refuses a wrong password and an unknown email alike', async () => {
      expect(await identity.verifyCredentials('ada.lovelace@example.com', `${PASSWORD}!`)).toBeNull();
      expect(await identity.verifyCredentials('ada.lovelace@example.com', '')).toBeNull();
      expect(await identity.verifyCredentials('nobody@example.com', PASSWORD)).toBeNull();
    });

    it('compares passwords in one Unicode form (NFKC)', async () => {
      const composed = 'caf\u00e9 au lait';
      await identity.createUser(SYSTEM_ACTOR, { email: 'unicode@example.com', password: composed, roles: [] });
      expect(await identity.verifyCredentials('unicode@example.com', 'cafe\u0301 au lait')).not.toBeNull();
    });

    it('refuses a disabled user', async () => {
      const user = await identity.createUser(SYSTEM_ACTOR, { email: 'leaver@example.com', password: PASSWORD, roles: ['agent'] });
      expect(await identity.verifyCredentials(user.email, PASSWORD)).not.toBeNull();
      await store.db.updateTable('nf_user').set({ disabled_at: new Date() }).where('id', '=', user.id).execute();
      expect(await identity.verifyCredentials(user.email, PASSWORD)).toBeNull();
      expect((await identity.listUsers(SYSTEM_ACTOR)).find((u) => u.id === user.id)?.disabled).toBe(true);
    });
  });

  describe('sessions', () => {
    it('gives the actor of a session token, and stores only its hash', async () => {
      const session = await identity.createSession(ada.id);
      expect(session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(session.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600_000);
      expect(await sessionRow(session.token)).toBeUndefined();
      const stored = await sessionRow(createHash('sha256').update(session.token).digest('hex'));
      expect(stored).toMatchObject({ user_id: ada.id });
      expect(JSON.stringify(await store.db.selectFrom('nf_session').selectAll().execute())).not.toContain(session.token);

      expect(await identity.actorForSession(session.token)).toEqual({ userId: ada.id, email: ada.email, name: ada.name, roles: ['agent'] });
    });

    it('gives null for an unknown, empty, garbage or oversized token', async () => {
      for (const token of ['', 'x', 'not-a-token', "' or 1=1 --", 'A'.repeat(43), 'A'.repeat(5000)]) {
        expect(await identity.actorForSession(token)).toBeNull();
      }
    });

    it('gives null once the session has expired', async () => {
      const session = await identity.createSession(ada.id);
      const id = createHash('sha256').update(session.token).digest('hex');
      await store.db
        .updateTable('nf_session')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('id', '=', id)
        .execute();
      expect(await identity.actorForSession(session.token)).toBeNull();
    });

    it('gives null after the session ended; ending twice or an unknown one is harmless', async () => {
      const session = await identity.createSession(ada.id);
      const other = await identity.createSession(ada.id);
      await identity.endSession(session.token);
      expect(await identity.actorForSession(session.token)).toBeNull();
      expect(await identity.actorForSession(other.token)).not.toBeNull();
      await identity.endSession(session.token);
      await identity.endSession('never-issued');
    });

    it('gives null for a user disabled after signing in', async () => {
      const user = await identity.createUser(SYSTEM_ACTOR, { email: 'suspended@example.com', password: PASSWORD, roles: ['customer'] });
      const session = await identity.createSession(user.id);
      expect(await identity.actorForSession(session.token)).not.toBeNull();
      await store.db.updateTable('nf_user').set({ disabled_at: new Date() }).where('id', '=', user.id).execute();
      expect(await identity.actorForSession(session.token)).toBeNull();
    });

    it('records when a session was last seen, at most every few minutes (one query otherwise)', async () => {
      const session = await identity.createSession(ada.id);
      const id = createHash('sha256').update(session.token).digest('hex');
      const before = store.statementCount();
      await identity.actorForSession(session.token);
      expect(store.statementCount() - before).toBe(1);

      const hourAgo = new Date(Date.now() - 3600_000);
      await store.db.updateTable('nf_session').set({ last_seen_at: hourAgo }).where('id', '=', id).execute();
      expect(await identity.actorForSession(session.token)).not.toBeNull();
      const seen = (await sessionRow(id))!.last_seen_at as Date;
      expect(seen.getTime()).toBeGreaterThan(hourAgo.getTime() + 3500_000);
    });
  });
  describe('API tokens', () => {
    const tokenRow = (id: number) => store.db.selectFrom('nf_api_token').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('issues an nf_ token shown once, stores only its sha256, and gives its actor', async () => {
      const issued = await identity.createApiToken(ada.id, { name: '  deploy script ' });
      expect(issued).toEqual({
        token: expect.stringMatching(/^nf_[A-Za-z0-9_-]{43}$/),
        id: expect.any(Number),
        name: 'deploy script',
        expiresAt: null,
      });
      const row = await tokenRow(issued.id);
      expect(row.token_hash).toBe(createHash('sha256').update(issued.token).digest('hex'));
      expect(JSON.stringify(await store.db.selectFrom('nf_api_token').selectAll().execute())).not.toContain(issued.token);
      expect(await identity.actorForApiToken(issued.token)).toEqual({ userId: ada.id, email: ada.email, name: ada.name, roles: ['agent'] });
      expect((await tokenRow(issued.id)).last_used_at).toBeInstanceOf(Date);
    });

    it('lists the tokens of a user, newest first, without the secret', async () => {
      const other = await identity.createApiToken(ada.id, { name: 'second', expiresAt: new Date(Date.now() + 86400_000) });
      const list = await identity.listApiTokens(ada.id);
      expect(list[0]).toEqual({
        id: other.id,
        name: 'second',
        createdAt: expect.any(Date),
        expiresAt: other.expiresAt,
        lastUsedAt: null,
        revokedAt: null,
      });
      expect(list.map((t) => t.name)).toContain('deploy script');
      expect(JSON.stringify(list)).not.toContain('nf_');
    });

    it('gives null for a malformed, unknown, revoked or expired token, or a disabled user', async () => {
      for (const token of ['', 'nf_', 'x'.repeat(46), `nf_${'A'.repeat(43)}`, `nf_${'A'.repeat(5000)}`, "nf_' or 1=1 --"]) {
        expect(await identity.actorForApiToken(token)).toBeNull();
      }
      const revoked = await identity.createApiToken(ada.id, { name: 'revoked' });
      await identity.revokeApiToken(ada.id, revoked.id);
      await identity.revokeApiToken(ada.id, revoked.id);
      expect(await identity.actorForApiToken(revoked.token)).toBeNull();

      const expired = await identity.createApiToken(ada.id, { name: 'expired' });
      await store.db
        .updateTable('nf_api_token')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('id', '=', expired.id)
        .execute();
      expect(await identity.actorForApiToken(expired.token)).toBeNull();

      const user = await identity.createUser(SYSTEM_ACTOR, { email: 'token-leaver@example.com', password: PASSWORD, roles: ['agent'] });
      const own = await identity.createApiToken(user.id, { name: 'mine' });
      expect(await identity.actorForApiToken(own.token)).not.toBeNull();
      await store.db.updateTable('nf_user').set({ disabled_at: new Date() }).where('id', '=', user.id).execute();
      expect(await identity.actorForApiToken(own.token)).toBeNull();
    });

    it("refuses to revoke another user's token, an empty name, a past expiry and an unknown user", async () => {
      const mine = await identity.createApiToken(ada.id, { name: 'not yours' });
      const grace = (await identity.listUsers(SYSTEM_ACTOR)).find((u) => u.email === 'grace@example.com')!;
      expect((await refusal(identity.revokeApiToken(grace.id, mine.id))).code).toBe('NOT_FOUND');
      expect(await identity.actorForApiToken(mine.token)).not.toBeNull();
      expect(codes(await refusal(identity.createApiToken(ada.id, { name: '  ' })))).toEqual(['name:required']);
      expect(codes(await refusal(identity.createApiToken(ada.id, { name: 'old', expiresAt: new Date(Date.now() - 1) })))).toEqual([
        'expiresAt:invalid_expiry',
      ]);
      expect((await refusal(identity.createApiToken(987654, { name: 'ghost' }))).code).toBe('NOT_FOUND');
    });

    it('records when a token was last used, at most every few minutes (one query otherwise)', async () => {
      const issued = await identity.createApiToken(ada.id, { name: 'busy' });
      await identity.actorForApiToken(issued.token);
      const before = store.statementCount();
      await identity.actorForApiToken(issued.token);
      expect(store.statementCount() - before).toBe(1);
      const hourAgo = new Date(Date.now() - 3600_000);
      await store.db.updateTable('nf_api_token').set({ last_used_at: hourAgo }).where('id', '=', issued.id).execute();
      await identity.actorForApiToken(issued.token);
      expect(((await tokenRow(issued.id)).last_used_at as Date).getTime()).toBeGreaterThan(hourAgo.getTime() + 3500_000);
    });

    it('removes the tokens of a deleted user', async () => {
      const user = await identity.createUser(SYSTEM_ACTOR, { email: 'token-gone@example.com', password: PASSWORD, roles: [] });
      const issued = await identity.createApiToken(user.id, { name: 'orphan' });
      await store.db.deleteFrom('nf_user').where('id', '=', user.id).execute();
      expect(await store.db.selectFrom('nf_api_token').select('id').where('id', '=', issued.id).executeTakeFirst()).toBeUndefined();
    });
  });
});
