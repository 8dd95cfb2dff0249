import { sql } from 'kysely';
import { NinefoldError, notFound } from '../errors/ninefold-error';
import type { Actor } from '../ground/actor';
import type { AppModel } from '../spec/model';
import { INBOX_TABLE } from '../store/schema/notify-tables';
import type { DynamicDatabase } from '../store/types';
import { INBOX_CHANNEL } from './inbox-channel';
import { recordPath } from './record-link';

/*
 * A user's in-app notifications: each user reads and marks only their own (the actor's id is in
 * every statement). What each says was rendered with that user's sight at dispatch (render.ts).
 */

export interface InboxItem {
  readonly id: number;
  readonly kind: string;
  readonly title: string;
  readonly text: string;
  /** The record's page. */
  readonly link: string;
  readonly entity: string;
  readonly recordId: number;
  readonly read: boolean;
  readonly createdAt: Date;
}

export interface InboxPage {
  readonly items: readonly InboxItem[];
  /** The cursor of the next (older) page; null on the last. */
  readonly nextCursor: string | null;
}

const DEFAULT_LIMIT = 30;
const MAX_LIMIT = 100;

function ownerOf(actor: Actor): number {
  if (actor.visitor || actor.system) throw new NinefoldError('UNAUTHENTICATED');
  return actor.userId;
}

function parseCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  if (!/^\d{1,15}$/.test(cursor)) {
    throw new NinefoldError('VALIDATION_FAILED', 'The inbox cursor is not valid. Start again from the newest.', {
      fieldErrors: [{ field: 'cursor', code: 'invalid_cursor', message: 'The inbox cursor is not valid.' }],
    });
  }
  return Number(cursor);
}

/** The actor's notifications, newest first, by keyset on the id. */
export async function listInbox(
  model: AppModel,
  db: DynamicDatabase,
  actor: Actor,
  query: { cursor?: string; limit?: number; unread?: boolean } = {},
): Promise<InboxPage> {
  const userId = ownerOf(actor);
  const limit = Math.min(Math.max(Math.trunc(query.limit ?? DEFAULT_LIMIT) || DEFAULT_LIMIT, 1), MAX_LIMIT);
  const before = parseCursor(query.cursor);
  let rows = db
    .selectFrom(INBOX_TABLE)
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit + 1);
  if (before !== undefined) rows = rows.where('id', '<', before);
  if (query.unread) rows = rows.where('read_at', 'is', null);
  const found = await rows.execute();
  const items = found.slice(0, limit).map((row): InboxItem => {
    const entity = model.entitiesByName[String(row.entity)];
    const recordId = Number(row.record_id);
    return {
      id: Number(row.id),
      kind: String(row.kind),
      title: String(row.title),
      text: String(row.body),
      link: entity ? recordPath(entity, recordId) : '/',
      entity: String(row.entity),
      recordId,
      read: row.read_at !== null,
      createdAt: new Date(row.created_at as Date),
    };
  });
  return { items, nextCursor: found.length > limit ? String(items[items.length - 1]!.id) : null };
}

/** How many of the actor's notifications are unread (the bell). */
export async function unreadCount(db: DynamicDatabase, actor: Actor): Promise<number> {
  if (actor.visitor || actor.system) return 0;
  const row = await db
    .selectFrom(INBOX_TABLE)
    .select(sql<number>`count(*)::int`.as('n'))
    .where('user_id', '=', actor.userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Marks one of the actor's notifications read; NOT_FOUND for anyone else's (ids cannot be probed). */
export async function markRead(db: DynamicDatabase, actor: Actor, id: number): Promise<void> {
  const userId = ownerOf(actor);
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound('notification');
  const result = await db
    .updateTable(INBOX_TABLE)
    .set({ read_at: sql`coalesce(read_at, now())` })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound('notification');
  await announceRead(db, userId);
}

/** The user's bells in other tabs and processes follow a read (live hub): their id, nothing more. */
async function announceRead(db: DynamicDatabase, userId: number): Promise<void> {
  await sql`select pg_notify(${INBOX_CHANNEL}, ${JSON.stringify([userId])})`.execute(db);
}

/** Marks every unread notification of the actor read; returns how many. */
export async function markAllRead(db: DynamicDatabase, actor: Actor): Promise<number> {
  const userId = ownerOf(actor);
  const result = await db
    .updateTable(INBOX_TABLE)
    .set({ read_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  const marked = Number(result.numUpdatedRows);
  if (marked > 0) await announceRead(db, userId);
  return marked;
}
