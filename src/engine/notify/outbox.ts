import { sql } from 'kysely';
import { evaluateCompiled } from '../condition/evaluate';
import type { Actor } from '../ground/actor';
import { authorId } from '../access/visitor';
import type { EntityModel } from '../spec/model';
import type { NotificationModel } from '../spec/notifications';
import { OUTBOX_TABLE } from '../store/schema/notify-tables';
import type { DynamicDatabase } from '../store/types';
import { nudgeDispatchers } from './nudge';

/*
 * The outbox: one row per change that a notification matches, written by ops in the transaction
 * of the change itself (ops/history.ts), so a crash loses none and a rollback sends none. It
 * records the change and which notifications matched; the dispatcher (dispatch.ts) does the rest.
 * An entity no notification is about costs nothing here: no statement, no evaluation.
 */

type Snapshot = Readonly<Record<string, unknown>>;

/** The change as the write path knows it (history.ts's HistoryEvent, with the changed fields). */
export interface OutboxChange {
  readonly action: 'create' | 'update' | 'transition' | 'delete';
  readonly recordId: number;
  readonly after: Snapshot | null;
  readonly transition?: { readonly name: string };
  /** The declared fields whose value the change moved. */
  readonly changed: readonly string[];
}

/** Whether `notification`'s `on` matches the change (its `when` is asked apart). */
function triggered(notification: NotificationModel, change: OutboxChange): boolean {
  const on = notification.on;
  switch (on.kind) {
    case 'create':
      return change.action === 'create';
    // A create that sets the field (a ticket opened with an assignee) tells as its update would.
    case 'update':
      return change.action !== 'delete' && on.fields.some((f) => change.changed.includes(f));
    case 'transition':
      return change.transition !== undefined && on.transitions.includes(change.transition.name);
    case 'time':
      return false;
  }
}

/** The notifications of `entity` a change matches: `on`, then `when` on the record as written. */
export function matchingNotifications(entity: EntityModel, change: OutboxChange, now: Date): NotificationModel[] {
  if (change.after === null) return [];
  return entity.notifications.filter((n) => triggered(n, change) && (n.when === null || evaluateCompiled(n.when, change.after!, now)));
}

/** The users each of the record's own user fields holds, for the recipients named by them. */
export function recordUsers(entity: EntityModel, notifications: readonly NotificationModel[], after: Snapshot): Record<string, number[]> {
  const users: Record<string, number[]> = {};
  for (const n of notifications) {
    for (const to of n.to) {
      if (to.kind !== 'field' || to.tail !== null) continue;
      const value = after[to.head];
      users[to.head] = (Array.isArray(value) ? value : [value]).filter((v): v is number => typeof v === 'number');
    }
  }
  return users;
}

/** Whether a webhook wants to hear of the change (webhooks/events.ts says which, at dispatch). */
function wantedByWebhooks(entity: EntityModel, change: OutboxChange): boolean {
  return entity.webhookEvents.some(
    (event) => event.kind === change.action && (event.kind !== 'transition' || event.transition === change.transition?.name),
  );
}

export interface OutboxRow {
  readonly entity: string;
  readonly recordId: number;
  readonly kind: OutboxChange['action'] | 'time';
  readonly transition: string | null;
  readonly fields: readonly string[];
  readonly actorId: number | null;
  readonly notifications: readonly string[];
  readonly users: Record<string, number[]>;
}

/** Inserts outbox rows in `trx` and nudges this process's dispatchers (they wait for the commit: see nudge.ts). */
export async function insertOutbox(trx: DynamicDatabase, rows: readonly OutboxRow[]): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto(OUTBOX_TABLE)
    .values(
      rows.map((row) => ({
        entity: row.entity,
        record_id: row.recordId,
        kind: row.kind,
        transition: row.transition,
        fields: sql`${[...row.fields]}::text[]`,
        actor_id: row.actorId,
        notifications: sql`${[...row.notifications]}::text[]`,
        users: sql`${JSON.stringify(row.users)}::jsonb`,
      })),
    )
    .execute();
  nudgeDispatchers();
}

/** Called by ops for every change it records (history.ts), inside the change's transaction. */
export async function writeOutbox(
  trx: DynamicDatabase,
  entity: EntityModel,
  actor: Actor,
  changes: readonly OutboxChange[],
): Promise<void> {
  if (entity.notifications.length === 0 && entity.webhookEvents.length === 0) return;
  const now = new Date();
  const rows: OutboxRow[] = [];
  for (const change of changes) {
    const matched = matchingNotifications(entity, change, now);
    if (matched.length === 0 && !wantedByWebhooks(entity, change)) continue;
    rows.push({
      entity: entity.name,
      recordId: change.recordId,
      kind: change.action,
      transition: change.transition?.name ?? null,
      fields: change.changed,
      actorId: authorId(actor),
      notifications: matched.map((n) => n.name),
      users: change.after ? recordUsers(entity, matched, change.after) : {},
    });
  }
  await insertOutbox(trx, rows);
}
