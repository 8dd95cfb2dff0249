import { sql } from 'kysely';
import { createHash, randomBytes } from 'node:crypto';
import type { Actor } from '../ops/types';
import { NinefoldError } from '../errors/ninefold-error';
import type { DynamicDatabase } from '../store/types';
import { createApiTokens } from './api-tokens';
import { decoyHash, hashPassword, verifyPassword } from './passwords';
import type { Identity, IssuedSession, NewUser, UserAccount } from './types';

const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, so reading a session is usually one query. */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;
export const MIN_PASSWORD_LENGTH = 8;
/** Advisory lock key serialising the creation of the first user. */
const FIRST_USER_LOCK = 7_419_001;

interface UserRow {
  id: number;
  email: string;
  name: string;
  roles: string[];
  disabled_at: Date | null;
  password_hash: string;
}

function toAccount(row: Omit<UserRow, 'password_hash'>): UserAccount {
  return { id: row.id, email: row.email, name: row.name, roles: row.roles, disabled: row.disabled_at !== null };
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function emailTaken(): NinefoldError {
  return new NinefoldError('VALIDATION_FAILED', undefined, {
    fieldErrors: [{ field: 'email', code: 'unique', message: 'A user with this email already exists.' }],
  });
}

export function createIdentity(db: DynamicDatabase, knownRoles: readonly string[]): Identity {
  return {
    async hasUsers() {
      const row = await db.selectFrom('nf_user').select('id').limit(1).executeTakeFirst();
      return row !== undefined;
    },

    async createUser(user: NewUser, options: { onlyIfNoUsers?: boolean } = {}) {
      const email = normalizeEmail(user.email);
      const fieldErrors = [];
      if (!EMAIL.test(email)) fieldErrors.push({ field: 'email', code: 'invalid_email', message: 'Enter a valid email address.' });
      if (user.password.length < MIN_PASSWORD_LENGTH)
        fieldErrors.push({ field: 'password', code: 'too_short', message: `Use at least ${MIN_PASSWORD_LENGTH} characters.` });
      const unknownRole = user.roles.find((r) => !knownRoles.includes(r) && r !== 'admin');
      if (unknownRole) fieldErrors.push({ field: 'roles', code: 'unknown_role', message: `Unknown role "${unknownRole}".` });
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
            .values({ email, name: user.name?.trim() || email.split('@')[0], password_hash: passwordHash, roles: [...user.roles] })
            .returning(['id', 'email', 'name', 'roles', 'disabled_at'])
            .executeTakeFirstOrThrow();
          return toAccount(row as UserRow);
        });
      } catch (error) {
        // Taken meanwhile by a concurrent createUser (the check above is not a lock).
        if ((error as { code?: string })?.code === '23505') throw emailTaken();
        throw error;
      }
    },

    async listUsers() {
      const rows = await db.selectFrom('nf_user').select(['id', 'email', 'name', 'roles', 'disabled_at']).orderBy('email').execute();
      return rows.map((r) => toAccount(r as UserRow));
    },

    async verifyCredentials(email: string, password: string) {
      const row = (await db
        .selectFrom('nf_user')
        .select(['id', 'email', 'name', 'roles', 'disabled_at', 'password_hash'])
        .where('email', '=', normalizeEmail(email))
        .executeTakeFirst()) as UserRow | undefined;
      // Verify against a decoy when there is no such user, so timing does not reveal accounts.
      const ok = await verifyPassword(password, row?.password_hash ?? (await decoyHash()));
      if (!row || !ok || row.disabled_at !== null) return null;
      return toAccount(row);
    },

    async createSession(userId: number): Promise<IssuedSession> {
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(Date.now() + SESSION_LIFETIME_MS);
      await db.insertInto('nf_session').values({ id: hashToken(token), user_id: userId, expires_at: expiresAt }).execute();
      return { token, expiresAt };
    },

    async actorForSession(token: string): Promise<Actor | null> {
      if (!token || token.length > 100) return null;
      const id = hashToken(token);
      const row = await db
        .selectFrom('nf_session as s')
        .innerJoin('nf_user as u', 'u.id', 's.user_id')
        .select(['u.id', 'u.email', 'u.name', 'u.roles', 's.last_seen_at'])
        .where('s.id', '=', id)
        .where('s.expires_at', '>', new Date())
        .where('u.disabled_at', 'is', null)
        .executeTakeFirst();
      if (!row) return null;
      if (Date.now() - (row.last_seen_at as Date).getTime() > TOUCH_INTERVAL_MS) {
        await db.updateTable('nf_session').set({ last_seen_at: new Date() }).where('id', '=', id).execute();
      }
      return { userId: row.id as number, email: row.email as string, name: row.name as string, roles: row.roles as string[] };
    },

    async endSession(token: string) {
      await db.deleteFrom('nf_session').where('id', '=', hashToken(token)).execute();
    },

    ...createApiTokens(db),
  };
}
