import { DELIVERY_STATUSES, MAX_DELIVERY_PAGE_SIZE } from '@/engine/notify/webhooks/deliveries';
import type { AppModel } from '@/engine/spec/model';
import { OPERATION_ERRORS, problemResponses } from './errors';
import { schemaRef } from './schemas';
import type { JsonSchema, PathItemObject } from './types';

/** The webhooks' delivery log in the OpenAPI document (only when the spec declares webhooks). */

export const WEBHOOKS_TAG = 'webhooks';

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const nullable = (type: 'string' | 'integer'): JsonSchema => ({ type: [type, 'null'] });
const dateTime: JsonSchema = { type: 'string', format: 'date-time' };

export function webhookSchemas(): Record<string, JsonSchema> {
  const attempt: JsonSchema = {
    type: 'object',
    properties: {
      at: dateTime,
      httpStatus: { ...nullable('integer'), description: 'null: no answer (a timeout or a connection error).' },
      durationMs: { type: 'integer' },
      error: nullable('string'),
      responseExcerpt: { ...nullable('string'), description: "The first 500 bytes of the receiver's answer." },
    },
    required: ['at', 'httpStatus', 'durationMs', 'error', 'responseExcerpt'],
    additionalProperties: false,
  };
  const delivery: JsonSchema = {
    title: 'Webhook delivery',
    type: 'object',
    properties: {
      id: { type: 'integer' },
      webhook: { type: 'string' },
      eventId: { type: 'string', description: 'Sent as `webhook-id`, the same on every attempt.' },
      eventType: { type: 'string', examples: ['ticket.resolve'] },
      entity: { type: 'string' },
      recordId: { type: 'string' },
      payload: {
        type: 'object',
        description: 'The JSON body as sent: `{ type, timestamp, data: { entity, id, record, changed } }`.',
      },
      status: { enum: [...DELIVERY_STATUSES] },
      attempts: { type: 'integer' },
      nextAttemptAt: { type: ['string', 'null'], format: 'date-time', description: 'When a pending delivery is tried next.' },
      lastStatus: nullable('integer'),
      lastError: nullable('string'),
      createdAt: dateTime,
      updatedAt: dateTime,
      log: { type: 'array', items: attempt, description: 'Every attempt, oldest first.' },
    },
    required: [
      'id',
      'webhook',
      'eventId',
      'eventType',
      'entity',
      'recordId',
      'payload',
      'status',
      'attempts',
      'nextAttemptAt',
      'lastStatus',
      'lastError',
      'createdAt',
      'updatedAt',
      'log',
    ],
    additionalProperties: false,
  };
  return {
    WebhookDelivery: delivery,
    WebhookDeliveryList: {
      type: 'object',
      properties: { items: { type: 'array', items: schemaRef('WebhookDelivery') }, nextCursor: nullable('string') },
      required: ['items', 'nextCursor'],
      additionalProperties: false,
    },
    WebhookRetry: {
      type: 'object',
      properties: { id: { type: 'integer' }, status: { const: 'pending' } },
      required: ['id', 'status'],
      additionalProperties: false,
    },
  };
}

export function webhookPaths(model: AppModel, operationId: (wanted: string) => string): Record<string, PathItemObject> {
  const tags = [WEBHOOKS_TAG];
  const names = model.webhooks.map((webhook) => webhook.name);
  return {
    '/webhooks/deliveries': {
      get: {
        operationId: operationId('listWebhookDeliveries'),
        summary: 'Webhook deliveries, newest first (administrators)',
        description: 'Every delivery with its attempts. Pages by `cursor` (the `nextCursor` of the page before).',
        tags,
        parameters: [
          { name: 'status', in: 'query', schema: { enum: [...DELIVERY_STATUSES] } },
          { name: 'webhook', in: 'query', schema: { enum: names } },
          { name: 'cursor', in: 'query', schema: { type: 'string' } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: MAX_DELIVERY_PAGE_SIZE, default: 25 } },
        ],
        responses: {
          '200': { description: 'A page of deliveries.', content: json(schemaRef('WebhookDeliveryList')) },
          ...problemResponses(model, OPERATION_ERRORS.webhookDeliveries),
        },
      },
    },
    '/webhooks/deliveries/{id}/retry': {
      post: {
        operationId: operationId('retryWebhookDelivery'),
        summary: 'Send a delivery again (administrators)',
        description:
          'The delivery is due at once, whatever its status; the next scheduler run posts it. Its earlier attempts stay in its log.',
        tags,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '202': { description: 'Queued to be sent again.', content: json(schemaRef('WebhookRetry')) },
          ...problemResponses(model, OPERATION_ERRORS.webhookRetry),
        },
      },
    },
  };
}
