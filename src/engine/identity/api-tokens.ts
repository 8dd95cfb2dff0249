import { createHash, randomBytes } from 'node:crypto';
import { NinefoldError, notFound } from '../errors/ninefold-error';
import type { Actor } from '../ground/actor';
import type { DynamicDatabase } from '../store/types';
import { cachedRead } from '../store/write-clock';
import type { ApiTokenInfo, Identity, IssuedApiToken } from './types';
import { userFieldColumns, userFieldValues, type UserFieldsModel } from './user-fields';

const TABLE = 'nf_api_token';
export const API_TOKEN_PREFIX = 'nf_';
/** "nf_" and 32 random bytes in base64url: the prefix lets secret scanners recognise a leaked token. */
const TOKEN_SHAPE = /^nf_[A-Za-z0-9_-]{43}$/;
/** last_used_at is written at most this often, so using a token is usually one query. */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;
const MAX_NAME_LENGTH = 100;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function invalid(field: string, code: string, message: string): NinefoldError {
  return new NinefoldError('VALIDATION_FAILED', message, { fieldErrors: [{ field, code, message }] });
}

interface TokenRow {
  id: number;
  name: string;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

type ApiTokens = Pick<Identity, 'createApiToken' | 'listApiTokens' | 'revokeApiToken' | 'actorForApiToken'>;

/** Personal API tokens: what `Authorization: Bearer nf_...` resolves to. */
export function createApiTokens(db: DynamicDatabase, model?: UserFieldsModel): ApiTokens {
  return {
    async createApiToken(userId, options): Promise<IssuedApiToken> {
      const name = typeof options.name === 'string' ? options.name.trim() : '';
      if (name === '') throw invalid('name', 'required', 'Name the token, e.g. after the script that uses it.');
      if (name.length > MAX_NAME_LENGTH) throw invalid('name', 'too_big', `The name can be at most ${MAX_NAME_LENGTH} characters.`);
      const expiresAt = options.expiresAt ?? null;
      if (expiresAt !== null && (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= Date.now())) {
        throw invalid('expiresAt', 'invalid_expiry', 'The expiry must be in the future.');
      }
      const user = await db.selectFrom('nf_user').select('id').where('id', '=', userId).executeTakeFirst();
      if (!user) throw notFound('user');
      const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const row = await db
        .insertInto(TABLE)
        .values({ user_id: userId, name, token_hash: hashToken(token), expires_at: expiresAt })
        .returning(['id'])
        .executeTakeFirstOrThrow();
      return { token, id: row.id as number, name, expiresAt };
    },

    async listApiTokens(userId): Promise<readonly ApiTokenInfo[]> {
      const rows = (await db
        .selectFrom(TABLE)
        .select(['id', 'name', 'created_at', 'expires_at', 'last_used_at', 'revoked_at'])
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .execute()) as TokenRow[];
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        createdAt: r.created_at,
        expiresAt: r.expires_at,
        lastUsedAt: r.last_used_at,
        revokedAt: r.revoked_at,
      }));
    },

    async revokeApiToken(userId, id): Promise<void> {
      if (!Number.isSafeInteger(id) || id < 1) throw notFound('token');
      const result = await db
        .updateTable(TABLE)
        .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.fn('now')) }))
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw notFound('token');
    },

    async actorForApiToken(token): Promise<Actor | null> {
      if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return null;
      const hash = hashToken(token);
      // From memory while this process has written nothing since (store/write-clock.ts):
      // revoking the token or disabling its user are writes and take effect on the next request.
      // The expiry is checked here on every call.
      const row = await cachedRead(db, `token\u0000${hash}`, () =>
        db
          .selectFrom(`${TABLE} as t`)
          .innerJoin('nf_user as u', 'u.id', 't.user_id')
          // The user's fields come in the same query: conditions such as { actor: 'team' } read them.
          .select([
            't.id as token_id',
            't.last_used_at',
            't.expires_at',
            'u.id',
            'u.email',
            'u.name',
            'u.roles',
            ...userFieldColumns(model, 'u'),
          ])
          .where('t.token_hash', '=', hash)
          .where('t.revoked_at', 'is', null)
          .where('u.disabled_at', 'is', null)
          .executeTakeFirst(),
      );
      if (!row) return null;
      const now = new Date();
      const expiresAt = row.expires_at as Date | null;
      if (expiresAt !== null && expiresAt.getTime() <= now.getTime()) return null;
      const lastUsed = row.last_used_at as Date | null;
      if (lastUsed === null || now.getTime() - lastUsed.getTime() > TOUCH_INTERVAL_MS) {
        await db
          .updateTable(TABLE)
          .set({ last_used_at: now })
          .where('id', '=', row.token_id as number)
          .execute();
      }
      const fields = model?.users.fields.length ? { fields: userFieldValues(model, row) } : {};
      return {
        userId: row.id as number,
        email: row.email as string,
        name: row.name as string,
        roles: [...(row.roles as string[])],
        ...fields,
      };
    },
  };
}
