import { sql } from 'kysely';
import type { Actor } from '../ground/actor';
import { userFieldColumns, userFieldValues } from '../identity/user-fields';
import { JOIN_RECORD, JOIN_TARGET } from '../spec/join-fields';
import type { AppModel, EntityModel } from '../spec/model';
import type { NotificationModel, RecipientModel } from '../spec/notifications';
import { USER_TABLE } from '../store/schema/desired';
import { WATCH_TABLE } from '../store/schema/notify-tables';
import type { DynamicDatabase } from '../store/types';

/*
 * Who a notification is for: the users its `to` names, less the one whose change it is, those
 * who muted the record, and disabled accounts. Whether each may read the record is asked of ops
 * afterwards, with that user as the actor (dispatch.ts).
 */

/** A recipient as ops need them (an Actor) and as e-mail needs them (the address). */
export type Recipient = Actor;

/** The users a field path holds now: `ticket.requester` read from the ticket the record points at. */
async function pathUsers(
  model: AppModel,
  db: DynamicDatabase,
  entity: EntityModel,
  recordId: number,
  to: Extract<RecipientModel, { kind: 'field' }>,
): Promise<number[]> {
  const head = entity.fieldsByName[to.head];
  if (!head?.referenceTo || to.tail === null) return [];
  const ref = await db.selectFrom(entity.table).select(head.column).where('id', '=', recordId).executeTakeFirst();
  const targetId = ref ? (ref as Record<string, unknown>)[head.column] : null;
  if (targetId === null || targetId === undefined) return [];
  const target = model.entitiesByName[head.referenceTo]!;
  const field = target.fieldsByName[to.tail]!;
  if (field.joinTable) {
    const rows = await db.selectFrom(field.joinTable).select(JOIN_TARGET).where(JOIN_RECORD, '=', Number(targetId)).execute();
    return rows.map((r) => Number((r as Record<string, unknown>)[JOIN_TARGET]));
  }
  const row = await db.selectFrom(target.table).select(field.column).where('id', '=', Number(targetId)).executeTakeFirst();
  const id = row ? (row as Record<string, unknown>)[field.column] : null;
  return id === null || id === undefined ? [] : [Number(id)];
}

/** The users watching the record, or (`via` a reference field) the record it points at. */
async function watcherIds(
  model: AppModel,
  db: DynamicDatabase,
  entity: EntityModel,
  recordId: number,
  via: string | null,
): Promise<number[]> {
  let watched = { entity: entity.name, id: recordId };
  if (via !== null) {
    const field = entity.fieldsByName[via]!;
    const row = await db.selectFrom(entity.table).select(field.column).where('id', '=', recordId).executeTakeFirst();
    const id = row ? (row as Record<string, unknown>)[field.column] : null;
    if (id === null || id === undefined) return [];
    watched = { entity: field.referenceTo!, id: Number(id) };
  }
  const rows = await db
    .selectFrom(WATCH_TABLE)
    .select('user_id')
    .where('entity', '=', watched.entity)
    .where('record_id', '=', watched.id)
    .where('mode', '=', 'watch')
    .execute();
  return rows.map((r) => Number(r.user_id));
}

/** The ids `notification` names for the change (`users`: the record's own user fields as the change left them). */
export async function recipientIds(
  model: AppModel,
  db: DynamicDatabase,
  notification: NotificationModel,
  recordId: number,
  users: Readonly<Record<string, readonly number[]>>,
): Promise<Set<number>> {
  const entity = model.entitiesByName[notification.entity]!;
  const ids = new Set<number>();
  for (const to of notification.to) {
    let found: readonly number[] = [];
    if (to.kind === 'field') found = to.tail === null ? (users[to.head] ?? []) : await pathUsers(model, db, entity, recordId, to);
    else if (to.kind === 'role') {
      const rows = await db
        .selectFrom(USER_TABLE)
        .select('id')
        .where(sql<boolean>`${to.role} = any(roles)`)
        .execute();
      found = rows.map((r) => Number(r.id));
    } else found = await watcherIds(model, db, entity, recordId, to.via);
    for (const id of found) ids.add(id);
  }
  return ids;
}

/** A record by entity and id. */
export interface RecordRef {
  readonly entity: string;
  readonly id: number;
}

/**
 * The records whose mute silences `notification` about `recordId`: the record, and those its
 * recipients are found through (a reply's ticket, for `ticket.requester` or `ticket.watchers`).
 */
export async function mutableRecords(
  model: AppModel,
  db: DynamicDatabase,
  notification: NotificationModel,
  recordId: number,
): Promise<RecordRef[]> {
  const entity = model.entitiesByName[notification.entity]!;
  const records: RecordRef[] = [{ entity: entity.name, id: recordId }];
  const heads = new Set(
    notification.to.flatMap((to) =>
      to.kind === 'field' && to.tail !== null ? [to.head] : to.kind === 'watchers' && to.via ? [to.via] : [],
    ),
  );
  for (const head of heads) {
    const field = entity.fieldsByName[head];
    if (!field?.referenceTo) continue;
    const row = await db.selectFrom(entity.table).select(field.column).where('id', '=', recordId).executeTakeFirst();
    const id = row ? (row as Record<string, unknown>)[field.column] : null;
    if (id !== null && id !== undefined) records.push({ entity: field.referenceTo, id: Number(id) });
  }
  return records;
}

/**
 * The accounts among `ids` that are enabled and have muted none of `records`, as actors (roles and
 * user fields, for ops' access checks), with their e-mail addresses.
 */
export async function loadRecipients(
  model: AppModel,
  db: DynamicDatabase,
  ids: readonly number[],
  records: readonly RecordRef[],
): Promise<Recipient[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom(`${USER_TABLE} as u`)
    .select(['u.id', 'u.email', 'u.name', 'u.roles', ...userFieldColumns(model, 'u')])
    .where('u.id', 'in', ids)
    .where('u.disabled_at', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom(`${WATCH_TABLE} as w`)
            .select('w.user_id')
            .whereRef('w.user_id', '=', 'u.id')
            .where('w.mode', '=', 'mute')
            .where(({ or, and, eb }) => or(records.map((r) => and([eb('w.entity', '=', r.entity), eb('w.record_id', '=', r.id)])))),
        ),
      ),
    )
    .orderBy('u.id')
    .execute();
  return rows.map((row) => ({
    userId: Number(row.id),
    email: String(row.email),
    name: String(row.name),
    roles: [...(row.roles as string[])],
    ...(model.users.fields.length ? { fields: userFieldValues(model, row as Record<string, unknown>) } : {}),
  }));
}
