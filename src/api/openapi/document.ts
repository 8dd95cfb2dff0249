import { INBOX_TAG } from './inbox-paths';
import { resolveLimits } from '@/engine/limits';
import { MAX_BULK_TRANSITION } from '@/engine/ops/transition';
import { MAX_BULK_ROWS } from '@/engine/ops/bulk';
import type { AppModel } from '@/engine/spec/model';
import packageJson from '../../../package.json';
import { catalogue } from './errors';
import { AUTH_TAG, buildPaths, CALLS_TAG, entityTag } from './paths';
import {
  bulkDeleteResultsSchema,
  bulkDeleteSchema,
  bulkTransitionResultsSchema,
  bulkTransitionSchema,
  bulkUpdateSchema,
  createSchema,
  entitySchemaNames,
  FILE_DESCRIPTOR,
  historySchema,
  listSchema,
  problemSchema,
  receiptSchema,
  recordSchema,
  schemaRef,
  transitionSchema,
  updateSchema,
  userSchema,
  validationProblemSchema,
} from './schemas';
import type { JsonSchema, OpenApiDocument, TagObject } from './types';
import { writtenOnlyByCalls } from '@/engine/access/policy';
import { webhookSchemas, WEBHOOKS_TAG } from './webhooks';
import { hasFileFields } from '@/engine/spec/file-fields';
import { FILES_TAG, UPLOADED_SCHEMA } from './file-paths';

export type { OpenApiDocument } from './types';

export const API_BASE_PATH = '/api/v1';
export const SESSION_COOKIE = 'nf_session';
export const TOKEN_COMMAND = 'npm run ninefold -- token create --email E --name N';

/**
 * The OpenAPI 3.1 document of /api/v1, generated from the model alone: the same model always
 * gives the same document (no clock, no randomness), so it can be cached and compared.
 */
export function buildOpenApiDocument(model: AppModel): OpenApiDocument {
  const names = entitySchemaNames(model);
  const limits = resolveLimits(model);

  const schemas: Record<string, JsonSchema> = {};
  for (const entity of model.entities) {
    const entityNames = names.get(entity.name)!;
    schemas[entityNames.record] = recordSchema(entity, model.constants);
    // An entity only calls write has no create or change operation to describe.
    if (!writtenOnlyByCalls(entity)) {
      schemas[entityNames.create] = createSchema(entity, model.constants);
      schemas[entityNames.update] = updateSchema(entity, model.constants);
      schemas[entityNames.bulkUpdate] = bulkUpdateSchema(entity, entityNames.update, MAX_BULK_ROWS);
      schemas[entityNames.bulkUpdateResults] = bulkTransitionResultsSchema(entityNames.record, [...catalogue(model).keys()], 'update');
      schemas[entityNames.bulkDelete] = bulkDeleteSchema(entity, MAX_BULK_ROWS);
      schemas[entityNames.bulkDeleteResults] = bulkDeleteResultsSchema([...catalogue(model).keys()]);
    }
    schemas[entityNames.list] = listSchema(entity, entityNames.record);
    schemas[entityNames.history] = historySchema(entity, model.constants);
    if (entity.workflow) {
      schemas[entityNames.transition] = transitionSchema(entity, model.constants);
      schemas[entityNames.bulkTransition] = bulkTransitionSchema(entity, model.constants, MAX_BULK_TRANSITION);
      schemas[entityNames.bulkTransitionResults] = bulkTransitionResultsSchema(entityNames.record, [...catalogue(model).keys()]);
    }
  }
  schemas.User = userSchema();
  schemas.SignIn = {
    title: 'Sign-in',
    type: 'object',
    properties: { email: { type: 'string', maxLength: 320 }, password: { type: 'string', maxLength: 1024 } },
    required: ['email', 'password'],
    additionalProperties: false,
  };
  schemas.SignedIn = { type: 'object', properties: { user: schemaRef('User') }, required: ['user'], additionalProperties: false };
  schemas.SignedOut = { type: 'object', properties: { signedOut: { const: true } }, required: ['signedOut'], additionalProperties: false };
  // A write's answer when the caller may not read the record it left.
  if (model.entities.length > 0) schemas.Receipt = receiptSchema();
  if (hasFileFields(model)) {
    schemas.File = FILE_DESCRIPTOR;
    schemas.Uploaded = UPLOADED_SCHEMA;
  }
  schemas.Problem = problemSchema([...catalogue(model).keys()]);
  schemas.ValidationProblem = validationProblemSchema();
  if (model.webhooks.length > 0) Object.assign(schemas, webhookSchemas());

  const tags: TagObject[] = [
    ...model.entities.map((entity) => ({ name: entityTag(entity), description: entity.description ?? entity.pluralLabel })),
    { name: AUTH_TAG, description: 'Who is signed in, signing in and out, and this document.' },
    ...(model.notifications.length > 0
      ? [{ name: INBOX_TAG, description: "The caller's own notifications: list, mark read, mark all read." }]
      : []),
  ];
  if (hasFileFields(model)) tags.push({ name: FILES_TAG, description: 'Uploads, and downloads of the files records hold.' });
  if (Object.keys(model.calls).length > 0) tags.push({ name: CALLS_TAG, description: 'The custom calls of the spec.' });
  if (model.webhooks.length > 0)
    tags.push({ name: WEBHOOKS_TAG, description: 'Webhook deliveries and sending them again (administrators).' });

  return {
    openapi: '3.1.1',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: model.title,
      version: packageJson.version,
      description: [
        model.summary ?? `The API of ${model.title}.`,
        `Authenticate with a personal API token (\`Authorization: Bearer <token>\`; create one with \`${TOKEN_COMMAND}\`) ` +
          `or with the session cookie \`${SESSION_COOKIE}\` set by sign-in. With the cookie, a request that changes data ` +
          'must carry an Origin header of this application.',
        'Errors are application/problem+json (RFC 9457) with a `code` from the error catalogue.',
      ].join('\n\n'),
    },
    servers: [{ url: API_BASE_PATH }],
    tags,
    paths: buildPaths(model, limits, names),
    components: {
      schemas,
      securitySchemes: {
        cookieAuth: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'The session cookie set by POST /auth/sign-in (or by signing in to the web pages).',
        },
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: `A personal API token: \`${TOKEN_COMMAND}\`.`,
        },
      },
    },
    security: [{ cookieAuth: [] }, { bearerAuth: [] }],
    'x-error-catalogue': [...catalogue(model)].map(([code, error]) => ({
      code,
      status: error.status,
      title: error.title,
      message: error.message,
    })),
  };
}
