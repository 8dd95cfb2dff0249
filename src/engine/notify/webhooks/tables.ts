import type { AppModel } from '../../spec/model';
import { foreignKey, ID, index, NOW, table, TIMESTAMPTZ } from '../../store/schema/table-helpers';
import { objectName } from '../../store/schema/sql';
import type { ColumnDef, TableDef } from '../../store/schema/types';

/*
 * The webhooks' own tables: one row per delivery (an event for one webhook), and its attempts,
 * which are the delivery log administrators read at /admin/webhooks.
 */

export const WEBHOOK_DELIVERY_TABLE = 'nf_webhook_delivery';
export const WEBHOOK_ATTEMPT_TABLE = 'nf_webhook_attempt';

const column = (name: string, type: string, nullable: boolean, extra: Partial<ColumnDef> = {}): ColumnDef => ({
  name,
  type,
  nullable,
  ...extra,
});

/** Only a spec that declares webhooks has them. */
export function webhookTables(model: Pick<AppModel, 'webhooks'> | undefined): TableDef[] {
  if (!model || model.webhooks.length === 0) return [];
  return [
    table(
      WEBHOOK_DELIVERY_TABLE,
      [
        ID,
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
        column('next_attempt_at', TIMESTAMPTZ, false, { default: NOW }),
        // Set by the sender that claimed it; its result is kept only if the claim is still its own.
        column('claim', 'text', true),
        column('last_status', 'integer', true),
        column('last_error', 'text', true),
        column('created_at', TIMESTAMPTZ, false, { default: NOW }),
        column('updated_at', TIMESTAMPTZ, false, { default: NOW }),
      ],
      {
        uniques: [{ name: objectName(WEBHOOK_DELIVERY_TABLE, ['event_id'], 'key'), columns: ['event_id'] }],
        indexes: [
          // The senders' claim: pending deliveries by due time.
          index(WEBHOOK_DELIVERY_TABLE, ['status', 'next_attempt_at', 'id']),
          // The admin page's filters, newest first.
          index(WEBHOOK_DELIVERY_TABLE, ['webhook', 'id']),
        ],
      },
    ),
    table(
      WEBHOOK_ATTEMPT_TABLE,
      [
        ID,
        column('delivery_id', 'bigint', false),
        column('at', TIMESTAMPTZ, false),
        column('http_status', 'integer', true),
        column('duration_ms', 'integer', false),
        column('error', 'text', true),
        column('response_excerpt', 'text', true),
      ],
      {
        foreignKeys: [foreignKey(WEBHOOK_ATTEMPT_TABLE, 'delivery_id', WEBHOOK_DELIVERY_TABLE, 'cascade')],
        indexes: [index(WEBHOOK_ATTEMPT_TABLE, ['delivery_id', 'id'])],
      },
    ),
  ];
}
