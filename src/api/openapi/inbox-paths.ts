import type { PathItemObject, ResponseObject, JsonSchema } from './types';

/** The signed-in user's own notifications (src/api/inbox.ts). */
export const INBOX_TAG = 'inbox';

const item: JsonSchema = {
  type: 'object',
  required: ['id', 'kind', 'title', 'text', 'link', 'entity', 'recordId', 'read', 'createdAt'],
  properties: {
    id: { type: 'integer' },
    kind: { type: 'string', description: "The notification's kind, as the spec names it." },
    title: { type: 'string' },
    text: { type: 'string', description: 'Fields the user may not read read "(hidden)".' },
    link: { type: 'string', description: "The record's page." },
    entity: { type: 'string' },
    recordId: { type: 'integer' },
    read: { type: 'boolean' },
    createdAt: { type: 'string', format: 'date-time' },
  },
};

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

export function inboxPaths(
  problems: (codes: readonly string[]) => Record<string, ResponseObject>,
  operationId: (wanted: string) => string,
): Record<string, PathItemObject> {
  const tags = [INBOX_TAG];
  const signedIn = ['UNAUTHENTICATED', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'INTERNAL'];
  return {
    '/inbox': {
      get: {
        operationId: operationId('listInbox'),
        summary: "The caller's notifications, newest first",
        tags,
        parameters: [
          { name: 'cursor', in: 'query', schema: { type: 'string' }, description: 'The `nextCursor` of the previous page.' },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
          { name: 'unread', in: 'query', schema: { type: 'boolean' }, description: 'Only the unread ones.' },
        ],
        responses: {
          '200': {
            description: 'A page of notifications and the unread count.',
            content: json({
              type: 'object',
              required: ['unread', 'items', 'nextCursor'],
              properties: { unread: { type: 'integer' }, items: { type: 'array', items: item }, nextCursor: { type: ['string', 'null'] } },
            }),
          },
          ...problems([...signedIn, 'VALIDATION_FAILED']),
        },
      },
    },
    '/inbox/read-all': {
      post: {
        operationId: operationId('markAllInboxRead'),
        summary: "Mark all the caller's notifications read",
        tags,
        responses: {
          '200': {
            description: 'How many were marked.',
            content: json({ type: 'object', required: ['marked'], properties: { marked: { type: 'integer' } } }),
          },
          ...problems(signedIn),
        },
      },
    },
    '/inbox/{id}/read': {
      post: {
        operationId: operationId('markInboxRead'),
        summary: 'Mark one of the caller’s notifications read',
        tags,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'Marked read.',
            content: json({ type: 'object', required: ['read'], properties: { read: { type: 'boolean' } } }),
          },
          ...problems([...signedIn, 'NOT_FOUND']),
        },
      },
    },
  };
}
