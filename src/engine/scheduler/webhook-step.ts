import { deliverDueWebhooks, type DeliveryRun } from '../notify/webhooks/deliver';
import type { WebhookEnv } from '../notify/webhooks/targets';
import type { OpsContext } from '../ops/context';

/**
 * The scheduler's webhook step: each run posts the deliveries that have fallen due. Null when
 * the spec declares no webhooks. A webhook that is off is logged once per scheduler.
 */
export function webhookStep(ctx: OpsContext, env: WebhookEnv): ((now: Date) => Promise<DeliveryRun>) | null {
  if (ctx.model.webhooks.length === 0) return null;
  const offLogged = new Set<string>();
  return (now) => deliverDueWebhooks(ctx.db, ctx.model, env, now, { offLogged });
}
