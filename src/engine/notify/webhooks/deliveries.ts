import { logLine } from '../../log';
import { isAdmin } from '../../access/policy';
import { NinefoldError, notFound, validationFailed } from '../../errors/ninefold-error';
import type { Actor } from '../../ground/actor';
import type { AppModel } from '../../spec/model';
import type { DynamicDatabase } from '../../store/types';
import { WEBHOOK_ATTEMPT_TABLE, WEBHOOK_DELIVERY_TABLE } from './tables';

/*
 * The delivery log for administrators (the /admin/webhooks page and /api/v1/webhooks/deliveries):
 * every delivery newest first, with its attempts, and "send again". Nobody else may read it: a
 * payload holds records as the webhook's role reads them, which may be more than the reader may.
 */

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

const DEFAULT_PAGE_SIZE = 25;
export const MAX_DELIVERY_PAGE_SIZE = 100;

export interface DeliveryAttemptView {
  readonly at: Date;
  readonly httpStatus: number | null;
  readonly durationMs: number;
  readonly error: string | null;
  readonly responseExcerpt: string | null;
}

export interface DeliveryView {
  readonly id: number;
  readonly webhook: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly entity: string;
  readonly recordId: string;
  /** The JSON body as sent. */
  readonly payload: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  /** When a pending delivery is next tried. */
  readonly nextAttemptAt: Date | null;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Oldest first. */
  readonly log: readonly DeliveryAttemptView[];
}

export interface DeliveryQuery {
  readonly status?: string;
  readonly webhook?: string;
  /** The `nextCursor` of the page before. */
  readonly cursor?: string;
  readonly limit?: number;
}

export interface DeliveryPage {
  readonly items: readonly DeliveryView[];
  readonly nextCursor: string | null;
}

export function requireWebhookAdmin(actor: Actor, action: string): void {
  if (isAdmin(actor)) return;
  logLine('warn', 'access refused', { code: 'FORBIDDEN', actor: actor.userId, action });
  throw new NinefoldError('FORBIDDEN', 'Only administrators may see and resend webhook deliveries.');
}

/** A page of deliveries, newest first (keyset on id), filtered by status and webhook. */
export async function listWebhookDeliveries(
  db: DynamicDatabase,
  model: Pick<AppModel, 'webhooks'>,
  actor: Actor,
  query: DeliveryQuery = {},
): Promise<DeliveryPage> {
  requireWebhookAdmin(actor, 'list webhook deliveries');
  const { status, webhook, before, limit } = checkedQuery(model, query);
  if (model.webhooks.length === 0) return { items: [], nextCursor: null };
  let select = db
    .selectFrom(WEBHOOK_DELIVERY_TABLE)
    .selectAll()
    .orderBy('id', 'desc')
    .limit(limit + 1);
  if (status) select = select.where('status', '=', status);
  if (webhook) select = select.where('webhook', '=', webhook);
  if (before !== null) select = select.where('id', '<', before);
  const rows = await select.execute();
  const page = rows.slice(0, limit);
  const ids = page.map((row) => Number(row.id));
  const attempts =
    ids.length === 0 ? [] : await db.selectFrom(WEBHOOK_ATTEMPT_TABLE).selectAll().where('delivery_id', 'in', ids).orderBy('id').execute();
  const logs = new Map<number, DeliveryAttemptView[]>();
  for (const attempt of attempts) {
    const id = Number(attempt.delivery_id);
    logs.set(id, [...(logs.get(id) ?? []), attemptView(attempt)]);
  }
  const items = page.map((row) => deliveryView(row, logs.get(Number(row.id)) ?? []));
  return { items, nextCursor: rows.length > limit && ids.length > 0 ? String(ids[ids.length - 1]) : null };
}

/** Sends a delivery again at `now` (the next sender's run takes it), whatever its status; its attempts stay in the log. */
export async function retryWebhookDelivery(
  db: DynamicDatabase,
  model: Pick<AppModel, 'webhooks'>,
  actor: Actor,
  id: number,
  now: Date,
): Promise<void> {
  requireWebhookAdmin(actor, 'resend a webhook delivery');
  if (model.webhooks.length === 0 || !Number.isSafeInteger(id) || id < 1) throw notFound('delivery');
  const result = await db
    .updateTable(WEBHOOK_DELIVERY_TABLE)
    .set({ status: 'pending', next_attempt_at: now, claim: null, updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound('delivery');
  logLine('info', 'webhook delivery sent again', { delivery: id, actor: actor.userId });
}

function checkedQuery(model: Pick<AppModel, 'webhooks'>, query: DeliveryQuery) {
  const errors: { field: string; code: string; message: string }[] = [];
  const status = query.status || undefined;
  if (status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(status))
    errors.push({ field: 'status', code: 'invalid_status', message: `The status must be one of ${DELIVERY_STATUSES.join(', ')}.` });
  const webhook = query.webhook || undefined;
  if (webhook !== undefined && !model.webhooks.some((w) => w.name === webhook))
    errors.push({ field: 'webhook', code: 'unknown_webhook', message: `There is no webhook "${webhook}".` });
  const before = query.cursor ? Number(query.cursor) : null;
  if (before !== null && (!/^[1-9][0-9]{0,15}$/.test(query.cursor ?? '') || !Number.isSafeInteger(before)))
    errors.push({ field: 'cursor', code: 'invalid_cursor', message: 'The page cursor is not valid for this list.' });
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_DELIVERY_PAGE_SIZE)
    errors.push({
      field: 'limit',
      code: 'invalid_limit',
      message: `The limit must be a whole number from 1 to ${MAX_DELIVERY_PAGE_SIZE}.`,
    });
  if (errors.length > 0) throw validationFailed(errors);
  return { status: status as DeliveryStatus | undefined, webhook, before, limit };
}

type Row = Readonly<Record<string, unknown>>;

const date = (value: unknown) => (value instanceof Date ? value : new Date(String(value)));
const nullableNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));
const nullableText = (value: unknown) => (value === null || value === undefined ? null : String(value));

function deliveryView(row: Row, log: readonly DeliveryAttemptView[]): DeliveryView {
  const status = String(row.status) as DeliveryStatus;
  return {
    id: Number(row.id),
    webhook: String(row.webhook),
    eventId: String(row.event_id),
    eventType: String(row.event_type),
    entity: String(row.entity),
    recordId: String(row.record_id),
    payload: String(row.payload),
    status,
    attempts: Number(row.attempts),
    nextAttemptAt: status === 'pending' ? date(row.next_attempt_at) : null,
    lastStatus: nullableNumber(row.last_status),
    lastError: nullableText(row.last_error),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
    log,
  };
}

function attemptView(row: Row): DeliveryAttemptView {
  return {
    at: date(row.at),
    httpStatus: nullableNumber(row.http_status),
    durationMs: Number(row.duration_ms),
    error: nullableText(row.error),
    responseExcerpt: nullableText(row.response_excerpt),
  };
}
