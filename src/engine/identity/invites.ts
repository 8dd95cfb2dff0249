import { randomBytes } from 'node:crypto';
import { NinefoldError, notFound } from '../errors/ninefold-error';
import { logLine } from '../log';
import type { DynamicDatabase } from '../store/types';
import { hashPassword } from './passwords';
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
  unknownRole,
  type UserRow,
} from './shared';
import type { Identity, InviteInfo } from './types';
import { userFieldDefaults, type UserFieldsModel } from './user-fields';
import { actingAccount, refuseUnlessAdministrator } from './administrators';

const TABLE = 'nf_invite';
/** How long an invitation link works. */
export const INVITE_DAYS = 7;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
export const NO_ROLE = 'Choose at least one role.';

interface InviteRow {
  id: number;
  email: string;
  roles: string[];
  invited_by: number | null;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

const COLUMNS = ['id', 'email', 'roles', 'invited_by', 'created_at', 'expires_at', 'used_at'] as const;

function toInfo(row: InviteRow): InviteInfo {
  return {
    id: Number(row.id),
    email: row.email,
    roles: row.roles,
    invitedBy: row.invited_by === null ? null : Number(row.invited_by),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

const unknownLink = () =>
  notFoundBecause('This invitation link is not valid. Check that it was copied whole, or ask an administrator for a new one.');
const usedLink = () => notFoundBecause('This invitation has already been used. Sign in with the account it created.');
const expiredLink = () => notFoundBecause('This invitation has expired. Ask an administrator for a new one.');

function notFoundBecause(detail: string): NinefoldError {
  return new NinefoldError('NOT_FOUND', detail);
}

/** The row's invitation when it can still be accepted; the reason as an error otherwise. */
function usable(row: InviteRow | undefined): InviteRow {
  if (!row) throw unknownLink();
  if (row.used_at !== null) throw usedLink();
  if (row.expires_at.getTime() <= Date.now()) throw expiredLink();
  return row;
}

type Invites = Pick<Identity, 'createInvite' | 'inviteFor' | 'acceptInvite' | 'listInvites' | 'revokeInvite'>;

/** One-time links that let a new person create their own account with the roles chosen for them. */
export function createInvites(db: DynamicDatabase, knownRoles: readonly string[], model?: UserFieldsModel): Invites {
  const byToken = async (executor: DynamicDatabase, token: string, lock: boolean): Promise<InviteRow | undefined> => {
    if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return undefined;
    const query = executor
      .selectFrom(TABLE)
      .select([...COLUMNS])
      .where('token_hash', '=', hashToken(token));
    return (await (lock ? query.forUpdate() : query).executeTakeFirst()) as InviteRow | undefined;
  };

  return {
    async createInvite(actor, { email: rawEmail, roles }) {
      refuseUnlessAdministrator(actor, 'invite');
      const invitedBy = actingAccount(actor);
      const email = normalizeEmail(typeof rawEmail === 'string' ? rawEmail : '');
      const fieldErrors = [];
      if (!EMAIL.test(email) || email.length > 320) fieldErrors.push(fieldError('email', 'invalid_email', 'Enter a valid email address.'));
      const unknown = unknownRole(roles, knownRoles);
      if (unknown) fieldErrors.push(fieldError('roles', 'unknown_role', `Unknown role "${unknown}".`));
      // An account with no role can open nothing: the invitation would make a useless account.
      else if (orderedRoles(roles, knownRoles).length === 0) fieldErrors.push(fieldError('roles', 'required', NO_ROLE));
      if (fieldErrors.length) throw new NinefoldError('VALIDATION_FAILED', fieldErrors.map((e) => e.message).join(' '), { fieldErrors });
      const existing = await db.selectFrom('nf_user').select('id').where('email', '=', email).executeTakeFirst();
      if (existing) throw emailTaken();

      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(Date.now() + INVITE_DAYS * 24 * 60 * 60 * 1000);
      const invitedRoles = orderedRoles(roles, knownRoles);
      const row = await db
        .insertInto(TABLE)
        .values({ email, roles: invitedRoles, token_hash: hashToken(token), invited_by: invitedBy, expires_at: expiresAt })
        .returning(['id'])
        .executeTakeFirstOrThrow();
      const id = Number(row.id);
      logLine('info', 'invite created', { inviteId: id, by: invitedBy, emailDomain: emailDomain(email), roles: invitedRoles });
      return { id, token, path: `/invite/${token}`, email, roles: invitedRoles, expiresAt };
    },

    async inviteFor(token) {
      return toInfo(usable(await byToken(db, token, false)));
    },

    async acceptInvite(token, account) {
      const name = typeof account.name === 'string' ? account.name.trim() : '';
      const password = typeof account.password === 'string' ? account.password : '';
      const fieldErrors = [...passwordProblems(password, 'password')];
      if (name.length > MAX_NAME_LENGTH) fieldErrors.push(fieldError('name', 'too_big', `Use at most ${MAX_NAME_LENGTH} characters.`));
      // Refuse a dead link before the form's own mistakes: nothing the visitor types can fix it.
      usable(await byToken(db, token, false));
      if (fieldErrors.length) throw new NinefoldError('VALIDATION_FAILED', fieldErrors.map((e) => e.message).join(' '), { fieldErrors });
      const passwordHash = await hashPassword(password);
      try {
        const { user, inviteId } = await db.transaction().execute(async (trx) => {
          // Locked: of two acceptances at once, the second waits and then finds the link used.
          const invite = usable(await byToken(trx, token, true));
          const existing = await trx.selectFrom('nf_user').select('id').where('email', '=', invite.email).executeTakeFirst();
          if (existing) throw emailTaken();
          const row = await trx
            .insertInto('nf_user')
            // The user fields start at their defaults: an administrator sets the rest afterwards.
            .values({
              ...userFieldDefaults(model),
              email: invite.email,
              name: nameOrDefault(name, invite.email),
              password_hash: passwordHash,
              roles: invite.roles,
            })
            .returning(['id', 'email', 'name', 'roles', 'disabled_at'])
            .executeTakeFirstOrThrow();
          await trx.updateTable(TABLE).set({ used_at: new Date() }).where('id', '=', invite.id).execute();
          return { user: toAccount(row as UserRow), inviteId: Number(invite.id) };
        });
        logLine('info', 'invite accepted', { inviteId, userId: user.id });
        return user;
      } catch (error) {
        if (isUniqueViolation(error)) throw emailTaken();
        throw error;
      }
    },

    async listInvites(actor) {
      refuseUnlessAdministrator(actor, 'list invitations');
      const rows = (await db
        .selectFrom(TABLE)
        .select([...COLUMNS])
        .where('used_at', 'is', null)
        .where('expires_at', '>', new Date())
        .orderBy('id', 'desc')
        .execute()) as InviteRow[];
      return rows.map(toInfo);
    },

    async revokeInvite(actor, id) {
      refuseUnlessAdministrator(actor, 'revoke invitation');
      if (!Number.isSafeInteger(id) || id < 1) throw notFound('invitation');
      const result = await db.deleteFrom(TABLE).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw notFound('invitation');
      logLine('info', 'invite revoked', { inviteId: id });
    },
  };
}
