import type { AppSpec, WebhookSpec } from './types';

/*
 * Webhooks as the engine reads them: each event name split once into the change it stands for.
 * The names follow `<entity>.<action>`: created, updated, deleted, or a transition's name.
 */

export type WebhookChangeKind = 'create' | 'update' | 'delete' | 'transition';

/** The actions every entity has, by their event names. */
export const RECORD_EVENT_KINDS: Readonly<Record<string, Exclude<WebhookChangeKind, 'transition'>>> = {
  created: 'create',
  updated: 'update',
  deleted: 'delete',
};

export interface WebhookEventModel {
  /** As the spec writes it and the payload's `type` says: 'ticket.resolve'. */
  readonly type: string;
  readonly entity: string;
  readonly kind: WebhookChangeKind;
  /** For kind 'transition': its name. */
  readonly transition?: string;
}

/** Where a setting comes from: the spec itself, or an environment variable read at run time. */
export type WebhookSetting = { readonly value: string } | { readonly env: string };

export interface WebhookModel {
  readonly name: string;
  readonly url: WebhookSetting;
  /** The environment variable holding the `whsec_…` secret (a literal secret is refused at load). */
  readonly secretEnv: string;
  readonly events: readonly WebhookEventModel[];
  readonly role: string;
  readonly description: string | null;
}

/** `ticket.resolve` → entity and action; null when it has no dot between two names. */
export function splitEventName(event: string): { entity: string; action: string } | null {
  const dot = event.indexOf('.');
  if (dot <= 0 || dot === event.length - 1 || event.indexOf('.', dot + 1) >= 0) return null;
  return { entity: event.slice(0, dot), action: event.slice(dot + 1) };
}

/** An address a webhook may post to: http:// or https:// with a host (from the spec or the environment). */
export function isWebhookAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** One event of a validated spec (its entity and transition exist). */
function eventModel(type: string): WebhookEventModel {
  const split = splitEventName(type);
  if (!split) throw new Error(`a validated webhook event has the form <entity>.<action>, got "${type}"`);
  const kind = RECORD_EVENT_KINDS[split.action];
  return kind ? { type, entity: split.entity, kind } : { type, entity: split.entity, kind: 'transition', transition: split.action };
}

function webhookModel(name: string, spec: WebhookSpec): WebhookModel {
  return {
    name,
    url: typeof spec.url === 'string' ? { value: spec.url } : { env: spec.url.env },
    secretEnv: spec.secret.env,
    events: spec.events.map(eventModel),
    role: spec.role,
    description: spec.description ?? null,
  };
}

export function buildWebhooks(spec: AppSpec): readonly WebhookModel[] {
  return Object.entries(spec.webhooks ?? {}).map(([name, webhook]) => webhookModel(name, webhook));
}
