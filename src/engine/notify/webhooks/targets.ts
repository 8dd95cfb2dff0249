import { logLine } from '../../log';
import type { AppModel } from '../../spec/model';
import { isWebhookAddress, type WebhookModel } from '../../spec/webhooks';
import { secretKey } from './signature';

export type WebhookEnv = Readonly<Record<string, string | undefined>>;

/** Where a webhook posts and what it signs with, or why it is off (an environment variable not set). */
export type WebhookTarget =
  | { readonly name: string; readonly on: true; readonly url: string; readonly key: Buffer }
  | { readonly name: string; readonly on: false; readonly reason: string };

/**
 * Each webhook's address and key, read from the environment. A variable that is not set, or
 * holds no usable value, turns that webhook off (its deliveries wait) rather than stopping the
 * server: the rest of the application works without it. Never logs a value, only names.
 */
export function webhookTargets(model: Pick<AppModel, 'webhooks'>, env: WebhookEnv): WebhookTarget[] {
  return model.webhooks.map((webhook) => webhookTarget(webhook, env));
}

function webhookTarget(webhook: WebhookModel, env: WebhookEnv): WebhookTarget {
  const off = (reason: string): WebhookTarget => ({ name: webhook.name, on: false, reason });
  const url = 'value' in webhook.url ? webhook.url.value : env[webhook.url.env]?.trim();
  if (!url && 'env' in webhook.url) return off(`${webhook.url.env} is not set`);
  if (!url || !isWebhookAddress(url)) return off(`${'env' in webhook.url ? webhook.url.env : 'its url'} is not an http(s) address`);
  const secret = env[webhook.secretEnv]?.trim();
  if (!secret) return off(`${webhook.secretEnv} is not set`);
  const key = secretKey(secret);
  if (!key) return off(`${webhook.secretEnv} is not a whsec_ secret (whsec_ and at least 24 bytes in base64)`);
  return { name: webhook.name, on: true, url, key };
}

const loggedInProcess = new Set<string>();

/** The webhooks that are on; one log line per webhook that is off, once per `logged` set (default: the process's) and reason. */
export function activeTargets(
  model: Pick<AppModel, 'webhooks'>,
  env: WebhookEnv,
  logged: Set<string> = loggedInProcess,
): Extract<WebhookTarget, { on: true }>[] {
  const active: Extract<WebhookTarget, { on: true }>[] = [];
  for (const target of webhookTargets(model, env)) {
    if (target.on) active.push(target);
    else if (!logged.has(`${target.name}:${target.reason}`)) {
      logged.add(`${target.name}:${target.reason}`);
      logLine('warn', 'webhook off', { webhook: target.name, reason: target.reason });
    }
  }
  return active;
}
