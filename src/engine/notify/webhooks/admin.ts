import type { Actor } from '../../ground/actor';
import type { AppModel } from '../../spec/model';
import type { DynamicDatabase } from '../../store/types';
import { listWebhookDeliveries, requireWebhookAdmin, retryWebhookDelivery, type DeliveryPage, type DeliveryQuery } from './deliveries';
import { webhookTargets, type WebhookEnv } from './targets';

/** A webhook as administrators see it: on, or off and why (never its address or secret). */
export interface WebhookState {
  readonly name: string;
  readonly events: readonly string[];
  readonly role: string;
  /** Null when it is on; else which variable is missing or wrong. */
  readonly off: string | null;
}

/** What the doors (the admin page, the API) may do with webhooks: administrators only. */
export interface WebhookAdmin {
  states(actor: Actor): readonly WebhookState[];
  deliveries(actor: Actor, query?: DeliveryQuery): Promise<DeliveryPage>;
  /** Sends a delivery again now (the scheduler's next run posts it). */
  sendAgain(actor: Actor, id: number): Promise<void>;
}

export function createWebhookAdmin(model: AppModel, db: DynamicDatabase, env: WebhookEnv): WebhookAdmin {
  return {
    states(actor) {
      requireWebhookAdmin(actor, 'read the webhooks');
      const targets = new Map(webhookTargets(model, env).map((target) => [target.name, target]));
      return model.webhooks.map((webhook) => {
        const target = targets.get(webhook.name);
        return {
          name: webhook.name,
          events: webhook.events.map((event) => event.type),
          role: webhook.role,
          off: target && !target.on ? target.reason : null,
        };
      });
    },
    deliveries: (actor, query) => listWebhookDeliveries(db, model, actor, query),
    sendAgain: (actor, id) => retryWebhookDelivery(db, model, actor, id, new Date()),
  };
}
