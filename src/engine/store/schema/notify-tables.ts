import { foreignKey, ID, index, NOW, table, TIMESTAMPTZ } from './table-helpers';
import { objectName } from './sql';
import type { TableDef } from './types';

/*
 * The tables of notifications (src/engine/notify): the outbox written in the transaction of each
 * change a notification matches, the deliveries per recipient and channel (each unique on its
 * outbox row, kind and user, so a delivery is written once however many processes dispatch), users'
 * watches and mutes, the reminders already taken, the digests already sent and the key of the
 * unsubscribe links.
 */

export const OUTBOX_TABLE = 'nf_outbox';
export const INBOX_TABLE = 'nf_notification';
export const MAIL_TABLE = 'nf_mail';
export const DIGEST_TABLE = 'nf_digest';
export const WATCH_TABLE = 'nf_watch';
export const REMINDER_TABLE = 'nf_reminder';
export const NOTIFY_PREFERENCE_TABLE = 'nf_notify_preference';
export const NOTIFY_SECRET_TABLE = 'nf_notify_secret';

/** The accounts table (desired.ts's USER_TABLE; named here, as desired.ts lists these tables). */
const USER_TABLE = 'nf_user';

export function notifyTables(): TableDef[] {
  return [
    table(
      OUTBOX_TABLE,
      [
        ID,
        { name: 'at', type: TIMESTAMPTZ, nullable: false, default: NOW },
        { name: 'entity', type: 'text', nullable: false },
        { name: 'record_id', type: 'bigint', nullable: false },
        // create, update, transition, or time (a reminder the scheduler took).
        { name: 'kind', type: 'text', nullable: false },
        { name: 'transition', type: 'text', nullable: true },
        { name: 'fields', type: 'text[]', nullable: false, default: "'{}'::text[]" },
        // Who made the change (not told of it); null for the system.
        { name: 'actor_id', type: 'bigint', nullable: true },
        // The notifications whose `on` and `when` matched, by kind name.
        { name: 'notifications', type: 'text[]', nullable: false, default: "'{}'::text[]" },
        // The users the record's own user fields held after the change, by field: "assigned to you" goes to that assignee.
        { name: 'users', type: 'jsonb', nullable: false, default: "'{}'::jsonb" },
        { name: 'done_at', type: TIMESTAMPTZ, nullable: true },
      ],
      { indexes: [{ ...index(OUTBOX_TABLE, ['id']), name: objectName(OUTBOX_TABLE, ['pending'], 'idx'), where: 'done_at IS NULL' }] },
    ),
    table(
      INBOX_TABLE,
      [
        ID,
        { name: 'user_id', type: 'bigint', nullable: false },
        { name: 'outbox_id', type: 'bigint', nullable: false },
        { name: 'kind', type: 'text', nullable: false },
        { name: 'entity', type: 'text', nullable: false },
        { name: 'record_id', type: 'bigint', nullable: false },
        { name: 'title', type: 'text', nullable: false },
        { name: 'body', type: 'text', nullable: false, default: "''::text" },
        { name: 'read_at', type: TIMESTAMPTZ, nullable: true },
        { name: 'created_at', type: TIMESTAMPTZ, nullable: false, default: NOW },
      ],
      {
        uniques: [{ name: objectName(INBOX_TABLE, ['outbox_id', 'kind', 'user_id'], 'key'), columns: ['outbox_id', 'kind', 'user_id'] }],
        foreignKeys: [foreignKey(INBOX_TABLE, 'user_id', USER_TABLE, 'cascade')],
        indexes: [
          index(INBOX_TABLE, ['user_id', 'id']),
          { ...index(INBOX_TABLE, ['user_id']), name: objectName(INBOX_TABLE, ['user_id', 'unread'], 'idx'), where: 'read_at IS NULL' },
        ],
      },
    ),
    table(
      MAIL_TABLE,
      [
        ID,
        { name: 'user_id', type: 'bigint', nullable: false },
        { name: 'outbox_id', type: 'bigint', nullable: false },
        { name: 'kind', type: 'text', nullable: false },
        { name: 'entity', type: 'text', nullable: false },
        { name: 'record_id', type: 'bigint', nullable: false },
        { name: 'to_address', type: 'text', nullable: false },
        { name: 'subject', type: 'text', nullable: false },
        { name: 'body_text', type: 'text', nullable: false },
        { name: 'link', type: 'text', nullable: false, default: "''::text" },
        // Kept for the user's daily digest rather than sent alone.
        { name: 'digest', type: 'boolean', nullable: false, default: 'false' },
        { name: 'attempts', type: 'integer', nullable: false, default: '0' },
        { name: 'next_attempt_at', type: TIMESTAMPTZ, nullable: false, default: NOW },
        { name: 'sent_at', type: TIMESTAMPTZ, nullable: true },
        { name: 'error', type: 'text', nullable: true },
        { name: 'created_at', type: TIMESTAMPTZ, nullable: false, default: NOW },
      ],
      {
        uniques: [{ name: objectName(MAIL_TABLE, ['outbox_id', 'kind', 'user_id'], 'key'), columns: ['outbox_id', 'kind', 'user_id'] }],
        foreignKeys: [foreignKey(MAIL_TABLE, 'user_id', USER_TABLE, 'cascade')],
        indexes: [
          {
            ...index(MAIL_TABLE, ['next_attempt_at']),
            name: objectName(MAIL_TABLE, ['due'], 'idx'),
            where: 'sent_at IS NULL AND NOT digest',
          },
          { ...index(MAIL_TABLE, ['user_id']), name: objectName(MAIL_TABLE, ['digest'], 'idx'), where: 'sent_at IS NULL AND digest' },
        ],
      },
    ),
    table(
      DIGEST_TABLE,
      [
        { name: 'user_id', type: 'bigint', nullable: false },
        { name: 'day', type: 'date', nullable: false },
        { name: 'sent_at', type: TIMESTAMPTZ, nullable: false, default: NOW },
      ],
      { primaryKey: ['user_id', 'day'], foreignKeys: [foreignKey(DIGEST_TABLE, 'user_id', USER_TABLE, 'cascade')] },
    ),
    table(
      WATCH_TABLE,
      [
        { name: 'user_id', type: 'bigint', nullable: false },
        { name: 'entity', type: 'text', nullable: false },
        { name: 'record_id', type: 'bigint', nullable: false },
        // watch: told of what `watchers` are told; mute: told of nothing about the record.
        { name: 'mode', type: 'text', nullable: false },
        { name: 'created_at', type: TIMESTAMPTZ, nullable: false, default: NOW },
      ],
      {
        primaryKey: ['user_id', 'entity', 'record_id'],
        foreignKeys: [foreignKey(WATCH_TABLE, 'user_id', USER_TABLE, 'cascade')],
        indexes: [index(WATCH_TABLE, ['entity', 'record_id'])],
      },
    ),
    table(
      NOTIFY_PREFERENCE_TABLE,
      [
        // A user's choice for one kind of notification; no row: in the app and an e-mail for each.
        { name: 'user_id', type: 'bigint', nullable: false },
        { name: 'kind', type: 'text', nullable: false },
        { name: 'in_app', type: 'boolean', nullable: false, default: 'true' },
        // each, digest or off.
        { name: 'email', type: 'text', nullable: false, default: "'each'::text" },
      ],
      { primaryKey: ['user_id', 'kind'], foreignKeys: [foreignKey(NOTIFY_PREFERENCE_TABLE, 'user_id', USER_TABLE, 'cascade')] },
    ),
    table(
      REMINDER_TABLE,
      [
        { name: 'notification', type: 'text', nullable: false },
        { name: 'record_id', type: 'bigint', nullable: false },
        // The value of the field counted from: a moved time is a new reminder.
        { name: 'at', type: TIMESTAMPTZ, nullable: false },
        { name: 'taken_at', type: TIMESTAMPTZ, nullable: false, default: NOW },
      ],
      { primaryKey: ['notification', 'record_id', 'at'] },
    ),
    table(
      NOTIFY_SECRET_TABLE,
      [
        // The key that signs unsubscribe links (unsubscribe.ts): made once by whichever process needs it first.
        { name: 'name', type: 'text', nullable: false },
        { name: 'value', type: 'text', nullable: false },
        { name: 'created_at', type: TIMESTAMPTZ, nullable: false, default: NOW },
      ],
      { primaryKey: ['name'] },
    ),
  ];
}
