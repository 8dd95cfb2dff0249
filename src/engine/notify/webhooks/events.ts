import type { AppModel } from '../../spec/model';
import type { WebhookModel } from '../../spec/webhooks';
import type { WebhookChange } from './change';

export interface WebhookEvent {
  readonly webhook: WebhookModel;
  /** The event's name, as the payload's `type`: 'ticket.resolve'. */
  readonly type: string;
}

/** Which webhooks a change concerns, each with the event it is for them (in the spec's order). */
export function webhookEventsFor(model: Pick<AppModel, 'webhooks'>, change: WebhookChange): WebhookEvent[] {
  return model.webhooks.flatMap((webhook) =>
    webhook.events
      .filter(
        (event) =>
          event.entity === change.entity &&
          event.kind === change.kind &&
          (event.kind !== 'transition' || event.transition === change.transition),
      )
      .map((event) => ({ webhook, type: event.type })),
  );
}
