import { DEFAULT_MAX_FILES, THUMBNAIL_PIXELS } from '@/engine/files/file-limits';
import { buildFieldDefault } from '@/engine/spec/field-default';
import { fieldWrittenOnlyByCalls, policyOf, writtenOnlyByCalls } from '@/engine/access/policy';
import type { AppModel, EntityModel } from '@/engine/spec/model';
import { decimalDigits, moneyCurrency, moneyDigits, resolveNumber, type DecimalDigits } from '@/engine/spec/field-numbers';
import { capitalize, indefinite, inSentence } from '@/engine/spec/naming';
import type { ConstantRef, FieldSpec } from '@/engine/spec/types';
import type { JsonSchema, JsonType } from './types';
import { MAX_REFERENCES } from '@/engine/spec/join-fields';
import { dueText } from '@/engine/spec/describe/due';
import { computedNote } from '@/engine/spec/describe/computed';
import { derivedText } from '@/engine/spec/describe/derived';

/**
 * Fields as JSON Schema 2020-12: what a record looks like on the wire, and what a create or
 * update body may hold. The shapes follow the REST door's serialiser (src/api/wire.ts).
 */

export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;
/** What a decimal looks like on the wire: a string, so that no digit is lost to a float. */
export const DECIMAL_PATTERN = '^-?\\d+(\\.\\d+)?$';
/** Longest email and URL the engine stores (src/engine/rules/field-schema.ts). */
const EMAIL_MAX = 320;
const URL_MAX = 2048;

export const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

type Constants = AppModel['constants'];

/** A file named in a write: the id its upload (POST /api/v1/files) answered. */
const FILE_ID: JsonSchema = {
  type: 'integer',
  minimum: 1,
  description: 'The id of a file you uploaded (POST /api/v1/files), or one the record holds.',
};

/** A file as a record holds it: download it at `url` with the same credentials. */
export const FILE_DESCRIPTOR: JsonSchema = {
  type: 'object',
  required: ['id', 'name', 'size', 'contentType', 'url'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    size: { type: 'integer', description: 'Bytes.' },
    contentType: { type: 'string', description: 'Read from the content when it was uploaded.' },
    url: { type: 'string' },
    thumbnailUrl: { type: 'string', description: `Images only: a WebP at most ${THUMBNAIL_PIXELS} pixels a side.` },
  },
  additionalProperties: false,
};

/** Where a field's schema is used: a record read back, or a body sent by a client. */
export type SchemaUse = 'record' | 'input';

/** The schema of one value of a field, without null. */
export function valueSchema(spec: FieldSpec, constants: Constants, use: SchemaUse): JsonSchema {
  switch (spec.type) {
    case 'text': {
      const schema: JsonSchema = { type: 'string' };
      if (spec.minLength !== undefined) schema.minLength = spec.minLength;
      if (spec.maxLength !== undefined) schema.maxLength = spec.maxLength;
      if (spec.pattern !== undefined) schema.pattern = spec.pattern;
      if (spec.format === 'hostname') schema.format = 'hostname';
      return schema;
    }
    case 'markdown': {
      const schema: JsonSchema = { type: 'string', contentMediaType: 'text/markdown' };
      if (spec.minLength !== undefined) schema.minLength = spec.minLength;
      if (spec.maxLength !== undefined) schema.maxLength = spec.maxLength;
      return schema;
    }
    case 'email':
      return { type: 'string', format: 'email', maxLength: EMAIL_MAX };
    case 'url':
      return { type: 'string', format: 'uri', maxLength: URL_MAX, description: 'An http or https address.' };
    case 'enum':
      return { type: 'string', enum: [...spec.values] };
    case 'integer': {
      const min = resolveNumber(spec.min, constants);
      const max = resolveNumber(spec.max, constants);
      return { type: 'integer', minimum: Math.max(min ?? INT32_MIN, INT32_MIN), maximum: Math.min(max ?? INT32_MAX, INT32_MAX) };
    }
    case 'decimal':
      return decimalSchema(spec, decimalDigits(spec), 'A decimal number', constants, use);
    case 'money': {
      // The currency is in the words: an `x-` keyword would make the schema fail strict validators.
      const currency = moneyCurrency(spec);
      return decimalSchema(spec, moneyDigits(spec, currency), `An amount of ${currency} (ISO 4217)`, constants, use);
    }
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'reference':
      return { type: 'integer', minimum: 1, description: `The id of ${/^[aeiou]/i.test(spec.to) ? 'an' : 'a'} ${spec.to}.` };
    case 'references': {
      const maxItems = resolveNumber(spec.maxItems, constants) ?? MAX_REFERENCES;
      const what = `The ids of ${spec.to} records`;
      // A record lists the ids ascending, only those the caller may read; a body may repeat an id (kept once).
      return use === 'input'
        ? {
            type: 'array',
            items: { type: 'integer', minimum: 1 },
            maxItems,
            description: `${what} (at most ${maxItems}); replaces the whole set. Ids of records you may not read are refused.`,
          }
        : {
            type: 'array',
            items: { type: 'integer', minimum: 1 },
            uniqueItems: true,
            maxItems,
            description: `${what}, ascending: those you may read.`,
          };
    }
    case 'user':
      return {
        type: 'integer',
        minimum: 1,
        description: spec.roles
          ? `The id of a user with the role ${spec.roles.join(' or ')} (anyone else is refused).`
          : 'The id of a user.',
      };
    case 'file':
      return use === 'input' ? FILE_ID : schemaRef('File');
    case 'files': {
      const maxItems = resolveNumber(spec.maxItems, constants) ?? DEFAULT_MAX_FILES;
      return { type: 'array', items: use === 'input' ? FILE_ID : schemaRef('File'), maxItems };
    }
    case 'users': {
      const maxItems = resolveNumber(spec.maxItems, constants) ?? MAX_REFERENCES;
      const who = spec.roles ? `users with the role ${spec.roles.join(' or ')}` : 'users';
      // Every member is shown to whoever reads the record, as a user field's user is.
      return use === 'input'
        ? {
            type: 'array',
            items: { type: 'integer', minimum: 1 },
            maxItems,
            description: `The ids of ${who} (at most ${maxItems}); replaces the whole set.${spec.roles ? ' Anyone else is refused.' : ''}`,
          }
        : {
            type: 'array',
            items: { type: 'integer', minimum: 1 },
            uniqueItems: true,
            maxItems,
            description: `The ids of ${who}, ascending.`,
          };
    }
  }
}

/** A decimal or an amount of money: a string of digits, exact. */
function decimalSchema(
  spec: { readonly min?: number | ConstantRef; readonly max?: number | ConstantRef },
  { precision, scale }: DecimalDigits,
  what: string,
  constants: Constants,
  use: SchemaUse,
): JsonSchema {
  const min = resolveNumber(spec.min, constants);
  const max = resolveNumber(spec.max, constants);
  const range = [min !== undefined ? `at least ${min}` : '', max !== undefined ? `at most ${max}` : ''].filter(Boolean).join(', ');
  const description = `${what} written as a string: up to ${precision - scale} digits before the point and ${scale} after it${range ? `; ${range}` : ''}.`;
  // A client may send a JSON number too; the record always carries the exact string.
  return use === 'input'
    ? { type: ['string', 'number'], pattern: DECIMAL_PATTERN, description }
    : { type: 'string', pattern: DECIMAL_PATTERN, description };
}

/**
 * A schema that also accepts null: the type gains "null", an enum gains null; a reference (a
 * single file) becomes "that, or null", since keywords beside a $ref must all hold too.
 */
export function nullable(schema: JsonSchema): JsonSchema {
  if (schema.$ref !== undefined) {
    const { $ref, ...rest } = schema;
    return { ...rest, anyOf: [{ $ref }, { type: 'null' }] };
  }
  const types: readonly JsonType[] = schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : schema.type;
  const result: JsonSchema = { ...schema, type: [...types, 'null'] };
  if (schema.enum) result.enum = [...schema.enum, null];
  return result;
}

/** A field's declared default, if its type has one. */
export function fieldDefault(spec: FieldSpec): unknown {
  return 'default' in spec ? spec.default : undefined;
}

/** A field of a record or of a call's input or output: its value, its words, null when optional. */
export function fieldSchema(
  field: { readonly spec: FieldSpec; readonly required: boolean; readonly label: string },
  constants: Constants,
  use: SchemaUse,
): JsonSchema {
  const value = valueSchema(field.spec, constants, use);
  const words = [value.description, field.spec.help].filter(Boolean).join(' ');
  const schema: JsonSchema = { title: field.label, ...value };
  if (words) schema.description = words;
  else delete schema.description;
  const fallback = fieldDefault(field.spec);
  // A default naming a constant is that constant's value (the field-default module resolves it).
  const given = buildFieldDefault(field.spec, constants);
  if (use === 'input' && given?.kind === 'value') schema.default = given.value;
  else if (
    use === 'input' &&
    fallback !== undefined &&
    field.spec.type !== 'user' &&
    field.spec.type !== 'datetime' &&
    field.spec.type !== 'reference'
  ) {
    schema.default = fallback;
  }
  if (use === 'input' && given?.kind === 'ownRecord') {
    schema.description = [
      schema.description,
      `Default: your own ${given.entity} (the one whose ${given.userField} is you), when you have one.`,
    ]
      .filter(Boolean)
      .join(' ');
  }
  if (use === 'input' && field.spec.type === 'user' && field.spec.default === 'actor') {
    schema.description = [schema.description, 'Default: the signed-in user.'].filter(Boolean).join(' ');
  }
  if (use === 'input' && field.spec.type === 'datetime' && field.spec.default === 'now') {
    schema.description = [schema.description, 'Default: the time of the request.'].filter(Boolean).join(' ');
  }
  // A set is always a list (empty when none) in a record; a body may send null for "none".
  if (field.spec.type === 'references' || field.spec.type === 'users') {
    if (use === 'input' && field.required) schema.minItems = 1;
    return use === 'input' && !field.required ? nullable(schema) : schema;
  }
  return field.required ? schema : nullable(schema);
}

// ---------------------------------------------------------------- component names

export interface EntitySchemaNames {
  readonly record: string;
  readonly create: string;
  readonly update: string;
  readonly list: string;
  readonly history: string;
  /** The next three exist only for an entity with a workflow. */
  readonly transition: string;
  readonly bulkTransition: string;
  readonly bulkTransitionResults: string;
  /** These four exist only for an entity the API writes (not only the spec's calls). */
  readonly bulkUpdate: string;
  readonly bulkUpdateResults: string;
  readonly bulkDelete: string;
  readonly bulkDeleteResults: string;
}

/** Schemas every document has; an entity's schemas never take these names. */
export const FIXED_SCHEMAS = [
  'Problem',
  'ValidationProblem',
  'User',
  'SignIn',
  'SignedIn',
  'SignedOut',
  'Receipt',
  // A file's descriptor and an upload's answer (file-paths.ts): an entity "File" is "FileRecord".
  'File',
  'Uploaded',
] as const;

export function pascalCase(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/**
 * Component names per entity, from its label ("Ticket", "TicketCreate", ...). A label that
 * gives no usable name falls back to the entity's name; a clash gets the suffix "Record".
 */
export function entitySchemaNames(model: AppModel): ReadonlyMap<string, EntitySchemaNames> {
  const taken = new Set<string>(FIXED_SCHEMAS);
  const names = new Map<string, EntitySchemaNames>();
  for (const entity of model.entities) {
    let base = pascalCase(entity.label);
    if (!/^[A-Za-z]/.test(base)) base = pascalCase(entity.name);
    const all = (b: string) => [
      b,
      `${b}Create`,
      `${b}Update`,
      `${b}List`,
      `${b}History`,
      ...(entity.workflow ? [`${b}Transition`, `${b}BulkTransition`, `${b}BulkTransitionResults`] : []),
      ...(writtenOnlyByCalls(entity) ? [] : [`${b}BulkUpdate`, `${b}BulkUpdateResults`, `${b}BulkDelete`, `${b}BulkDeleteResults`]),
    ];
    let candidate = base;
    for (let n = 2; all(candidate).some((name) => taken.has(name)); n += 1) {
      candidate = n === 2 ? `${base}Record` : `${base}Record${n - 1}`;
    }
    all(candidate).forEach((name) => taken.add(name));
    names.set(entity.name, {
      record: candidate,
      create: `${candidate}Create`,
      update: `${candidate}Update`,
      list: `${candidate}List`,
      history: `${candidate}History`,
      transition: `${candidate}Transition`,
      bulkTransition: `${candidate}BulkTransition`,
      bulkTransitionResults: `${candidate}BulkTransitionResults`,
      bulkUpdate: `${candidate}BulkUpdate`,
      bulkUpdateResults: `${candidate}BulkUpdateResults`,
      bulkDelete: `${candidate}BulkDelete`,
      bulkDeleteResults: `${candidate}BulkDeleteResults`,
    });
  }
  return names;
}

// ---------------------------------------------------------------- entity schemas

const SYSTEM_PROPERTIES: Record<string, JsonSchema> = {
  id: { title: 'ID', type: 'integer', minimum: 1, readOnly: true },
  version: {
    title: 'Version',
    type: 'integer',
    minimum: 1,
    readOnly: true,
    description: 'Goes up by one with every change; send it back (If-Match or "version") to update.',
  },
  createdAt: { title: 'Created', type: 'string', format: 'date-time', readOnly: true },
  updatedAt: { title: 'Updated', type: 'string', format: 'date-time', readOnly: true },
  createdBy: {
    title: 'Created by',
    type: ['integer', 'null'],
    minimum: 1,
    readOnly: true,
    description: 'The id of the user who created it; absent where hidden from the caller.',
  },
  updatedBy: {
    title: 'Updated by',
    type: ['integer', 'null'],
    minimum: 1,
    readOnly: true,
    description: 'The id of the user who changed it last; absent where hidden from the caller.',
  },
};

/** The system columns every answer carrying a record has, whoever reads it: a write's receipt. */
const RECEIPT_PROPERTIES = ['id', 'version', 'createdAt', 'updatedAt'] as const;

/**
 * What a write answers when the caller may not read the record it left (a visitor's message, a
 * draft moved to another team): its id, version and times, none of its fields.
 */
export function receiptSchema(): JsonSchema {
  return {
    title: 'Receipt',
    description: 'The record written, when the caller may not read it: its id, version and times, none of its fields.',
    type: 'object',
    properties: Object.fromEntries(RECEIPT_PROPERTIES.map((name) => [name, { ...SYSTEM_PROPERTIES[name] }])),
    required: [...RECEIPT_PROPERTIES],
    additionalProperties: false,
  };
}

/** A write's answer: the record as the caller may read it afterwards, or its receipt when they may not. */
export function writtenSchema(recordName: string): JsonSchema {
  return { anyOf: [schemaRef(recordName), schemaRef('Receipt')] };
}

export function recordSchema(entity: EntityModel, constants: Constants): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const column of entity.systemColumns) properties[column.name] = { ...SYSTEM_PROPERTIES[column.name] };
  if (entity.workflow) {
    const states = entity.workflow.states;
    properties[entity.workflow.field] = {
      title: 'State',
      type: 'string',
      enum: states.map((s) => s.name),
      readOnly: true,
      description: `The workflow state (${states.map((s) => `${s.name}: ${s.label}`).join(', ')}); transitions change it.`,
    };
  }
  for (const field of entity.fields) {
    const schema = fieldSchema(field, constants, 'record');
    if (field.readOnly || fieldWrittenOnlyByCalls(entity, field)) schema.readOnly = true;
    if (fieldWrittenOnlyByCalls(entity, field)) schema.description = [schema.description, CALLS_ONLY_FIELD].filter(Boolean).join(' ');
    if (field.due) schema.description = [schema.description, `Set by the server, ${dueText(field, entity)}.`].filter(Boolean).join(' ');
    if (field.computed) schema.description = [schema.description, `${capitalize(computedNote(field, entity))}.`].filter(Boolean).join(' ');
    if (field.derived)
      schema.description = [schema.description, `Set by the server, ${derivedText(field, entity)}.`].filter(Boolean).join(' ');
    properties[field.name] = schema;
  }
  // Fields (and authors) some role never sees: ops leave them out of its records and the wire does not put them back.
  const { hiddenFromSomeRole: hidden } = policyOf(entity);
  const description = [entity.description, writtenOnlyByCalls(entity) ? CALLS_ONLY_ENTITY : undefined].filter(Boolean).join(' ');
  return {
    title: entity.label,
    ...(description ? { description } : {}),
    type: 'object',
    properties,
    required: Object.keys(properties).filter((name) => !hidden.has(name)),
    additionalProperties: false,
  };
}

const CALLS_ONLY_FIELD = "Written only by the application's calls and workflow: not accepted in a create or change of the record.";
const CALLS_ONLY_ENTITY = "Written only by the application's calls and workflow: these addresses are read-only.";

/**
 * The fields some client may write through the record API with the action, as ops decide it (the
 * compiled policy): not read-only, not written only by the spec's calls, none of an entity only
 * calls write, and only those some role granting the action may write (a field every such role
 * has read-only, hidden or unlisted is refused to everyone, so no body may carry it). A transition
 * sets fields as an update does.
 */
function writableFields(entity: EntityModel, action: 'create' | 'update') {
  return policyOf(entity).doorWritable[action];
}

/** A create body: required are the required fields without a default. */
export function createSchema(entity: EntityModel, constants: Constants): JsonSchema {
  const fields = writableFields(entity, 'create');
  return {
    title: `New ${inSentence(entity.label)}`,
    type: 'object',
    properties: Object.fromEntries(fields.map((field) => [field.name, fieldSchema(field, constants, 'input')])),
    required: fields.filter((field) => field.required && fieldDefault(field.spec) === undefined).map((field) => field.name),
    additionalProperties: false,
  };
}

/** An update body: any writable field, and the version the client saw (or send it as If-Match). */
export function updateSchema(entity: EntityModel, constants: Constants): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of writableFields(entity, 'update')) {
    const schema = fieldSchema(field, constants, 'input');
    delete schema.default;
    properties[field.name] = schema;
  }
  properties.version = {
    title: 'Version',
    type: 'integer',
    minimum: 1,
    description: 'The version of the record the change is based on; required unless the If-Match header carries it.',
  };
  return { title: `Changes to ${indefinite(entity.label)}`, type: 'object', properties, additionalProperties: false };
}

export function listSchema(entity: EntityModel, recordName: string): JsonSchema {
  return {
    title: entity.pluralLabel,
    type: 'object',
    properties: {
      items: { type: 'array', items: schemaRef(recordName) },
      nextCursor: {
        type: ['string', 'null'],
        description: 'Pass as `cursor` to read the next page; null on the last page.',
      },
    },
    required: ['items', 'nextCursor'],
    additionalProperties: false,
  };
}

// ---------------------------------------------------------------- history and transitions

/** The value of a field in a history entry: as in a record, and null when it was empty. */
function changeValueSchema(spec: FieldSpec, constants: Constants): JsonSchema {
  const schema = valueSchema(spec, constants, 'record');
  delete schema.description;
  return nullable(schema);
}

/** GET /<plural>/{id}/history: entries newest first, with the fields the caller may read. */
export function historySchema(entity: EntityModel, constants: Constants): JsonSchema {
  const changes: Record<string, JsonSchema> = {};
  for (const field of entity.fields) {
    const value = changeValueSchema(field.spec, constants);
    changes[field.name] = {
      title: field.label,
      type: 'object',
      properties: { from: value, to: value },
      required: ['from', 'to'],
      additionalProperties: false,
    };
  }
  const states = entity.workflow?.states.map((state) => state.name) ?? [];
  const names = entity.workflow?.transitions.map((t) => t.name) ?? [];
  const transition: JsonSchema | null = entity.workflow
    ? {
        type: 'object',
        description: 'The transition taken: its name and label, the states left and entered, and the comment given.',
        properties: {
          name: { type: 'string', enum: names },
          label: { type: 'string' },
          from: { type: 'string', enum: states },
          to: { type: 'string', enum: states },
          comment: { type: ['string', 'null'] },
        },
        required: ['name', 'label', 'from', 'to', 'comment'],
        additionalProperties: false,
      }
    : null;
  const entry: JsonSchema = {
    type: 'object',
    properties: {
      id: { type: 'integer', minimum: 1, description: 'Increases with every event: pass the last as the cursor for older ones.' },
      at: { type: 'string', format: 'date-time' },
      actor: {
        description: 'Who did it; null once that account is gone, or where the caller may not see who created or changed the record.',
        anyOf: [
          {
            type: 'object',
            properties: { id: { type: 'integer', minimum: 1 }, name: { type: 'string' } },
            required: ['id', 'name'],
            additionalProperties: false,
          },
          { type: 'null' },
        ],
      },
      action: { type: 'string', enum: entity.workflow ? ['create', 'update', 'transition', 'delete'] : ['create', 'update', 'delete'] },
      transition: transition
        ? { anyOf: [transition, { type: 'null' }], description: 'For a transition; null otherwise.' }
        : { type: 'null', description: 'Always null: there is no workflow.' },
      changes: {
        type: 'object',
        description: 'The fields that changed (create: the initial values as `to`). Fields hidden from the caller never appear.',
        properties: changes,
        additionalProperties: false,
      },
      cause: {
        description:
          'For a change made as the effect of a write on another record (its transition, or its creation): that record and the write, and in words; null otherwise.',
        anyOf: [
          {
            type: 'object',
            properties: {
              entity: { type: 'string' },
              id: { type: 'integer', minimum: 1 },
              action: { type: 'string', description: 'The transition taken on it, or `create`.' },
              text: { type: 'string' },
            },
            required: ['entity', 'id', 'action', 'text'],
            additionalProperties: false,
          },
          { type: 'null' },
        ],
      },
    },
    required: ['id', 'at', 'actor', 'action', 'transition', 'changes', 'cause'],
    additionalProperties: false,
  };
  return {
    title: `${entity.label} history`,
    type: 'object',
    properties: {
      items: { type: 'array', items: entry, description: 'Newest first.' },
      nextCursor: { type: ['string', 'null'], description: 'Pass as `cursor` to read older entries; null on the last page.' },
    },
    required: ['items', 'nextCursor'],
    additionalProperties: false,
  };
}

/** Longest comment a transition takes (src/engine/ops/transition.ts). */
export const TRANSITION_COMMENT_MAX = 10_000;

function transitionInputSchema(entity: EntityModel, constants: Constants): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of writableFields(entity, 'update')) {
    const schema = fieldSchema(field, constants, 'input');
    delete schema.default;
    properties[field.name] = schema;
  }
  return {
    type: 'object',
    description: 'Field values set with the transition, e.g. one it requires; fields the caller may change only.',
    properties,
    additionalProperties: false,
  };
}

const COMMENT_SCHEMA: JsonSchema = {
  type: 'string',
  maxLength: TRANSITION_COMMENT_MAX,
  description: 'Recorded in the history with the transition; required where the transition says so.',
};

/** The body of a transition of one record. */
export function transitionSchema(entity: EntityModel, constants: Constants): JsonSchema {
  return {
    title: `${capitalize(indefinite(entity.label))} transition`,
    type: 'object',
    properties: {
      version: {
        type: 'integer',
        minimum: 1,
        description: 'The version of the record the caller saw; required unless the If-Match header carries it.',
      },
      comment: COMMENT_SCHEMA,
      input: transitionInputSchema(entity, constants),
    },
    additionalProperties: false,
  };
}

/** The body of a transition of many records. */
export function bulkTransitionSchema(entity: EntityModel, constants: Constants, maxItems: number): JsonSchema {
  return {
    title: `A transition of many ${inSentence(entity.pluralLabel)}`,
    type: 'object',
    properties: {
      items: {
        type: 'array',
        minItems: 1,
        maxItems,
        description:
          'The records, each with the version the caller saw (an item without one is refused with PRECONDITION_REQUIRED, as a single transition would be). A repeated id is taken once.',
        items: {
          type: 'object',
          properties: { id: { type: 'integer', minimum: 1 }, version: { type: 'integer', minimum: 1 } },
          required: ['id'],
          additionalProperties: false,
        },
      },
      comment: COMMENT_SCHEMA,
      input: transitionInputSchema(entity, constants),
    },
    required: ['items'],
    additionalProperties: false,
  };
}

/** The items of a request on many records: each id with the version the caller saw. */
function bulkItemsSchema(maxItems: number, what: string): JsonSchema {
  return {
    type: 'array',
    minItems: 1,
    maxItems,
    description: `The records, each with the version the caller saw (an item without one is refused with PRECONDITION_REQUIRED, as ${what} would be). A repeated id is taken once.`,
    items: {
      type: 'object',
      properties: { id: { type: 'integer', minimum: 1 }, version: { type: 'integer', minimum: 1 } },
      required: ['id'],
      additionalProperties: false,
    },
  };
}

/** The body of an update of many records: the same field values set on each. */
export function bulkUpdateSchema(entity: EntityModel, updateName: string, maxItems: number): JsonSchema {
  return {
    title: `An update of many ${inSentence(entity.pluralLabel)}`,
    type: 'object',
    properties: {
      items: bulkItemsSchema(maxItems, 'a single update'),
      input: { ...schemaRef(updateName), description: 'The field values to set on every record (at least one).' },
    },
    required: ['items', 'input'],
    additionalProperties: false,
  };
}

/** The body of a delete of many records. */
export function bulkDeleteSchema(entity: EntityModel, maxItems: number): JsonSchema {
  return {
    title: `A delete of many ${inSentence(entity.pluralLabel)}`,
    type: 'object',
    properties: { items: bulkItemsSchema(maxItems, 'a single delete with If-Match') },
    required: ['items'],
    additionalProperties: false,
  };
}

/** A refused row: what the request on this record alone would have answered. */
function refusedRowSchema(alone: string, codes: readonly string[]): JsonSchema {
  return {
    type: 'object',
    description: `Refused: the status, code and detail ${alone} would have answered.`,
    properties: {
      id: { type: 'integer', minimum: 1 },
      ok: { const: false },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      code: { type: 'string', enum: [...codes] },
      detail: { type: 'string' },
    },
    required: ['id', 'ok', 'status', 'code', 'detail'],
    additionalProperties: false,
  };
}

/** The answer of a delete of many records: one result per distinct id, in the order sent. */
export function bulkDeleteResultsSchema(codes: readonly string[]): JsonSchema {
  return {
    title: 'Results of a delete of many records',
    type: 'object',
    properties: {
      results: {
        type: 'array',
        items: {
          oneOf: [
            {
              type: 'object',
              properties: { id: { type: 'integer', minimum: 1 }, ok: { const: true } },
              required: ['id', 'ok'],
              additionalProperties: false,
            },
            refusedRowSchema('the delete of this record alone', codes),
          ],
        },
      },
    },
    required: ['results'],
    additionalProperties: false,
  };
}

/** The answer of a transition of many records: one result per distinct id, in the order sent. */
export function bulkTransitionResultsSchema(recordName: string, codes: readonly string[], what = 'transition'): JsonSchema {
  return {
    title: `Results of a ${what} of many records`,
    type: 'object',
    properties: {
      results: {
        type: 'array',
        items: {
          oneOf: [
            {
              type: 'object',
              properties: { id: { type: 'integer', minimum: 1 }, ok: { const: true }, record: writtenSchema(recordName) },
              required: ['id', 'ok', 'record'],
              additionalProperties: false,
            },
            {
              type: 'object',
              description: `Refused: the status, code and detail the ${what} of this record alone would have answered.`,
              properties: {
                id: { type: 'integer', minimum: 1 },
                ok: { const: false },
                status: { type: 'integer', minimum: 400, maximum: 599 },
                code: { type: 'string', enum: [...codes] },
                detail: { type: 'string' },
              },
              required: ['id', 'ok', 'status', 'code', 'detail'],
              additionalProperties: false,
            },
          ],
        },
      },
    },
    required: ['results'],
    additionalProperties: false,
  };
}

/** A call's output declared as fields: an object with those properties. */
export function fieldMapSchema(fields: Readonly<Record<string, FieldSpec>>, constants: Constants, use: SchemaUse): JsonSchema {
  const entries = Object.entries(fields).map(([name, spec]) => ({
    name,
    spec,
    required: spec.required ?? false,
    label: spec.label ?? name,
  }));
  return {
    type: 'object',
    properties: Object.fromEntries(entries.map((field) => [field.name, fieldSchema(field, constants, use)])),
    required:
      use === 'input'
        ? entries.filter((f) => f.required && fieldDefault(f.spec) === undefined).map((f) => f.name)
        : entries.filter((f) => f.required).map((f) => f.name),
    additionalProperties: false,
  };
}

// ---------------------------------------------------------------- fixed schemas

export function userSchema(): JsonSchema {
  return {
    title: 'User',
    description: 'A user account of the application.',
    type: 'object',
    properties: {
      id: { type: 'integer', minimum: 1 },
      email: { type: 'string', format: 'email' },
      name: { type: 'string' },
      roles: { type: 'array', items: { type: 'string' } },
    },
    required: ['id', 'email', 'name', 'roles'],
    additionalProperties: false,
  };
}

/** RFC 9457 problem details with the catalogue code; the codes of the whole catalogue. */
export function problemSchema(codes: readonly string[]): JsonSchema {
  return {
    title: 'Problem',
    description: 'An error (RFC 9457 problem details). `code` is a code of the error catalogue.',
    type: 'object',
    properties: {
      type: { type: 'string', format: 'uri', description: 'A stable URI per catalogue code.' },
      title: { type: 'string' },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: { type: 'string', description: 'What went wrong, for the user.' },
      code: { type: 'string', enum: [...codes] },
      errors: {
        type: 'array',
        description: 'The fields that are not valid (VALIDATION_FAILED).',
        items: {
          type: 'object',
          properties: {
            pointer: { type: 'string', description: 'The field, as a JSON pointer into the request body: "/subject".' },
            code: { type: 'string', description: 'A short machine code: required, too_big, pattern, ...' },
            detail: { type: 'string' },
          },
          required: ['pointer', 'code', 'detail'],
          additionalProperties: false,
        },
      },
      digest: { type: 'string', description: 'INTERNAL only: the same digest is in the server log line.' },
      limit: { type: 'string', description: 'LIMIT_EXCEEDED only: the name of the limit reached, as the spec declares it.' },
      max: { type: 'integer', minimum: 0, description: 'LIMIT_EXCEEDED only: the most the limit allows.' },
      constant: { type: 'string', description: 'LIMIT_EXCEEDED only: the business constant that sets the maximum, when one does.' },
    },
    required: ['type', 'title', 'status', 'detail', 'code'],
    additionalProperties: false,
  };
}

export function validationProblemSchema(): JsonSchema {
  return {
    title: 'Validation problem',
    description: 'A 422 problem. VALIDATION_FAILED names each field that is not valid under `errors`.',
    allOf: [schemaRef('Problem')],
    type: 'object',
    properties: { status: { const: 422 } },
  };
}
