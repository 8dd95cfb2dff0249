import { ADMIN_ROLE } from '../../access/policy';
import { isWebhookAddress, RECORD_EVENT_KINDS, splitEventName } from '../webhooks';
import { at, describeValue, isNonEmptyString, isRecord, isString, quoteList, type Issues, type Rec, type Symbols } from './context';
import { PUBLIC_ROLE } from './public';

const WEBHOOK_NAME = /^[a-z][a-zA-Z0-9-]*$/;
/** POSIX-style names, as shells and container platforms accept them. */
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;
const KEYS = ['url', 'secret', 'events', 'role', 'description'];
const EXAMPLE = "{ url: { env: 'CRM_WEBHOOK_URL' }, secret: { env: 'CRM_WEBHOOK_SECRET' }, events: ['ticket.created'], role: 'agent' }";

/**
 * `webhooks`: each names where it posts (a URL or the variable holding one), the variable holding
 * its secret (a secret written in the spec would sit in source control), events of entities and
 * transitions that exist, and the role whose sight the payload's record is read with.
 */
export function checkWebhooks(raw: Rec, symbols: Symbols, issues: Issues): void {
  if (raw.webhooks === undefined) return;
  if (!issues.record(raw.webhooks, 'webhooks', `webhooks (by name: ${EXAMPLE})`)) return;
  for (const [name, webhook] of Object.entries(raw.webhooks)) {
    const path = at('webhooks', name);
    if (!WEBHOOK_NAME.test(name))
      issues.add(path, `a webhook's name must start with a lower-case letter, then letters, digits and dashes, e.g. "crm"`);
    if (!issues.record(webhook, path, `a webhook (${EXAMPLE})`)) continue;
    issues.unknownKeys(webhook, KEYS, path, 'a webhook');
    checkUrl(webhook.url, at(path, 'url'), issues);
    checkSecret(webhook.secret, at(path, 'secret'), issues);
    checkEvents(webhook.events, at(path, 'events'), symbols, issues);
    checkRole(webhook.role, at(path, 'role'), symbols, issues);
    issues.optionalString(webhook, 'description', path);
  }
}

function checkUrl(url: unknown, path: string, issues: Issues): void {
  if (url === undefined) issues.add(path, "is required: an https:// address, or { env: 'NAME' } for the variable that holds it");
  else if (isString(url)) {
    if (!isWebhookAddress(url)) issues.add(path, `must be an http:// or https:// address, or { env: 'NAME' }, got ${describeValue(url)}`);
  } else checkEnvRef(url, path, "an https:// address, or { env: 'NAME' }", issues);
}

function checkSecret(secret: unknown, path: string, issues: Issues): void {
  if (secret === undefined) issues.add(path, "is required: { env: 'NAME' }, the environment variable holding the whsec_… secret");
  else if (isString(secret)) {
    issues.add(
      path,
      "a secret written in the spec is refused (the spec is source code): put it in an environment variable and write { env: 'NAME' }",
    );
  } else checkEnvRef(secret, path, "{ env: 'NAME' }, the environment variable holding the whsec_… secret", issues);
}

function checkEnvRef(value: unknown, path: string, expected: string, issues: Issues): void {
  if (!isRecord(value) || !('env' in value)) {
    issues.add(path, `must be ${expected}, got ${describeValue(value)}`);
    return;
  }
  issues.unknownKeys(value, ['env'], path, 'an environment value');
  if (!isString(value.env) || !ENV_NAME.test(value.env))
    issues.add(
      at(path, 'env'),
      `must be an environment variable's name (upper-case letters, digits and _), got ${describeValue(value.env)}`,
    );
}

function checkEvents(events: unknown, path: string, symbols: Symbols, issues: Issues): void {
  if (events === undefined) {
    issues.add(path, "is required: a list such as ['ticket.created', 'ticket.updated', 'ticket.resolve']");
    return;
  }
  const names = issues.stringList(events, path);
  if (Array.isArray(events) && events.length === 0) issues.add(path, 'lists no event: the webhook would never be told anything');
  const seen = new Set<string>();
  names.forEach((event, index) => {
    const itemPath = at(path, index);
    if (seen.has(event)) issues.add(itemPath, `"${event}" is listed twice`);
    seen.add(event);
    const problem = eventProblem(event, symbols);
    if (problem) issues.add(itemPath, problem);
  });
}

function eventProblem(event: string, symbols: Symbols): string | null {
  const split = splitEventName(event);
  if (!split) return `"${event}" is not an event: write <entity>.created, .updated, .deleted or .<transition>, e.g. "ticket.created"`;
  const entity = symbols.entities.get(split.entity);
  if (!entity) return `"${event}": unknown entity "${split.entity}" (entities: ${quoteList(symbols.entities.keys())})`;
  if (split.action in RECORD_EVENT_KINDS || entity.workflow?.transitions.includes(split.action)) return null;
  const actions = [...Object.keys(RECORD_EVENT_KINDS), ...(entity.workflow?.transitions ?? [])];
  return `"${event}": ${split.entity} has no event "${split.action}" (created, updated, deleted or a transition of its workflow: ${quoteList(actions)})`;
}

function checkRole(role: unknown, path: string, symbols: Symbols, issues: Issues): void {
  if (role === undefined) issues.add(path, "is required: the role whose access the payload's record is read with, e.g. 'agent'");
  else if (!isNonEmptyString(role)) issues.add(path, `must be a role's name, got ${describeValue(role)}`);
  else if (!symbols.roles.has(role) && role !== ADMIN_ROLE && role !== PUBLIC_ROLE)
    issues.add(path, `unknown role "${role}" (roles: ${quoteList([...symbols.roles, ADMIN_ROLE, PUBLIC_ROLE])})`);
}
