import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '@/engine/engine';
import { buildModel } from '@/engine/spec/build';
import { forEachDatabase } from '@testing/engine/store';
import { apiClient, expectProblem, openTestEngine, ORIGIN, type ApiClient } from '@testing/api/api';
import { actorOfAccount } from '@testing/engine/accounts';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

/** Accounts over the REST door, with the sign-in limits lowered through constants as a spec author would. */
const model = buildModel({
  name: 'accounts',
  roles: { agent: { label: 'Agent' } },
  constants: {
    signInAttemptsPerAccount: { value: 3 },
    signInAttemptsPerIp: { value: 5 },
  },
});
const PASSWORD = 'correct horse battery';

forEachDatabase('API: accounts', (database) => {
  let engine: Engine;
  let api: ApiClient;
  let ipCounter = 0;
  let userCounter = 0;
  const freshIp = () => `192.0.2.${(ipCounter += 1)}`;
  const newUser = () =>
    engine.identity.createUser(SYSTEM_ACTOR, { email: `api-user${(userCounter += 1)}@example.com`, password: PASSWORD, roles: ['agent'] });
  const signIn = (email: string, password: string, ip = freshIp()) => api.call('POST', '/auth/sign-in', { ip, body: { email, password } });
  const cookieOf = (answer: { headers: Headers }) => answer.headers.get('set-cookie')!.split(';')[0]!.split('=')[1];

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
  });

  describe('sign-in throttling', () => {
    it('answers 429 with Retry-After once an account has had signInAttemptsPerAccount failures, even for the right password', async () => {
      const user = await newUser();
      for (let i = 0; i < 3; i++) expectProblem(await signIn(user.email, `guess ${i}`), 401, 'UNAUTHENTICATED');
      const limited = await signIn(user.email, PASSWORD);
      expectProblem(limited, 429, 'RATE_LIMITED');
      expect(limited.body.detail).toBe('Too many sign-in attempts. Try again in 15 minutes.');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect(limited.headers.get('set-cookie')).toBeNull();
    });

    it("resets the account's count after a successful sign-in", async () => {
      const user = await newUser();
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 2; i++) expectProblem(await signIn(user.email, 'wrong'), 401, 'UNAUTHENTICATED');
        expect((await signIn(user.email, PASSWORD)).status).toBe(200);
      }
    });

    it('limits an address to signInAttemptsPerIp failures, whichever accounts; a different account from it is refused too', async () => {
      const ip = freshIp();
      const [a, b, c] = [await newUser(), await newUser(), await newUser()];
      for (const email of [a.email, b.email, a.email, 'nobody@example.com', b.email]) {
        expectProblem(await signIn(email, 'wrong', ip), 401, 'UNAUTHENTICATED');
      }
      const limited = await signIn(c.email, PASSWORD, ip);
      expectProblem(limited, 429, 'RATE_LIMITED');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // Neither account reached its own limit: from elsewhere they sign in.
      expect((await signIn(a.email, PASSWORD)).status).toBe(200);
      expect((await signIn(c.email, PASSWORD)).status).toBe(200);
    });
  });

  describe('sessions', () => {
    it('gives a new session at every sign-in; signing out ends only that one', async () => {
      const user = await newUser();
      const first = cookieOf(await signIn(user.email, PASSWORD));
      const second = cookieOf(await signIn(user.email, PASSWORD));
      expect(first).not.toBe(second);
      expect((await api.call('GET', '/auth/me', { session: first })).status).toBe(200);
      expect((await api.call('POST', '/auth/sign-out', { session: first, headers: { origin: ORIGIN } })).status).toBe(200);
      expectProblem(await api.call('GET', '/auth/me', { session: first }), 401, 'UNAUTHENTICATED');
      expect((await api.call('GET', '/auth/me', { session: second })).body.id).toBe(user.id);
    });

    it('ends the other sessions when the password changes; the returned one works', async () => {
      const user = await newUser();
      const other = cookieOf(await signIn(user.email, PASSWORD));
      const rotated = await engine.identity.changePassword(user.id, PASSWORD, 'a new long password');
      expectProblem(await api.call('GET', '/auth/me', { session: other }), 401, 'UNAUTHENTICATED');
      expect((await api.call('GET', '/auth/me', { session: rotated.token })).body.id).toBe(user.id);
      expectProblem(await signIn(user.email, PASSWORD), 401, 'UNAUTHENTICATED');
      expect((await signIn(user.email, 'a new long password')).status).toBe(200);
    });

    it('answers 401 at once for the sessions and tokens of a disabled user, and refuses their sign-in', async () => {
      const admin = await engine.identity.createUser(SYSTEM_ACTOR, {
        email: 'api-admin@example.com',
        password: PASSWORD,
        roles: ['admin'],
      });
      const user = await newUser();
      const session = cookieOf(await signIn(user.email, PASSWORD));
      const { token } = await engine.identity.createApiToken(user.id, { name: 'script' });
      expect((await api.call('GET', '/auth/me', { session })).status).toBe(200);
      expect((await api.call('GET', '/auth/me', { token })).status).toBe(200);

      await engine.identity.disableUser(actorOfAccount(admin), user.id);
      expectProblem(await api.call('GET', '/auth/me', { session }), 401, 'UNAUTHENTICATED');
      expectProblem(await api.call('GET', '/auth/me', { token }), 401, 'UNAUTHENTICATED');
      expectProblem(await signIn(user.email, PASSWORD), 401, 'UNAUTHENTICATED');
    });

    it('answers 401 for a revoked token, and keeps the others working', async () => {
      const user = await newUser();
      const kept = await engine.identity.createApiToken(user.id, { name: 'kept' });
      const revoked = await engine.identity.createApiToken(user.id, { name: 'revoked' });
      expect((await api.call('GET', '/auth/me', { token: revoked.token })).status).toBe(200);
      await engine.identity.revokeApiToken(user.id, revoked.id);
      expectProblem(await api.call('GET', '/auth/me', { token: revoked.token }), 401, 'UNAUTHENTICATED');
      expect((await api.call('GET', '/auth/me', { token: kept.token })).status).toBe(200);
    });
  });
});
