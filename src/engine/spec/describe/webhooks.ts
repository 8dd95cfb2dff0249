import { MAX_ATTEMPTS, retryScheduleText } from '../../notify/webhooks/backoff';
import type { DocBlock } from '../document';
import type { AppModel } from '../model';
import { code } from './text';
import type { PointBlocks } from './product';

/** Point 7 with the webhooks after the spec's own calls: they are calls the application makes. */
export function withWebhookBlocks(model: AppModel, calls: PointBlocks): PointBlocks {
  if (model.webhooks.length === 0) return calls;
  return [...(calls ?? []), ...webhookBlocks(model)];
}

function webhookBlocks(model: AppModel): DocBlock[] {
  return [
    { kind: 'heading', text: 'Webhooks' },
    {
      kind: 'paragraph',
      text:
        `A change among a webhook's events is posted to it as JSON: ${code('{ type, timestamp, data: { entity, id, record, changed } }')}, ` +
        `the record as the webhook's role reads it (fields it may not read are left out; ${code('null')} once deleted) and the names of the fields changed. ` +
        `Each post is signed the Standard Webhooks way (${code('webhook-id')}, ${code('webhook-timestamp')}, ${code('webhook-signature')}: HMAC-SHA256 with the webhook's secret). ` +
        `An answer other than 2xx, or none within 10 s, is tried again after ${retryScheduleText()} (${MAX_ATTEMPTS} attempts, about a day); ` +
        `${code('410 Gone')} stops at once. Administrators see every delivery at ${code('/admin/webhooks')} and may send one again. ` +
        `A webhook whose environment variable is not set is off, and the server's log and that page say so.`,
    },
    {
      kind: 'table',
      columns: ['Webhook', 'Posts to', 'Events', 'Record read as', 'Secret'],
      rows: model.webhooks.map((webhook) => [
        webhook.description ? `${code(webhook.name)}: ${webhook.description}` : code(webhook.name),
        'value' in webhook.url ? code(webhook.url.value) : `the address in ${code(webhook.url.env)}`,
        webhook.events.map((event) => code(event.type)).join(', '),
        webhook.role,
        `in ${code(webhook.secretEnv)}`,
      ]),
    },
  ];
}
