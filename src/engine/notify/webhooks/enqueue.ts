import { randomUUID } from 'node:crypto';
import type { AppModel } from '../../spec/model';
import type { DynamicDatabase } from '../../store/types';
import type { ReadRecordAs, RecordAsRole, WebhookChange } from './change';
import { webhookEventsFor } from './events';
import { WEBHOOK_DELIVERY_TABLE } from './tables';

/** What a receiver gets, as JSON. */
export interface WebhookPayload {
  readonly type: string;
  /** When the change happened (ISO 8601). */
  readonly timestamp: string;
  readonly data: {
    readonly entity: string;
    readonly id: string | number;
    /** The record as the webhook's role reads it; null once deleted. */
    readonly record: RecordAsRole;
    /** The fields changed, of those the role may read. */
    readonly changed: readonly string[];
  };
}

/**
 * Queues a delivery per webhook the change concerns, in the caller's transaction (the
 * dispatcher's, which also marks the outbox row done: both or neither). The record is read once
 * per role. A record the role cannot read (out of its scope) is not told of, since the payload
 * would say it exists; a deletion is, with `record: null`. Returns the deliveries queued.
 */
export async function enqueueWebhookDeliveries(
  trx: DynamicDatabase,
  model: Pick<AppModel, 'webhooks'>,
  change: WebhookChange,
  readRecordAs: ReadRecordAs,
): Promise<number> {
  const events = webhookEventsFor(model, change);
  if (events.length === 0) return 0;
  const records = new Map<string, Promise<RecordAsRole>>();
  const recordAs = (role: string) => {
    if (change.kind === 'delete') return Promise.resolve(null);
    let read = records.get(role);
    if (!read) records.set(role, (read = readRecordAs(role)));
    return read;
  };
  const rows = [];
  for (const event of events) {
    const record = await recordAs(event.webhook.role);
    if (record === null && change.kind !== 'delete') continue;
    const payload: WebhookPayload = {
      type: event.type,
      timestamp: change.at.toISOString(),
      data: {
        entity: change.entity,
        id: change.recordId,
        record,
        changed: record === null ? [] : change.changed.filter((field) => Object.hasOwn(record, field)),
      },
    };
    rows.push({
      webhook: event.webhook.name,
      event_id: `msg_${randomUUID().replaceAll('-', '')}`,
      event_type: event.type,
      entity: change.entity,
      record_id: String(change.recordId),
      payload: JSON.stringify(payload),
      next_attempt_at: change.at,
    });
  }
  if (rows.length > 0) await trx.insertInto(WEBHOOK_DELIVERY_TABLE).values(rows).execute();
  return rows.length;
}
