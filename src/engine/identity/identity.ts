import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import type { Actor } from '../ground/actor';
import { NinefoldError, notFound } from '../errors/ninefold-error';
import { DEFAULT_LIMITS, SIGN_IN_WINDOW_MINUTES } from '../limits';
import { logLine } from '../log';
import type { DynamicDatabase } from '../store/types';
import { cachedRead } from '../store/write-clock';
import { createPreferences } from '../preferences/preferences';
import { actingAccount, refuseUnlessAdministrator } from './administrators';
import { createApiTokens } from './api-tokens';
import { createInvites } from './invites';
import { createSetupCodes } from './setup-code';
import { decoyHash, hashPassword, verifyPassword } from './passwords';
import {
  EMAIL,
  emailDomain,
  emailTaken,
  fieldError,
  hashToken,
  isUniqueViolation,
  MAX_NAME_LENGTH,
  nameOrDefault,
  normalizeEmail,
  orderedRoles,
  passwordProblems,
  toAccount,
  toUserInfo,
  unknownRole,
  USER_COLUMNS,
  type UserRow,
} from './shared';
import { createSignInThrottle, throttleKeys } from './sign-in-throttle';
import type { Identity, IdentityPolicy, IssuedSession, NewUser, UserAccount } from './types';
import { parseUserFields, userFieldColumns, userFieldDefaults, userFieldValues, type UserFieldsModel } from './user-fields';
import { isAdmin } from '../access/policy';
import { SYSTEM_ACTOR } from './system-actor';

export { MIN_PASSWORD_LENGTH } from './shared';
export { normalizeEmail };

/** last_seen_at is written at most this often (or half the idle timeout when shorter), so reading a session is usually one query. */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;
/** Advisory lock key serialising the creation of the first user. */
const FIRST_USER_LOCK = 7_419_001;
const MINUTE_MS = 60 * 1000;
const DAY_MS = 24 * 60 * MINUTE_MS;
export const BAD_CREDENTIALS = 'Email or password is incorrect.';

/** RATE_LIMITED in words a person can act on, with the seconds for Retry-After. */
export function tooManySignInAttempts(retryAfterSeconds: number): NinefoldError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new NinefoldError('RATE_LIMITED', `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, {
    retryAfterSeconds,
  });
}

type PasswordRow = UserRow & { password_hash: string };

/**
 * Accounts, sessions, sign-in, invitations and API tokens over the engine's tables. `policy`
 * takes the session timeouts and sign-in limits (resolveLimits(model) has them); defaults otherwise.
 * `model` brings the spec's user fields (`users.fields`), which accounts store and actors carry.
 */
export function createIdentity(
  db: DynamicDatabase,
  knownRoles: readonly string[],
  policy: Partial<IdentityPolicy> = {},
  model?: UserFieldsModel,
): Identity {
  const idleMs = (policy.sessionIdleMinutes ?? DEFAULT_LIMITS.sessionIdleMinutes) * MINUTE_MS;
  const maxMs = (policy.sessionMaxDays ?? DEFAULT_LIMITS.sessionMaxDays) * DAY_MS;
  // Touching at least twice per idle period keeps an active session alive however short the timeout.
  const touchMs = Math.min(TOUCH_INTERVAL_MS, Math.floor(idleMs / 2));
  const throttle = createSignInThrottle(db, {
    perAccount: policy.signInAttemptsPerAccount ?? DEFAULT_LIMITS.signInAttemptsPerAccount,
    perIp: policy.signInAttemptsPerIp ?? DEFAULT_LIMITS.signInAttemptsPerIp,
    windowMs: SIGN_IN_WINDOW_MINUTES * MINUTE_MS,
  });

  const userRow = async (where: { id: number } | { email: string }): Promise<PasswordRow | undefined> => {
    const query = db.selectFrom('nf_user').select([...USER_COLUMNS, 'password_hash']);
    const row = await ('id' in where ? query.where('id', '=', where.id) : query.where('email', '=', where.email)).executeTakeFirst();
    return row as PasswordRow | undefined;
  };

  /** Inserts a session row for a new random token (inside the caller's transaction when given one). */
  const insertSession = async (executor: DynamicDatabase, userId: number): Promise<IssuedSession> => {
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    const expiresAt = new Date(now + maxMs);
    await executor
      .insertInto('nf_session')
      .values({ id: hashToken(token), user_id: userId, created_at: new Date(now), last_seen_at: new Date(now), expires_at: expiresAt })
      .execute();
    return { token, expiresAt };
  };

  /** The actor's `fields` when the spec has user fields (absent otherwise, as before there were any). */
  const actorFields = (row: Readonly<Record<string, unknown>>): Pick<Actor, 'fields'> =>
    model?.users.fields.length ? { fields: userFieldValues(model, row) } : {};

  const updateUser = async (userId: number, values: Record<string, unknown>): Promise<UserAccount> => {
    const row = await db
      .updateTable('nf_user')
      .set({ ...values, updated_at: new Date() })
      .where('id', '=', userId)
      .returning(['id', 'email', 'name', 'roles', 'disabled_at'])
      .executeTakeFirst();
    if (!row) throw notFound('user');
    return toAccount(row as UserRow);
  };

  const identity: Identity = {
    async hasUsers() {
      const row = await db.selectFrom('nf_user').select('id').limit(1).executeTakeFirst();
      return row !== undefined;
    },

    async createUser(actor: Actor, user: NewUser, options: { onlyIfNoUsers?: boolean } = {}) {
      refuseUnlessAdministrator(actor, 'create user');
      const email = normalizeEmail(user.email);
      const fieldErrors = [];
      if (!EMAIL.test(email)) fieldErrors.push(fieldError('email', 'invalid_email', 'Enter a valid email address.'));
      fieldErrors.push(...passwordProblems(user.password, 'password'));
      const unknown = unknownRole(user.roles, knownRoles);
      if (unknown) fieldErrors.push(fieldError('roles', 'unknown_role', `Unknown role "${unknown}".`));
      if ((user.name?.trim().length ?? 0) > MAX_NAME_LENGTH)
        fieldErrors.push(fieldError('name', 'too_big', `Use at most ${MAX_NAME_LENGTH} characters.`));
      const columns = userFieldDefaults(model);
      try {
        Object.assign(columns, await parseUserFields(db, model, user.fields ?? {}));
      } catch (error) {
        if (!(error instanceof NinefoldError) || error.code !== 'VALIDATION_FAILED') throw error;
        fieldErrors.push(...(error.fieldErrors ?? []));
      }
      if (fieldErrors.length) throw new NinefoldError('VALIDATION_FAILED', undefined, { fieldErrors });
      const passwordHash = await hashPassword(user.password);
      try {
        return await db.transaction().execute(async (trx) => {
          if (options.onlyIfNoUsers) {
            // Two first visitors (or two servers bootstrapping) must not both become the first admin.
            await sql`select pg_advisory_xact_lock(${FIRST_USER_LOCK})`.execute(trx);
            const any = await trx.selectFrom('nf_user').select('id').limit(1).executeTakeFirst();
            if (any) throw new NinefoldError('FORBIDDEN', 'The application already has users; sign in instead.');
          }
          const existing = await trx.selectFrom('nf_user').select('id').where('email', '=', email).executeTakeFirst();
          if (existing) throw emailTaken();
          const row = await trx
            .insertInto('nf_user')
            .values({ ...columns, email, name: nameOrDefault(user.name, email), password_hash: passwordHash, roles: [...user.roles] })
            .returning(['id', 'email', 'name', 'roles', 'disabled_at'])
            .executeTakeFirstOrThrow();
          // The setup codes are spent with the first user, however it was made (setup-code.ts).
          await trx.deleteFrom('nf_setup_code').execute();
          return toAccount(row as UserRow);
        });
      } catch (error) {
        // Taken meanwhile by a concurrent createUser (the check above is not a lock).
        if (isUniqueViolation(error)) throw emailTaken();
        throw error;
      }
    },

    async listUsers(actor) {
      refuseUnlessAdministrator(actor, 'list users');
      const rows = await db
        .selectFrom('nf_user')
        .select([...USER_COLUMNS, ...userFieldColumns(model)])
        .orderBy('email')
        .execute();
      return rows.map((r) => toUserInfo(r as UserRow, userFieldValues(model, r)));
    },

    async verifyCredentials(email: string, password: string) {
      const row = await userRow({ email: normalizeEmail(email) });
      // Verify against a decoy when there is no such user, so timing does not reveal accounts.
      const ok = await verifyPassword(password, row?.password_hash ?? (await decoyHash()));
      if (!row || !ok || row.disabled_at !== null) return null;
      return toAccount(row);
    },

    async signIn(email, password, context) {
      const normalized = normalizeEmail(email);
      const keys = throttleKeys(normalized, context.ip);
      const about = { emailDomain: emailDomain(normalized), ip: context.ip };
      // Counted before the password is checked: a burst of guesses, on any number of servers, has
      // at most the limit checked (sign-in-throttle.ts). A failure simply stays counted.
      const attempt = await throttle.attempt(keys);
      if (attempt.refused) {
        logLine('warn', 'sign-in failed', { ...about, reason: 'throttled', retryAfterSeconds: attempt.retryAfterSeconds });
        throw tooManySignInAttempts(attempt.retryAfterSeconds);
      }
      const row = await userRow({ email: normalized });
      const ok = await verifyPassword(password, row?.password_hash ?? (await decoyHash()));
      const reason = !row ? 'unknown-user' : !ok ? 'wrong-password' : row.disabled_at !== null ? 'disabled' : null;
      if (!row || reason) {
        logLine('warn', 'sign-in failed', { ...about, reason, ...(row ? { userId: Number(row.id) } : {}) });
        throw new NinefoldError('UNAUTHENTICATED', BAD_CREDENTIALS);
      }
      await attempt.succeeded();
      const session = await identity.createSession(Number(row.id));
      logLine('info', 'signed in', { userId: Number(row.id), ip: context.ip });
      return { user: toAccount(row), session };
    },

    async createSession(userId: number): Promise<IssuedSession> {
      const session = await insertSession(db, userId);
      // Sessions of this user that have ended by time are of no use to anyone: sweep them now.
      const now = Date.now();
      await db
        .deleteFrom('nf_session')
        .where('user_id', '=', userId)
        .where((eb) =>
          eb.or([
            eb('expires_at', '<=', new Date(now)),
            eb('last_seen_at', '<=', new Date(now - idleMs)),
            eb('created_at', '<=', new Date(now - maxMs)),
          ]),
        )
        .execute();
      return session;
    },

    async actorForSession(token: string): Promise<Actor | null> {
      if (!token || token.length > 100) return null;
      const id = hashToken(token);
      // The session and its user, from memory while this process has written nothing since
      // (store/write-clock.ts): ending a session, disabling a user or changing roles are writes,
      // so they take effect on the next request. The timeouts are checked here on every call.
      const row = await cachedRead(db, `session\u0000${id}`, () =>
        db
          .selectFrom('nf_session as s')
          .innerJoin('nf_user as u', 'u.id', 's.user_id')
          // The user's fields come in the same query: conditions such as { actor: 'team' } read them.
          .select([
            'u.id',
            'u.email',
            'u.name',
            'u.roles',
            's.last_seen_at',
            's.expires_at',
            's.created_at',
            ...userFieldColumns(model, 'u'),
          ])
          .where('s.id', '=', id)
          .where('u.disabled_at', 'is', null)
          .executeTakeFirst(),
      );
      if (!row) return null;
      const now = Date.now();
      const lastSeen = (row.last_seen_at as Date).getTime();
      if (
        (row.expires_at as Date).getTime() <= now ||
        // Absolute timeout: from the sign-in, whatever the activity (and whatever expires_at said then).
        (row.created_at as Date).getTime() <= now - maxMs ||
        // Idle timeout. last_seen_at lags by at most touchMs, so an active session never idles out.
        lastSeen <= now - idleMs
      ) {
        return null;
      }
      if (now - lastSeen > touchMs) {
        await db
          .updateTable('nf_session')
          .set({ last_seen_at: new Date(now) })
          .where('id', '=', id)
          .execute();
      }
      return {
        userId: Number(row.id),
        email: row.email as string,
        name: row.name as string,
        roles: [...(row.roles as string[])],
        ...actorFields(row),
      };
    },

    async endSession(token: string) {
      if (!token || token.length > 100) return;
      const ended = await db.deleteFrom('nf_session').where('id', '=', hashToken(token)).returning('user_id').executeTakeFirst();
      if (ended) logLine('info', 'signed out', { userId: Number(ended.user_id) });
    },

    async disableUser(actor, userId) {
      refuseUnlessAdministrator(actor, 'disable user');
      const by = actingAccount(actor);
      if (by === userId) throw new NinefoldError('FORBIDDEN', 'You cannot disable your own account.');
      const now = new Date();
      const result = await db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('nf_user')
          .set((eb) => ({ disabled_at: eb.fn.coalesce('disabled_at', eb.val(now)), updated_at: now }))
          .where('id', '=', userId)
          .returning(['id', 'email', 'name', 'roles', 'disabled_at'])
          .executeTakeFirst();
        if (!row) throw notFound('user');
        // In the same transaction: once disabled, no session or token of theirs answers again.
        const sessions = await trx.deleteFrom('nf_session').where('user_id', '=', userId).executeTakeFirst();
        const tokens = await trx
          .updateTable('nf_api_token')
          .set({ revoked_at: now })
          .where('user_id', '=', userId)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        return { account: toAccount(row as UserRow), sessions: Number(sessions.numDeletedRows), tokens: Number(tokens.numUpdatedRows) };
      });
      logLine('info', 'user disabled', { userId, by, sessionsEnded: result.sessions, tokensRevoked: result.tokens });
      return result.account;
    },

    async enableUser(actor, userId) {
      refuseUnlessAdministrator(actor, 'enable user');
      const account = await updateUser(userId, { disabled_at: null });
      logLine('info', 'user enabled', { userId, by: actingAccount(actor) });
      return account;
    },

    async setRoles(actor, userId, roles) {
      refuseUnlessAdministrator(actor, 'set roles');
      const by = actingAccount(actor);
      const unknown = unknownRole(roles, knownRoles);
      if (unknown) {
        throw new NinefoldError('VALIDATION_FAILED', `Unknown role "${unknown}".`, {
          fieldErrors: [fieldError('roles', 'unknown_role', `Unknown role "${unknown}".`)],
        });
      }
      const wanted = orderedRoles(roles, knownRoles);
      if (by === userId && !wanted.some(isAdmin)) {
        const current = await userRow({ id: userId });
        if (current && isAdmin(current)) {
          throw new NinefoldError('FORBIDDEN', 'You cannot take the administrator role from yourself; ask another administrator.');
        }
      }
      const account = await updateUser(userId, { roles: wanted });
      logLine('info', 'roles changed', { userId, by, roles: wanted });
      return account;
    },

    async setUserFields(actor, userId, values) {
      refuseUnlessAdministrator(actor, 'set user fields');
      const columns = await parseUserFields(db, model, values);
      // Even with nothing to change, the account must exist (and is read back whole).
      const row = await db
        .updateTable('nf_user')
        .set({ ...columns, updated_at: new Date() })
        .where('id', '=', userId)
        .returning([...USER_COLUMNS, ...userFieldColumns(model)])
        .executeTakeFirst();
      if (!row) throw notFound('user');
      // Names only: the values may say who works where, which the log need not keep.
      logLine('info', 'user fields changed', { userId, by: actingAccount(actor), fields: Object.keys(values) });
      return toUserInfo(row as UserRow, userFieldValues(model, row));
    },

    async updateProfile(userId, profile) {
      const name = typeof profile.name === 'string' ? profile.name.trim() : '';
      if (name === '')
        throw new NinefoldError('VALIDATION_FAILED', 'Enter a name.', { fieldErrors: [fieldError('name', 'required', 'Enter a name.')] });
      if (name.length > MAX_NAME_LENGTH) {
        const message = `The name is too long (${MAX_NAME_LENGTH} characters at most).`;
        throw new NinefoldError('VALIDATION_FAILED', message, { fieldErrors: [fieldError('name', 'too_big', message)] });
      }
      return updateUser(userId, { name });
    },

    async changePassword(userId, current, next) {
      const row = await userRow({ id: userId });
      if (!row || row.disabled_at !== null) throw notFound('user');
      // Guessing the current password from a borrowed session is throttled like guessing at sign-in.
      const attempt = await throttle.attempt(throttleKeys(row.email, undefined));
      if (attempt.refused) throw tooManySignInAttempts(attempt.retryAfterSeconds);
      const fieldErrors = [];
      const ok = await verifyPassword(current, row.password_hash);
      if (ok) await attempt.succeeded();
      else {
        fieldErrors.push(fieldError('currentPassword', 'wrong_password', 'The current password is not correct.'));
        logLine('warn', 'password change failed', { userId, reason: 'wrong-password' });
      }
      fieldErrors.push(...passwordProblems(next, 'newPassword'));
      if (fieldErrors.length) {
        throw new NinefoldError('VALIDATION_FAILED', fieldErrors.map((e) => e.message).join(' '), { fieldErrors });
      }
      const passwordHash = await hashPassword(next);
      const { session, ended } = await db.transaction().execute(async (trx) => {
        await trx.updateTable('nf_user').set({ password_hash: passwordHash, updated_at: new Date() }).where('id', '=', userId).execute();
        // Every session ends, the asking one too; it continues under a new id (given back to the caller).
        const deleted = await trx.deleteFrom('nf_session').where('user_id', '=', userId).executeTakeFirst();
        return { session: await insertSession(trx, userId), ended: Number(deleted.numDeletedRows) };
      });
      logLine('info', 'password changed', { userId, sessionsEnded: ended });
      return session;
    },

    ...createSetupCodes(db, throttle, {
      hasUsers: () => identity.hasUsers(),
      createUser: (u, o) => identity.createUser(SYSTEM_ACTOR, u, o),
      tooMany: tooManySignInAttempts,
    }),
    ...createInvites(db, knownRoles, model),
    ...createApiTokens(db, model),
    ...createPreferences(db),
  };
  return identity;
}
