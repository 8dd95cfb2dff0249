import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ninefoldError, openSyncedQuickly } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createIdentity } from './identity';
import type { Identity, UserAccount } from './types';
import { actorOfAccount } from '@testing/engine/accounts';
import { SYSTEM_ACTOR } from './system-actor';

const model = buildModel({ name: 'sign-in', roles: { agent: { label: 'Agent' } } });
const PASSWORD = 'correct horse battery staple';
const PER_ACCOUNT = 3;
const PER_IP = 5;

/** Every line written to stderr while `run` runs, still written through. */
async function captureStderr(run: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    lines.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return lines
    .join('')
    .split('\n')
    .filter((l) => l.trim() !== '');
}

forEachDatabase('identity: sign-in', (database) => {
  let store: Store;
  let identity: Identity;
  let ipCounter = 0;
  let userCounter = 0;
  const freshIp = () => `198.51.100.${(ipCounter += 1)}`;
  const newUser = (): Promise<UserAccount> =>
    identity.createUser(SYSTEM_ACTOR, { email: `signer${(userCounter += 1)}@example.com`, password: PASSWORD, roles: ['agent'] });
  const attempt = async (email: string, password: string, ip: string) => {
    try {
      await identity.signIn(email, password, { ip });
      return 'ok';
    } catch (error) {
      return (error as { code: string }).code;
    }
  };

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    identity = createIdentity(store.db, Object.keys(model.roles), { signInAttemptsPerAccount: PER_ACCOUNT, signInAttemptsPerIp: PER_IP });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  describe('throttling', () => {
    it('refuses an account after signInAttemptsPerAccount failures, from any address, with the time to wait', async () => {
      const user = await newUser();
      for (let i = 0; i < PER_ACCOUNT; i++) expect(await attempt(user.email, `guess ${i}`, freshIp())).toBe('UNAUTHENTICATED');
      // Even the right password, from yet another address.
      const limited = await ninefoldError(identity.signIn(user.email.toUpperCase(), PASSWORD, { ip: freshIp() }));
      expect(limited.code).toBe('RATE_LIMITED');
      expect(limited.status).toBe(429);
      expect(limited.retryAfterSeconds).toBeGreaterThan(14 * 60);
      expect(limited.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
      expect(limited.message).toBe('Too many sign-in attempts. Try again in 15 minutes.');
      // Another account is not affected.
      const other = await newUser();
      expect(await attempt(other.email, PASSWORD, freshIp())).toBe('ok');
    });

    it('counts an account again once its window has passed', async () => {
      const user = await newUser();
      for (let i = 0; i < PER_ACCOUNT; i++) await attempt(user.email, 'wrong', freshIp());
      expect(await attempt(user.email, PASSWORD, freshIp())).toBe('RATE_LIMITED');
      await store.db
        .updateTable('nf_sign_in_attempt')
        .set({ window_started_at: new Date(Date.now() - 16 * 60_000) })
        .execute();
      expect(await attempt(user.email, PASSWORD, freshIp())).toBe('ok');
    });

    it("resets the account's count on a successful sign-in", async () => {
      const user = await newUser();
      const ip = freshIp();
      for (let i = 0; i < PER_ACCOUNT - 1; i++) expect(await attempt(user.email, 'wrong', ip)).toBe('UNAUTHENTICATED');
      expect(await attempt(user.email, PASSWORD, ip)).toBe('ok');
      for (let i = 0; i < PER_ACCOUNT - 1; i++) expect(await attempt(user.email, 'wrong', freshIp())).toBe('UNAUTHENTICATED');
      expect(await attempt(user.email, PASSWORD, freshIp())).toBe('ok');
    });

    it('refuses an address after signInAttemptsPerIp failures, whichever accounts they tried', async () => {
      const ip = freshIp();
      const users = await Promise.all([1, 2, 3].map(() => newUser()));
      // Spread over accounts (and unknown emails) so that no account reaches its own limit.
      const emails = [users[0]!.email, users[1]!.email, 'nobody@example.com', users[0]!.email, 'ghost@example.org'];
      for (const email of emails) expect(await attempt(email, 'wrong', ip)).toBe('UNAUTHENTICATED');
      const limited = await ninefoldError(identity.signIn(users[2]!.email, PASSWORD, { ip }));
      expect(limited.code).toBe('RATE_LIMITED');
      expect(limited.retryAfterSeconds).toBeGreaterThan(0);
      // The same account from another address is fine.
      expect(await attempt(users[2]!.email, PASSWORD, freshIp())).toBe('ok');
    });

    it('keeps the counts in the database (every server counts the same), the email only as a hash', async () => {
      const ip = freshIp();
      await attempt('hashed@example.com', 'wrong', ip);
      const rows = await store.db.selectFrom('nf_sign_in_attempt').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain('hashed@example.com');
      expect(rows.find((r) => r.key === `ip:${ip}`)).toMatchObject({ failures: 1 });
      // A second identity over the same database (another server) sees the same counts.
      const other = createIdentity(store.db, Object.keys(model.roles), {
        signInAttemptsPerAccount: PER_ACCOUNT,
        signInAttemptsPerIp: PER_IP,
      });
      const user = await newUser();
      for (let i = 0; i < PER_ACCOUNT; i++) await attempt(user.email, 'wrong', freshIp());
      expect((await ninefoldError(other.signIn(user.email, PASSWORD, { ip: freshIp() }))).code).toBe('RATE_LIMITED');
    });

    it('counts wrong current passwords in a password change towards the account', async () => {
      const user = await newUser();
      for (let i = 0; i < PER_ACCOUNT; i++)
        expect((await ninefoldError(identity.changePassword(user.id, 'wrong', 'another password'))).code).toBe('VALIDATION_FAILED');
      expect((await ninefoldError(identity.changePassword(user.id, PASSWORD, 'another password'))).code).toBe('RATE_LIMITED');
      expect(await attempt(user.email, PASSWORD, freshIp())).toBe('RATE_LIMITED');
    });
  });

  describe('attempts sent at once', () => {
    // The default limits: the probes that found every attempt of a burst checked used them.
    const limits = { signInAttemptsPerAccount: 10, signInAttemptsPerIp: 50 };
    const BURST = 60;
    /** How many of the answers were each code: UNAUTHENTICATED means the password was checked, RATE_LIMITED that it was not. */
    const tally = (codes: string[]) => codes.reduce<Record<string, number>>((all, code) => ({ ...all, [code]: (all[code] ?? 0) + 1 }), {});
    const codeOf = (work: Promise<unknown>) =>
      work.then(
        () => 'ok',
        (error: { code: string }) => error.code,
      );

    /**
     * Identities as separate servers would have them: on PostgreSQL each over its own pool of
     * connections to the one database; PGlite has one connection, which they share.
     */
    async function servers(count: number): Promise<Identity[]> {
      const stores =
        database.kind === 'postgres'
          ? await Promise.all(Array.from({ length: count }, () => database.open()))
          : Array.from({ length: count }, () => store);
      if (database.kind === 'postgres') opened.push(...stores);
      return stores.map((s) => createIdentity(s.db, Object.keys(model.roles), limits));
    }
    /** The servers' own pools, closed after each test: left open, they would hold PostgreSQL's connections from the other suites running beside this one. */
    const opened: Store[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });

    it('checks at most signInAttemptsPerAccount of 60 wrong passwords sent at once for one account; then even the right one waits', async () => {
      const server = (await servers(1))[0]!;
      const user = await newUser();
      const codes = await Promise.all(
        Array.from({ length: BURST }, (_, i) => codeOf(server.signIn(user.email, `guess ${i}`, { ip: freshIp() }))),
      );
      expect(tally(codes)).toEqual({
        UNAUTHENTICATED: limits.signInAttemptsPerAccount,
        RATE_LIMITED: BURST - limits.signInAttemptsPerAccount,
      });
      expect(await codeOf(server.signIn(user.email, PASSWORD, { ip: freshIp() }))).toBe('RATE_LIMITED');
    });

    it('holds across servers: 60 wrong passwords spread over three, at once, have at most the limit checked', async () => {
      const three = await servers(3);
      const user = await newUser();
      const codes = await Promise.all(
        Array.from({ length: BURST }, (_, i) => codeOf(three[i % 3]!.signIn(user.email, `guess ${i}`, { ip: freshIp() }))),
      );
      expect(tally(codes)).toEqual({
        UNAUTHENTICATED: limits.signInAttemptsPerAccount,
        RATE_LIMITED: BURST - limits.signInAttemptsPerAccount,
      });
      for (const server of three) expect(await codeOf(server.signIn(user.email, PASSWORD, { ip: freshIp() }))).toBe('RATE_LIMITED');
    });

    it('holds across servers for attempts from one address on a few accounts, each answered (no deadlock between counts)', async () => {
      const three = await servers(3);
      const users = await Promise.all([1, 2, 3, 4].map(() => newUser()));
      const ip = freshIp();
      const codes = await Promise.all(
        Array.from({ length: 200 }, (_, i) => codeOf(three[i % 3]!.signIn(users[i % 4]!.email, `guess ${i}`, { ip }))),
      );
      // Each account's limit is reached before the address's.
      const checked = users.length * limits.signInAttemptsPerAccount;
      expect(tally(codes)).toEqual({ UNAUTHENTICATED: checked, RATE_LIMITED: 200 - checked });
    });

    it('checks at most signInAttemptsPerIp of 80 different emails sent at once from one address', async () => {
      const server = (await servers(1))[0]!;
      const ip = freshIp();
      const codes = await Promise.all(
        Array.from({ length: 80 }, (_, i) => codeOf(server.signIn(`burst${i}@example.com`, 'wrong', { ip }))),
      );
      expect(tally(codes)).toEqual({ UNAUTHENTICATED: limits.signInAttemptsPerIp, RATE_LIMITED: 80 - limits.signInAttemptsPerIp });
    });

    it('checks at most the limit of 60 wrong current passwords sent at once in password changes', async () => {
      const server = (await servers(1))[0]!;
      const user = await newUser();
      const codes = await Promise.all(
        Array.from({ length: BURST }, () => codeOf(server.changePassword(user.id, 'wrong', 'another password'))),
      );
      expect(tally(codes)).toEqual({
        VALIDATION_FAILED: limits.signInAttemptsPerAccount,
        RATE_LIMITED: BURST - limits.signInAttemptsPerAccount,
      });
    });

    it('lets the right password in among wrong ones while under the limit, and its owner starts afresh', async () => {
      const server = (await servers(1))[0]!;
      const user = await newUser();
      const wrong = limits.signInAttemptsPerAccount - 2;
      const codes = await Promise.all([
        ...Array.from({ length: wrong }, (_, i) => codeOf(server.signIn(user.email, `guess ${i}`, { ip: freshIp() }))),
        codeOf(server.signIn(user.email, PASSWORD, { ip: freshIp() })),
      ]);
      expect(tally(codes)).toEqual({ UNAUTHENTICATED: wrong, ok: 1 });
      // After the success the account counts from nothing: a full limit of failures again.
      for (let i = 0; i < limits.signInAttemptsPerAccount; i++)
        expect(await codeOf(server.signIn(user.email, 'wrong', { ip: freshIp() }))).toBe('UNAUTHENTICATED');
      expect(await codeOf(server.signIn(user.email, PASSWORD, { ip: freshIp() }))).toBe('RATE_LIMITED');
    });

    it('gives a successful sign-in back to its address, and does not count refused attempts there', async () => {
      // The suite's small limits (PER_ACCOUNT, PER_IP): more successes than the address may fail.
      const ip = freshIp();
      const user = await newUser();
      for (let i = 0; i < PER_IP + 2; i++) expect(await attempt(user.email, PASSWORD, ip)).toBe('ok');
      const locked = await newUser();
      for (let i = 0; i < PER_ACCOUNT; i++) await attempt(locked.email, 'wrong', freshIp());
      for (let i = 0; i < PER_IP + 2; i++) expect(await attempt(locked.email, PASSWORD, ip)).toBe('RATE_LIMITED');
      // The address still has its whole allowance of failures.
      const codes = await Promise.all(Array.from({ length: PER_IP }, (_, i) => attempt(`after${i}@example.com`, 'wrong', ip)));
      expect(tally(codes)).toEqual({ UNAUTHENTICATED: PER_IP });
      expect(await attempt(user.email, PASSWORD, ip)).toBe('RATE_LIMITED');
    });
  });

  describe('log', () => {
    it('writes one JSON line per sign-in event, with no password, token, cookie or whole email', async () => {
      // An administrator: the same person invites and disables, and the log says by whom.
      const user = await identity.createUser(SYSTEM_ACTOR, {
        email: 'logged.person@secret-domain.example',
        password: PASSWORD,
        roles: ['agent', 'admin'],
      });
      const wrong = 'wrong-password-that-must-not-leak';
      const ip = freshIp();
      const secrets: string[] = [PASSWORD, wrong, user.email, 'logged.person'];
      const lines = await captureStderr(async () => {
        await attempt(user.email, wrong, ip);
        await attempt('unknown.person@elsewhere.example', wrong, ip);
        const { session } = await identity.signIn(user.email, PASSWORD, { ip });
        secrets.push(session.token);
        const apiToken = await identity.createApiToken(user.id, { name: 'logged' });
        secrets.push(apiToken.token);
        await identity.actorForApiToken(apiToken.token);
        const rotated = await identity.changePassword(user.id, PASSWORD, `${PASSWORD}!`);
        secrets.push(rotated.token, `${PASSWORD}!`);
        await identity.endSession(rotated.token);
        const invite = await identity.createInvite(actorOfAccount(user), {
          email: 'invited.person@secret-domain.example',
          roles: ['agent'],
        });
        secrets.push(invite.token, 'invited.person');
        const invited = await identity.acceptInvite(invite.token, { name: 'Invited', password: 'invited password' });
        secrets.push('invited password');
        await identity.disableUser(actorOfAccount(user), invited.id);
        await attempt(invited.email, 'invited password', freshIp());
      });

      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(entries.every((e) => typeof e.time === 'string' && typeof e.level === 'string' && typeof e.msg === 'string')).toBe(true);
      const messages = entries.map((e) => e.msg);
      expect(messages).toEqual(
        expect.arrayContaining([
          'sign-in failed',
          'signed in',
          'password changed',
          'signed out',
          'invite created',
          'invite accepted',
          'user disabled',
        ]),
      );
      const failures = entries.filter((e) => e.msg === 'sign-in failed');
      expect(failures.map((e) => e.reason)).toEqual(expect.arrayContaining(['wrong-password', 'unknown-user', 'disabled']));
      expect(failures[0]).toMatchObject({ emailDomain: 'secret-domain.example', ip, reason: 'wrong-password', userId: user.id });
      expect(entries.find((e) => e.msg === 'signed in')).toMatchObject({ userId: user.id, ip });
      expect(entries.find((e) => e.msg === 'user disabled')).toMatchObject({ userId: expect.any(Number), by: user.id });

      const text = lines.join('\n');
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/nf_[A-Za-z0-9_-]{43}/);
      expect(text).not.toMatch(/nf_session=/);
    });

    it('logs a throttled attempt as such', async () => {
      const user = await newUser();
      for (let i = 0; i < PER_ACCOUNT; i++) await attempt(user.email, 'wrong', freshIp());
      const ip = freshIp();
      const lines = await captureStderr(async () => {
        await attempt(user.email, PASSWORD, ip);
      });
      const entry = JSON.parse(lines.find((l) => l.includes('sign-in failed'))!) as Record<string, unknown>;
      expect(entry).toMatchObject({ level: 'warn', msg: 'sign-in failed', reason: 'throttled', ip, emailDomain: 'example.com' });
      expect(lines.join('\n')).not.toContain(PASSWORD);
    });
  });
});
