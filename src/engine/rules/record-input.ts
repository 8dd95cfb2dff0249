import { NinefoldError, type FieldError } from '../errors/ninefold-error';
import type { RecordInput } from '../ops/types';
import type { Actor } from '../ground/actor';
import { callsOnlyFieldMessage, fieldWritableThroughDoor } from '../access/call-door';
import { authorId } from '../access/visitor';
import type { AppModel, EntityModel, FieldModel } from '../spec/model';
import { fieldSchema, firstIssue, issueCode, issueMessage, type StoredValue } from './field-schema';

export type ParsedValues = Record<string, StoredValue>;

/**
 * A field's default for this actor ('actor' and 'now' resolved, constants resolved in the model),
 * or undefined. The actor's own record (`{ own }`) needs the database: ops resolve it
 * (ops/own-record-defaults.ts) and pass it in `resolved`.
 */
export function defaultValue(
  field: FieldModel,
  actor: Actor,
  resolved: Readonly<Record<string, StoredValue>> = {},
): StoredValue | undefined {
  const d = field.defaultTo;
  if (d === undefined) return undefined;
  switch (d.kind) {
    // A visitor has no account: the field stays empty (the spec check refuses it where required).
    case 'actor':
      return authorId(actor);
    case 'now':
      return new Date();
    case 'value':
      return d.value;
    case 'ownRecord':
      return Object.hasOwn(resolved, field.name) ? resolved[field.name] : undefined;
  }
}

type Schema = ReturnType<typeof fieldSchema>;
const schemas = new WeakMap<FieldModel, Schema>();

/**
 * A field's schema, built once per field: building a zod schema costs far
 * more than using it, and an import checks each field of 100,000 rows.
 */
function schemaOf(field: FieldModel): Schema {
  return schemas.get(field) ?? schemas.set(field, fieldSchema(field)).get(field)!;
}

/**
 * Parses and checks the input of a create (every field; absent and read-only ones take their
 * default) or an update (only the fields given). Throws FORBIDDEN_FIELD for a field nobody may
 * write this way, VALIDATION_FAILED with every field error otherwise.
 */
export function parseRecordInput(
  model: AppModel,
  entity: EntityModel,
  input: RecordInput,
  mode: 'create' | 'update',
  actor: Actor,
  resolvedDefaults: Readonly<Record<string, StoredValue>> = {},
): ParsedValues {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new NinefoldError('VALIDATION_FAILED', 'The input must be an object of field values.');
  }
  const errors: FieldError[] = [];
  for (const key of Object.keys(input)) {
    const field = entity.fieldsByName[key];
    if (entity.workflow && key === entity.workflow.field) {
      throw new NinefoldError('FORBIDDEN_FIELD', `"${key}" changes only through the workflow's transitions.`, {
        fieldErrors: [{ field: key, code: 'forbidden_field', message: 'The state changes only through transitions.' }],
      });
    }
    if (!field) {
      errors.push({ field: key, code: 'unknown_field', message: `"${key}" is not a field of ${entity.label}.` });
    } else if (!fieldWritableThroughDoor(field, actor)) {
      const message = field.readOnly ? `${field.label} is read-only.` : callsOnlyFieldMessage(field);
      throw new NinefoldError('FORBIDDEN_FIELD', message, { fieldErrors: [{ field: key, code: 'forbidden_field', message }] });
    }
  }

  const values: ParsedValues = {};
  for (const field of entity.fields) {
    // A read-only field (or one only calls write, outside a call) is never given (refused above),
    // but the engine still sets its declared default on create: nobody else can, and a required
    // one would otherwise stay empty.
    const writable = fieldWritableThroughDoor(field, actor);
    const given = writable && Object.prototype.hasOwnProperty.call(input, field.name);
    if (!given && mode === 'update') continue;
    const raw = given ? input[field.name] : defaultValue(field, actor, resolvedDefaults);
    if (!writable && raw === undefined) continue;
    const result = schemaOf(field).safeParse(raw);
    if (result.success) values[field.name] = result.data;
    else {
      const issue = firstIssue(result.error);
      errors.push({ field: field.name, code: issueCode(issue), message: issueMessage(issue, field) });
    }
  }
  if (errors.length > 0) throw new NinefoldError('VALIDATION_FAILED', undefined, { fieldErrors: errors });
  return values;
}
