import { validationFailed, type FieldError } from '@/engine/errors/ninefold-error';
import type { DeliveryView } from '@/engine/notify/webhooks/deliveries';
import { json } from './json';
import { actorOf, type Route } from './routes';

/**
 * /webhooks/deliveries and /webhooks/deliveries/{id}/retry: the delivery log and "send again",
 * for administrators (the engine refuses anyone else with FORBIDDEN). Served only when the spec
 * declares webhooks.
 */

export const DELIVERY_LIST_PARAMS = ['status', 'webhook', 'cursor', 'limit'] as const;

export interface WireDeliveryAttempt {
  readonly at: string;
  readonly httpStatus: number | null;
  readonly durationMs: number;
  readonly error: string | null;
  readonly responseExcerpt: string | null;
}

export interface WireDelivery {
  readonly id: number;
  readonly webhook: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly entity: string;
  readonly recordId: string;
  /** The JSON body as sent. */
  readonly payload: unknown;
  readonly status: string;
  readonly attempts: number;
  readonly nextAttemptAt: string | null;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly log: readonly WireDeliveryAttempt[];
}

function wireDelivery(delivery: DeliveryView): WireDelivery {
  return {
    ...delivery,
    payload: JSON.parse(delivery.payload) as unknown,
    nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
    createdAt: delivery.createdAt.toISOString(),
    updatedAt: delivery.updatedAt.toISOString(),
    log: delivery.log.map((attempt) => ({ ...attempt, at: attempt.at.toISOString() })),
  };
}

function listQuery(url: URL): { status?: string; webhook?: string; cursor?: string; limit?: number } {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const name of url.searchParams.keys()) {
    if (seen.has(name))
      errors.push({ field: name, code: 'repeated_parameter', message: `The parameter "${name}" is given more than once.` });
    else if (!(DELIVERY_LIST_PARAMS as readonly string[]).includes(name))
      errors.push({
        field: name,
        code: 'unknown_parameter',
        message: `"${name}" is not a parameter of this list (parameters: ${DELIVERY_LIST_PARAMS.join(', ')}).`,
      });
    seen.add(name);
  }
  const limit = url.searchParams.get('limit');
  if (limit !== null && !/^[0-9]{1,4}$/.test(limit))
    errors.push({ field: 'limit', code: 'invalid_limit', message: 'The limit must be a whole number.' });
  if (errors.length > 0) throw validationFailed(errors);
  const text = (name: string) => url.searchParams.get(name) ?? undefined;
  return { status: text('status'), webhook: text('webhook'), cursor: text('cursor'), ...(limit !== null ? { limit: Number(limit) } : {}) };
}

export const webhookRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: ['webhooks', 'deliveries'],
    access: 'signedIn',
    originCheck: true,
    run: async (call) => {
      const page = await call.engine.webhooks.deliveries(actorOf(call), listQuery(call.url));
      return json({ items: page.items.map(wireDelivery), nextCursor: page.nextCursor });
    },
  },
  {
    method: 'POST',
    path: ['webhooks', 'deliveries', { param: 'id' }, 'retry'],
    access: 'signedIn',
    originCheck: true,
    run: async (call) => {
      const raw = call.params.id ?? '';
      // Not a delivery's id: the engine answers it as an absent one, after the administrator check.
      const id = /^[1-9][0-9]{0,15}$/.test(raw) ? Number(raw) : 0;
      await call.engine.webhooks.sendAgain(actorOf(call), id);
      return json({ id, status: 'pending' }, { status: 202 });
    },
  },
];
