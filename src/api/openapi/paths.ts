import { inboxPaths } from './inbox-paths';
import { visitorMay, writtenOnlyByCalls, type VisitorAction } from '@/engine/access/policy';
import type { Limits } from '@/engine/limits';
import { filterableFields, MAX_FILTER_IDS, MAX_SORT_KEYS, sortableFields } from '@/engine/ops/list-query';
import { DUE_FILTERS } from '@/engine/rules/overdue';
import { guardTexts } from '@/engine/spec/describe/guards';
import type { AppModel, EntityModel, FieldModel, TransitionModel } from '@/engine/spec/model';
import { guardCodes } from '@/engine/workflow/guards';
import { ruleCodes } from '@/engine/rules/rules-refusal';
import { effectCodes } from '@/engine/workflow/effect-codes';
import { chosenByData, targetStates } from '@/engine/workflow/targets';
import { conditionText } from '@/engine/spec/describe/text';
import { referenceEffectText } from '@/engine/spec/describe/consequences';
import { humanize, inSentence, withArticle } from '@/engine/spec/naming';
import type { CallSpec, ParamType } from '@/engine/spec/types';
import { HISTORY_PAGE_SIZE, historyMaxPageSize } from '../wire';
import { createRelatedNote, replyWithChoices, updateFinalNote } from './related';
import { OPERATION_ERRORS, problemResponses } from './errors';
import { fieldMapSchema, pascalCase, schemaRef, valueSchema, writtenSchema, type EntitySchemaNames } from './schemas';
import type { HeaderObject, HttpMethod, JsonSchema, OperationObject, ParameterObject, PathItemObject, ResponseObject } from './types';
import { withUniqueWhenNote } from './unique-when';
import { exclusiveCodes, withExclusiveNote } from './exclusive';
import { webhookPaths } from './webhooks';
import { filePaths, multipartWrite } from './file-paths';
import { fileFields, hasFileFields } from '@/engine/spec/file-fields';

/** The operations of /api/v1: the generated record routes, the auth routes and the spec's calls. */

export const JSON_MEDIA_TYPE = 'application/json';
export const AUTH_TAG = 'auth';
export const CALLS_TAG = 'calls';

/** Query parameters every list has; a filter never takes one of these names. */
const LIST_PARAMS = ['q', 'sort', 'limit', 'cursor'];

const json = (schema: JsonSchema) => ({ [JSON_MEDIA_TYPE]: { schema } });

const ETAG: HeaderObject = {
  description: 'The version of the record, quoted: send it back as If-Match to update.',
  required: true,
  schema: { type: 'string', pattern: '^"\\d+"$' },
};

/** The tag of an entity's operations: its plural, unless that is a tag the API uses itself. */
export function entityTag(entity: EntityModel): string {
  return entity.plural === AUTH_TAG || entity.plural === CALLS_TAG ? `${entity.plural}-records` : entity.plural;
}

interface PathContext {
  readonly model: AppModel;
  readonly limits: Limits;
  readonly names: ReadonlyMap<string, EntitySchemaNames>;
  /** operationIds already used: each must be unique in the document. */
  readonly operationIds: Set<string>;
}

function operationId(context: PathContext, wanted: string): string {
  let id = wanted;
  for (let n = 2; context.operationIds.has(id); n += 1) id = `${wanted}${n}`;
  context.operationIds.add(id);
  return id;
}

function errors(context: PathContext, codes: readonly string[]): Record<string, ResponseObject> {
  return problemResponses(context.model, codes);
}

// ---------------------------------------------------------------- records

function listParameters(entity: EntityModel, limits: Limits): ParameterObject[] {
  const sortable = sortableFields(entity);
  const sortKey = `-?(${sortable.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`;
  const { field, direction } = entity.list.sort;
  const parameters: ParameterObject[] = [];
  if (entity.searchFields.length > 0) {
    parameters.push({
      name: 'q',
      in: 'query',
      description: `Full-text search in ${entity.searchFields.join(', ')}: every word (AND), "phrases", or, -word to leave out; the last word also matches as a prefix ("prin" finds "printer").`,
      schema: { type: 'string', maxLength: 200 },
    });
  }
  parameters.push(
    {
      name: 'sort',
      in: 'query',
      description:
        `Order of the list: up to ${MAX_SORT_KEYS} fields, comma-separated, each with "-" in front for descending. ` +
        `Fields: ${sortable.join(', ')}. Default: ${direction === 'desc' ? '-' : ''}${field}. ` +
        'Empty values come last either way; enum values sort in their declared order.',
      schema: { type: 'string', pattern: `^${sortKey}(,${sortKey}){0,${MAX_SORT_KEYS - 1}}$` },
    },
    {
      name: 'limit',
      in: 'query',
      description: 'How many records per page.',
      schema: { type: 'integer', minimum: 1, maximum: limits.maxPageSize, default: Math.min(entity.list.pageSize, limits.maxPageSize) },
    },
    {
      name: 'cursor',
      in: 'query',
      description: 'The `nextCursor` of the previous page, with the same filters, q and sort.',
      schema: { type: 'string' },
    },
  );
  for (const name of filterableFields(entity)) {
    if (LIST_PARAMS.includes(name)) continue;
    const field = entity.fieldsByName[name];
    if (field?.due) {
      parameters.push({
        name,
        in: 'query',
        description: dueFilterDescription(field),
        schema: { type: 'string', enum: Object.keys(DUE_FILTERS) },
      });
      continue;
    }
    // A references field's filter is a query value: ids joined by commas ("has any of").
    const schema: JsonSchema =
      field?.type === 'references'
        ? { type: 'string', pattern: '^[1-9][0-9]*(,[1-9][0-9]*)*$', examples: ['3,7'] }
        : field
          ? valueSchema(field.spec, {}, 'record')
          : { type: 'string', enum: entity.workflow!.states.map((s) => s.name) };
    delete schema.description;
    const what = field ? field.label : 'State';
    const description =
      field?.type === 'reference'
        ? `Only records whose ${what.toLowerCase()} is the ${field.referenceTo} with this id.`
        : field?.type === 'references'
          ? `Only records whose ${what.toLowerCase()} include any of these ${field.referenceTo} ids (comma-separated, at most ${MAX_FILTER_IDS}).`
          : field?.type === 'user'
            ? `Only records whose ${what.toLowerCase()} is the user with this id.`
            : `Only records whose ${what.toLowerCase()} is this value.`;
    parameters.push({ name, in: 'query', description, schema });
  }
  return parameters;
}

/** A due time filters by where it stands rather than by equality. */
function dueFilterDescription(field: FieldModel): string {
  const done = field.due?.doneWhen ? ' and not yet done' : '';
  return `Only records whose ${field.label} has passed${done} (\`overdue\`), or falls within the next 24 hours${done} (\`due24h\`).`;
}

function idParameter(entity: EntityModel): ParameterObject {
  return {
    name: 'id',
    in: 'path',
    required: true,
    description: `The id of the ${inSentence(entity.label)}.`,
    schema: { type: 'integer', minimum: 1 },
  };
}

const IF_MATCH: ParameterObject = {
  name: 'If-Match',
  in: 'header',
  description: 'The ETag (quoted version) of the record the change is based on: "3". Required unless the body carries "version".',
  schema: { type: 'string' },
};

/**
 * The spec grants the `public` role this action: a request with no credentials at all is served
 * as a visitor's (the empty requirement), within what the public may see or send.
 */
function openToVisitors(entity: EntityModel, action: VisitorAction): Pick<OperationObject, 'security'> {
  return visitorMay(entity, action) ? { security: [{}, { cookieAuth: [] }, { bearerAuth: [] }] } : {};
}

function entityPaths(entity: EntityModel, context: PathContext): Record<string, PathItemObject> {
  const names = context.names.get(entity.name)!;
  const tags = [entityTag(entity)];
  const one = inSentence(entity.label);
  const plural = pascalCase(entity.plural);
  const record = schemaRef(names.record);
  const written = writtenSchema(names.record);
  const saved: Record<string, HeaderObject> = { ETag: ETAG };
  const related = createRelatedNote(context.model, entity);
  const replyWith = replyWithChoices(context.model, entity);
  const frozen = updateFinalNote(entity);
  return withoutRecordWrites(entity, {
    [`/${entity.plural}`]: {
      get: {
        operationId: operationId(context, `list${plural}`),
        summary: `List ${inSentence(entity.pluralLabel)}`,
        description: `One page of ${inSentence(entity.pluralLabel)} the caller may see; pages are read with the cursor.`,
        tags,
        ...openToVisitors(entity, 'list'),
        parameters: listParameters(entity, context.limits),
        responses: {
          '200': { description: `A page of ${inSentence(entity.pluralLabel)}.`, content: json(schemaRef(names.list)) },
          ...errors(context, OPERATION_ERRORS.list),
        },
      },
      post: {
        operationId: operationId(context, `create${names.record}`),
        summary: `Create ${withArticle(one)}`,
        ...(related ? { description: related.description } : {}),
        tags,
        ...openToVisitors(entity, 'create'),
        ...(replyWith.length > 0
          ? {
              parameters: [
                {
                  name: 'replyWith',
                  in: 'query',
                  required: false,
                  description:
                    'A transition of the record this one replies to, taken in the same transaction ("Reply and wait for customer").',
                  schema: { type: 'string', enum: replyWith },
                } satisfies ParameterObject,
              ],
            }
          : {}),
        requestBody: { required: true, content: { ...json(schemaRef(names.create)), ...multipartWrite(fileFields(entity)) } },
        responses: {
          '201': {
            description: `The new ${one}, as the caller may read it (only its receipt when they may not read it).`,
            headers: { Location: { description: `The address of the new ${one}.`, required: true, schema: { type: 'string' } }, ...saved },
            content: json(written),
          },
          ...withExclusiveNote(
            entity,
            withUniqueWhenNote(
              entity,
              errors(context, [
                ...OPERATION_ERRORS.create,
                ...(related?.codes ?? []),
                ...exclusiveCodes(entity),
                ...ruleCodes(entity),
                ...effectCodes(context.model, entity.onCreate),
              ]),
            ),
          ),
        },
      },
    },
    [`/${entity.plural}/{id}`]: {
      parameters: [idParameter(entity)],
      get: {
        operationId: operationId(context, `get${names.record}`),
        summary: `Read ${withArticle(one)}`,
        tags,
        ...openToVisitors(entity, 'read'),
        responses: {
          '200': { description: `The ${one}.`, headers: saved, content: json(record) },
          ...errors(context, OPERATION_ERRORS.get),
        },
      },
      patch: {
        operationId: operationId(context, `update${names.record}`),
        summary: `Change ${withArticle(one)}`,
        description: `Send only the fields to change, and the version you saw: as If-Match, or as "version" in the body. A body naming no field is checked as any update and changes nothing (the version stays). Line breaks in text are stored as \\n.${frozen ? ` ${frozen.description}` : ''}`,
        tags,
        parameters: [IF_MATCH],
        requestBody: { required: true, content: { ...json(schemaRef(names.update)), ...multipartWrite(fileFields(entity)) } },
        responses: {
          '200': {
            description: `The changed ${one}, as the caller may read it now (only its receipt when they no longer may).`,
            headers: saved,
            content: json(written),
          },
          ...withExclusiveNote(
            entity,
            withUniqueWhenNote(
              entity,
              errors(context, [...OPERATION_ERRORS.update, ...(frozen?.codes ?? []), ...exclusiveCodes(entity), ...ruleCodes(entity)]),
            ),
          ),
        },
      },
      delete: {
        operationId: operationId(context, `delete${names.record}`),
        summary: `Delete ${withArticle(one)}`,
        tags,
        parameters: [{ ...IF_MATCH, description: 'Optionally, the ETag of the record: the delete fails with 409 when it changed since.' }],
        responses: {
          '204': { description: 'Deleted.' },
          ...errors(context, OPERATION_ERRORS.delete),
        },
      },
    },
    ...bulkPaths(entity, context),
    ...workflowPaths(entity, context),
  });
}

/** An update and a delete of many records (the list's bulk panel), where the API writes the entity. */
function bulkPaths(entity: EntityModel, context: PathContext): Record<string, PathItemObject> {
  if (writtenOnlyByCalls(entity)) return {};
  const names = context.names.get(entity.name)!;
  const many = inSentence(entity.pluralLabel);
  const tags = [entityTag(entity)];
  const rows =
    'Each record is its own transaction with its own version check; the answer is 200 with one result per record, so one refusal neither blocks nor undoes the others.';
  return {
    [`/${entity.plural}/bulk-update`]: {
      post: {
        operationId: operationId(context, `bulkUpdate${pascalCase(entity.plural)}`),
        summary: `Update many ${many}`,
        description: `The same field values set on each record, with each record's checks as a single update has them (access, field rules, rules, limits). ${rows}`,
        tags,
        requestBody: { required: true, content: json(schemaRef(names.bulkUpdate)) },
        responses: {
          '200': { description: 'One result per distinct id, in the order sent.', content: json(schemaRef(names.bulkUpdateResults)) },
          ...errors(context, OPERATION_ERRORS.bulkUpdate),
        },
      },
    },
    [`/${entity.plural}/bulk-delete`]: {
      post: {
        operationId: operationId(context, `bulkDelete${pascalCase(entity.plural)}`),
        summary: `Delete many ${many}`,
        description: `Each record deleted as a single delete with If-Match would be. ${rows}`,
        tags,
        requestBody: { required: true, content: json(schemaRef(names.bulkDelete)) },
        responses: {
          '200': { description: 'One result per distinct id, in the order sent.', content: json(schemaRef(names.bulkDeleteResults)) },
          ...errors(context, OPERATION_ERRORS.bulkDelete),
        },
      },
    },
  };
}

/** An entity only the spec's calls write: its record addresses are read-only (the API answers 405 to writes). */
function withoutRecordWrites(entity: EntityModel, paths: Record<string, PathItemObject>): Record<string, PathItemObject> {
  if (!writtenOnlyByCalls(entity)) return paths;
  const readOnly = (item: PathItemObject): PathItemObject =>
    Object.fromEntries(Object.entries(item).filter(([key]) => !WRITE_METHODS.has(key)));
  const readOnlyPaths = { ...paths };
  for (const address of [`/${entity.plural}`, `/${entity.plural}/{id}`]) {
    const item = paths[address];
    if (item) readOnlyPaths[address] = readOnly(item);
  }
  return readOnlyPaths;
}

const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

// ---------------------------------------------------------------- history and transitions

function historyParameters(limits: Limits): ParameterObject[] {
  const max = historyMaxPageSize(limits.maxPageSize);
  return [
    {
      name: 'limit',
      in: 'query',
      description: 'How many entries per page.',
      schema: { type: 'integer', minimum: 1, maximum: max, default: Math.min(HISTORY_PAGE_SIZE, max) },
    },
    {
      name: 'cursor',
      in: 'query',
      description: 'The `nextCursor` of the previous page.',
      schema: { type: 'string', pattern: '^\\d{1,15}$' },
    },
  ];
}

/** Who may take a transition, in words: roles, and owners of the record with their conditions. */
function whoMay(entity: EntityModel, transition: TransitionModel): string {
  return transition.allow
    .map((entry) => {
      if (typeof entry === 'string') return entry;
      const owner = inSentence(entity.fieldsByName[entry.owner]?.label ?? entry.owner);
      return `the ${owner}${entry.when ? ` (on a condition${entry.error ? `, else ${entry.error}` : ''})` : ''}`;
    })
    .join(', ');
}

/** The catalogue codes a transition's refusal may carry besides the built-in ones: the spec's own. */
function transitionCodes(model: AppModel, entity: EntityModel, transition: TransitionModel): string[] {
  const own = transition.allow.flatMap((entry) => (typeof entry === 'string' || !entry.error ? [] : [entry.error]));
  return [...own, ...guardCodes(transition), ...ruleCodes(entity), ...effectCodes(model, transition.referenceEffects)];
}

/** `approved`, or for targets chosen by the data: "`secondApproval` when amount is more than …, otherwise `approved`". */
function targetsText(entity: EntityModel, transition: TransitionModel, states: (names: readonly string[]) => string): string {
  if (!chosenByData(transition)) return states(targetStates(transition));
  return transition.to
    .map((t) => (t.when === undefined ? `otherwise ${states([t.state])}` : `${states([t.state])} when ${conditionText(t.when, entity)}`))
    .join(', ');
}

function transitionDescription(model: AppModel, entity: EntityModel, transition: TransitionModel): string {
  const states = (names: readonly string[]) => names.map((name) => `\`${name}\``).join(', ');
  const lines = [`From ${states(transition.from)} to ${targetsText(entity, transition, states)}. Who may: ${whoMay(entity, transition)}.`];
  if (transition.requires.length > 0)
    lines.push(
      `Needs ${transition.requires.map((name) => `\`${name}\``).join(', ')} to have a value: set it with \`input\` if it has none yet.`,
    );
  if (transition.effects.length > 0) {
    const effect = (to: unknown) => (to === 'now' ? 'the time of the request' : to === 'actor' ? 'the caller' : JSON.stringify(to));
    lines.push(`Sets ${transition.effects.map((e) => `\`${e.set}\` to ${effect(e.to)}`).join(', ')}.`);
  }
  if (transition.referenceEffects.length > 0) {
    const texts = transition.referenceEffects.map((e) => referenceEffectText(model, entity, e));
    lines.push(`In the same transaction (a refusal of one refuses the transition with its error): ${texts.join('; ')}.`);
  }
  if (transition.guards.length > 0)
    lines.push(`Guards, checked in order (the first that fails answers): ${guardTexts(transition, entity).join('; ')}.`);
  if (transition.comment === 'required') lines.push('A comment is required.');
  return lines.join(' ');
}

function transitionPaths(entity: EntityModel, transition: TransitionModel, context: PathContext): Record<string, PathItemObject> {
  const names = context.names.get(entity.name)!;
  const tags = [entityTag(entity)];
  const one = inSentence(entity.label);
  const action = pascalCase(transition.name);
  const description = transitionDescription(context.model, entity, transition);
  const codes = transitionCodes(context.model, entity, transition);
  const body: JsonSchema =
    transition.comment === 'required'
      ? { type: 'object', allOf: [schemaRef(names.transition)], required: ['comment'] }
      : schemaRef(names.transition);
  return {
    [`/${entity.plural}/{id}/transitions/${transition.name}`]: {
      parameters: [idParameter(entity)],
      post: {
        operationId: operationId(context, `${transition.name}${names.record}`),
        summary: `${transition.label} (${transition.from.join(', ')} → ${targetStates(transition).join(' or ')})`,
        description: `${description} Send the version you saw: as If-Match, or as "version" in the body.`,
        tags,
        'x-transition': transition.name,
        parameters: [IF_MATCH],
        requestBody: { required: transition.comment === 'required', content: json(body) },
        responses: {
          '200': {
            description: `The ${one} after the transition, as the caller may read it now (only its receipt when they no longer may).`,
            headers: { ETag: ETAG },
            content: json(writtenSchema(names.record)),
          },
          ...withExclusiveNote(
            entity,
            withUniqueWhenNote(entity, errors(context, [...OPERATION_ERRORS.transition, ...codes, ...exclusiveCodes(entity)])),
          ),
        },
      },
    },
    [`/${entity.plural}/transitions/${transition.name}`]: {
      post: {
        operationId: operationId(context, `bulk${action}${pascalCase(entity.plural)}`),
        summary: `${transition.label}: many ${inSentence(entity.pluralLabel)}`,
        description:
          `${description} Each record is its own transaction with its own version check; the answer is 200 with one result per ` +
          'record, so one refusal neither blocks nor undoes the others.',
        tags,
        'x-transition': transition.name,
        requestBody: { required: true, content: json(schemaRef(names.bulkTransition)) },
        responses: {
          '200': { description: 'One result per distinct id, in the order sent.', content: json(schemaRef(names.bulkTransitionResults)) },
          ...errors(context, OPERATION_ERRORS.bulkTransition),
        },
      },
    },
  };
}

/** The history of every entity, and one path per transition (for one record and for many). */
function workflowPaths(entity: EntityModel, context: PathContext): Record<string, PathItemObject> {
  const names = context.names.get(entity.name)!;
  const one = inSentence(entity.label);
  const paths: Record<string, PathItemObject> = {
    [`/${entity.plural}/{id}/history`]: {
      parameters: [idParameter(entity)],
      get: {
        operationId: operationId(context, `get${names.record}History`),
        summary: `${entity.label} history`,
        description: `Every create, change${entity.workflow ? ', transition' : ''} and delete of the ${one}, newest first, with who and when. Fields hidden from the caller never appear.`,
        tags: [entityTag(entity)],
        parameters: historyParameters(context.limits),
        responses: {
          '200': { description: `A page of the ${one}'s history.`, content: json(schemaRef(names.history)) },
          ...errors(context, OPERATION_ERRORS.history),
        },
      },
    },
  };
  for (const transition of entity.workflow?.transitions ?? []) Object.assign(paths, transitionPaths(entity, transition, context));
  return paths;
}

// ---------------------------------------------------------------- auth and the document itself

function authPaths(context: PathContext): Record<string, PathItemObject> {
  const tags = [AUTH_TAG];
  return {
    '/auth/me': {
      get: {
        operationId: operationId(context, 'getCurrentUser'),
        summary: 'Who is signed in',
        tags,
        responses: {
          '200': { description: 'The signed-in user (or the owner of the token).', content: json(schemaRef('User')) },
          ...errors(context, OPERATION_ERRORS.me),
        },
      },
    },
    '/auth/sign-in': {
      post: {
        operationId: operationId(context, 'signIn'),
        summary: 'Sign in with email and password',
        description: 'Sets the session cookie `nf_session`. Scripts use a personal API token instead.',
        tags,
        security: [],
        requestBody: { required: true, content: json(schemaRef('SignIn')) },
        responses: {
          '200': {
            description: 'Signed in; the response sets the session cookie.',
            headers: {
              'Set-Cookie': { description: 'nf_session=...; HttpOnly; SameSite=Lax', required: true, schema: { type: 'string' } },
            },
            content: json(schemaRef('SignedIn')),
          },
          ...errors(context, OPERATION_ERRORS.signIn),
        },
      },
    },
    '/auth/sign-out': {
      post: {
        operationId: operationId(context, 'signOut'),
        summary: 'Sign out',
        description: 'Ends the session of the cookie and clears it; without one it does nothing.',
        tags,
        // Anyone may sign out: the session, when there is one, is ended.
        security: [{}, { cookieAuth: [] }, { bearerAuth: [] }],
        responses: {
          '200': { description: 'Signed out.', content: json(schemaRef('SignedOut')) },
          ...errors(context, OPERATION_ERRORS.signOut),
        },
      },
    },
    '/openapi.json': {
      get: {
        operationId: operationId(context, 'getOpenApiDocument'),
        summary: 'This document',
        description: 'The OpenAPI 3.1 document of this API, generated from the spec.',
        tags,
        security: [],
        responses: {
          '200': {
            description: 'The OpenAPI document.',
            content: json({
              type: 'object',
              properties: { openapi: { type: 'string', pattern: '^3\\.1\\.' }, info: { type: 'object' }, paths: { type: 'object' } },
              required: ['openapi', 'info', 'paths'],
            }),
          },
          ...errors(context, OPERATION_ERRORS.openapi),
        },
      },
    },
  };
}

// ---------------------------------------------------------------- custom calls

const PARAM_SCHEMAS: Record<ParamType, JsonSchema> = {
  integer: { type: 'integer' },
  text: { type: 'string' },
  boolean: { type: 'boolean' },
};

function callSuccess(call: CallSpec, context: PathContext): Record<string, ResponseObject> {
  if (call.output === undefined) return { '204': { description: 'Done.' } };
  const schema =
    typeof call.output === 'string'
      ? schemaRef(context.names.get(call.output)!.record)
      : fieldMapSchema(call.output, context.model.constants, 'record');
  return { '200': { description: 'The result.', content: json(schema) } };
}

function callOperation(name: string, call: CallSpec, context: PathContext): OperationObject {
  const params = Object.entries(call.params ?? {});
  // Parameters and any body sent are checked before the handler runs (a call without input still
  // refuses a body that is not empty JSON); the handler adds its declared codes.
  const builtIn: string[] = [...OPERATION_ERRORS.list, 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];
  const operation: OperationObject = {
    operationId: operationId(context, name),
    summary: call.summary ?? humanize(name),
    description: `Custom call \`${name}\` of the spec. Roles: ${call.roles.join(', ')}.`,
    tags: [CALLS_TAG],
    'x-ninefold-call': name,
    'x-roles': [...call.roles],
    responses: { ...callSuccess(call, context), ...errors(context, [...builtIn, ...(call.errors ?? [])]) },
  };
  if (params.length > 0) {
    operation.parameters = params.map(([param, type]) => ({ name: param, in: 'path', required: true, schema: PARAM_SCHEMAS[type] }));
  }
  if (call.input) {
    const fileInputs = Object.entries(call.input)
      .filter(([, spec]) => spec.type === 'file' || spec.type === 'files')
      .map(([name]) => ({ name }));
    operation.requestBody = {
      required: true,
      content: { ...json(fieldMapSchema(call.input, context.model.constants, 'input')), ...multipartWrite(fileInputs) },
    };
  }
  return operation;
}

// ---------------------------------------------------------------- all of them

/** Every path of the API. Custom calls come first: their paths are more specific. */
export function buildPaths(model: AppModel, limits: Limits, names: ReadonlyMap<string, EntitySchemaNames>): Record<string, PathItemObject> {
  const context: PathContext = { model, limits, names, operationIds: new Set() };
  // Generated operations take their ids first; a call whose name clashes gets a suffix.
  const generated: Record<string, PathItemObject> = {};
  for (const entity of model.entities) Object.assign(generated, entityPaths(entity, context));
  Object.assign(generated, authPaths(context));
  if (model.webhooks.length > 0)
    Object.assign(
      generated,
      webhookPaths(model, (wanted) => operationId(context, wanted)),
    );
  // The inbox exists where the spec declares notifications.
  if (model.notifications.length > 0) {
    Object.assign(
      generated,
      inboxPaths(
        (codes) => errors(context, codes),
        (wanted) => operationId(context, wanted),
      ),
    );
  }
  if (hasFileFields(model))
    Object.assign(
      generated,
      filePaths(
        model,
        (wanted) => operationId(context, wanted),
        (codes) => errors(context, codes),
      ),
    );
  const paths: Record<string, PathItemObject> = {};
  for (const [name, call] of Object.entries(model.calls)) {
    const method = call.method.toLowerCase() as HttpMethod;
    paths[call.path] = { ...paths[call.path], [method]: callOperation(name, call, context) };
  }
  return { ...paths, ...generated };
}
