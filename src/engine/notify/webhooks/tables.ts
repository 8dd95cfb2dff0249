import { objectName } from '../../store/schema/sql';
import type { AppModel } from '../../spec/model';
import type { ColumnDef, IndexDef, TableDef } from '../../store/schema/types';

/*
 * The webhooks' own tables: one row per delivery (an event for one webhook), and its attempts,
 * which are the delivery log administrators read at /admin/webhooks.
 */

export const WEBHOOK_DELIVERY_TABLE = 'nf_webhook_delivery';
export const WEBHOOK_ATTEMPT_TABLE = 'nf_webhook_attempt';

/** As store/schema/desired.ts: millisecond times, the precision of a Date and of keyset cursors. */
const TIMESTAMPTZ = 'timestamp(3) with time zone';

const column = (name: string, type: string, nullable: boolean, extra: Partial<ColumnDef> = {}): ColumnDef => ({
  name,
  type,
  nullable,
  ...extra,
});

function index(table: string, columns: readonly string[]): IndexDef {
  return { name: objectName(table, columns, 'idx'), columns, method: 'btree' };
}

/** Only a spec that declares webhooks has them. */
export function webhookTables(model: Pick<AppModel, 'webhooks'> | undefined): TableDef[] {
  if (!model || model.webhooks.length === 0) return [];
  return [
    {
      name: WEBHOOK_DELIVERY_TABLE,
      columns: [
        column('id', 'bigint', false, { identity: true }),
        column('webhook', 'text', false),
        // Sent as webhook-id: the same on every attempt, so the receiver can drop a repeat.
        column('event_id', 'text', false),
        column('event_type', 'text', false),
        column('entity', 'text', false),
        column('record_id', 'text', false),
        // The body as sent, byte for byte (jsonb would reorder its keys).
        column('payload', 'text', false),
        // pending (due at next_attempt_at), delivered, or failed (410, or the last retry failed).
        column('status', 'text', false, { default: "'pending'::text" }),
        column('attempts', 'integer', false, { default: '0' }),
        column('next_attempt_at', TIMESTAMPTZ, false, { default: 'now()' }),
        // Set by the sender that claimed it; its result is kept only if the claim is still its own.
        column('claim', 'text', true),
        column('last_status', 'integer', true),
        column('last_error', 'text', true),
        column('created_at', TIMESTAMPTZ, false, { default: 'now()' }),
        column('updated_at', TIMESTAMPTZ, false, { default: 'now()' }),
      ],
      primaryKey: ['id'],
      uniques: [{ name: objectName(WEBHOOK_DELIVERY_TABLE, ['event_id'], 'key'), columns: ['event_id'] }],
      foreignKeys: [],
      indexes: [
        // The senders' claim: pending deliveries by due time.
        index(WEBHOOK_DELIVERY_TABLE, ['status', 'next_attempt_at', 'id']),
        // The admin page's filters, newest first.
        index(WEBHOOK_DELIVERY_TABLE, ['webhook', 'id']),
      ],
    },
    {
      name: WEBHOOK_ATTEMPT_TABLE,
      columns: [
        column('id', 'bigint', false, { identity: true }),
        column('delivery_id', 'bigint', false),
        column('at', TIMESTAMPTZ, false),
        column('http_status', 'integer', true),
        column('duration_ms', 'integer', false),
        column('error', 'text', true),
        column('response_excerpt', 'text', true),
      ],
      primaryKey: ['id'],
      uniques: [],
      foreignKeys: [
        {
          name: objectName(WEBHOOK_ATTEMPT_TABLE, ['delivery_id'], 'fkey'),
          columns: ['delivery_id'],
          references: { table: WEBHOOK_DELIVERY_TABLE, columns: ['id'] },
          onDelete: 'cascade',
        },
      ],
      indexes: [index(WEBHOOK_ATTEMPT_TABLE, ['delivery_id', 'id'])],
    },
  ];
}
