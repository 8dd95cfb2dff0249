import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import { NinefoldError } from '../errors/ninefold-error';
import type { AppModel } from '../spec/model';
import { NOTIFY_PREFERENCE_TABLE, NOTIFY_SECRET_TABLE } from '../store/schema/notify-tables';
import { USER_TABLE } from '../store/schema/desired';
import type { DynamicDatabase } from '../store/types';

/*
 * One-click unsubscribe (RFC 8058): every e-mail carries a link naming its user and its kind of
 * notification (ALL_KINDS for a digest), signed with an HMAC whose key is kept in the database
 * (made once, by whichever process needs it first), so that every server of a fleet signs and
 * checks alike and no setting is needed. Following the link shows a page; a POST to it turns
 * e-mail off for that kind. A link cannot be forged for another user or kind, and says nothing
 * of the user to whoever holds it but the kind's label.
 */

/** The kind a digest's link names: every kind's e-mail off. */
export const ALL_KINDS = '*';
const SECRET_NAME = 'unsubscribe';
const TOKEN = /^(\d{1,15})\.([A-Za-z][A-Za-z0-9]*|\*)\.([A-Za-z0-9_-]{43})$/;

export interface UnsubscribeTarget {
  readonly userId: number;
  /** The kind's name, or ALL_KINDS. */
  readonly kind: string;
  /** What the page says is turned off. */
  readonly label: string;
}

/** The signing key, made on first use; the same for every process of the database. */
async function secretOf(db: DynamicDatabase): Promise<Buffer> {
  const found = await db.selectFrom(NOTIFY_SECRET_TABLE).select('value').where('name', '=', SECRET_NAME).executeTakeFirst();
  if (found) return Buffer.from(String(found.value), 'base64url');
  await db
    .insertInto(NOTIFY_SECRET_TABLE)
    .values({ name: SECRET_NAME, value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  // Another process may have made it first: theirs is the one.
  const made = await db.selectFrom(NOTIFY_SECRET_TABLE).select('value').where('name', '=', SECRET_NAME).executeTakeFirstOrThrow();
  return Buffer.from(String(made.value), 'base64url');
}

const signature = (secret: Buffer, userId: number, kind: string) =>
  createHmac('sha256', secret).update(`unsubscribe:${userId}:${kind}`).digest('base64url');

/** The path of `userId`'s unsubscribe link for `kind` (ALL_KINDS: every kind). */
export async function unsubscribePath(db: DynamicDatabase, userId: number, kind: string): Promise<string> {
  return `/unsubscribe/${userId}.${kind}.${signature(await secretOf(db), userId, kind)}`;
}

const invalidLink = () => new NinefoldError('NOT_FOUND', 'This unsubscribe link is not valid. Choose your e-mails on your account page.');

/** Whose link `token` is, and for what; NOT_FOUND when it is not one this application signed (or the kind is gone). */
export async function unsubscribeTarget(model: AppModel, db: DynamicDatabase, token: string): Promise<UnsubscribeTarget> {
  const match = TOKEN.exec(token);
  if (!match) throw invalidLink();
  const [, user, kind, given] = match;
  const userId = Number(user);
  const expected = Buffer.from(signature(await secretOf(db), userId, kind!));
  if (!timingSafeEqual(expected, Buffer.from(given!))) throw invalidLink();
  if (kind === ALL_KINDS) return { userId, kind, label: 'every kind of notification' };
  const notification = model.notifications.find((n) => n.name === kind);
  if (!notification) throw invalidLink();
  return { userId, kind: kind!, label: notification.label };
}

/** Turns e-mail off for the link's user and kind (every kind for ALL_KINDS), keeping their in-app choice. */
export async function unsubscribe(model: AppModel, db: DynamicDatabase, token: string): Promise<UnsubscribeTarget> {
  const target = await unsubscribeTarget(model, db, token);
  const user = await db.selectFrom(USER_TABLE).select('id').where('id', '=', target.userId).executeTakeFirst();
  if (!user) throw invalidLink();
  const kinds = target.kind === ALL_KINDS ? model.notifications.map((n) => n.name) : [target.kind];
  if (kinds.length === 0) return target;
  await db
    .insertInto(NOTIFY_PREFERENCE_TABLE)
    .values(kinds.map((kind) => ({ user_id: target.userId, kind, in_app: true, email: 'off' })))
    .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet({ email: sql`'off'` }))
    .execute();
  return target;
}
