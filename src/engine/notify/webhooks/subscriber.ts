import type { OpsContext } from '../../ops/context';
import type { OutboxSubscriber } from '../dispatch';
import type { WebhookChange } from './change';
import { enqueueWebhookDeliveries } from './enqueue';
import { webhookEventsFor } from './events';
import { readRecordAsRole } from './read-as-role';

/*
 * Webhooks follow the outbox: the dispatcher hands each change to this subscriber inside its own
 * transaction, so a change's deliveries are queued once, with the row marked done (both or neither).
 */

/** The outbox subscriber of the spec's webhooks; none when it declares none. */
export function webhookSubscribers(ctx: OpsContext): OutboxSubscriber[] {
  if (ctx.model.webhooks.length === 0) return [];
  return [
    async (trx, change) => {
      // A reminder is a time, not a change of the record: webhooks are told of changes only.
      if (change.kind === 'time') return;
      const webhookChange: WebhookChange = {
        entity: change.entity,
        recordId: change.recordId,
        kind: change.kind,
        ...(change.transition !== null ? { transition: change.transition } : {}),
        changed: change.fields,
        actorId: change.actorId === null ? null : String(change.actorId),
        at: change.at,
      };
      if (webhookEventsFor(ctx.model, webhookChange).length === 0) return;
      await enqueueWebhookDeliveries(trx, ctx.model, webhookChange, readRecordAsRole({ ...ctx, db: trx }, webhookChange));
    },
  ];
}
