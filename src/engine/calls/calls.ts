import { callActor } from '../access/call-door';
import { NinefoldError, type FieldError } from '../errors/ninefold-error';
import { logLine } from '../log';
import { atomically } from '../ops/atomic';
import { bindOps } from '../ops/ops';
import type { Actor } from '../ground/actor';
import { fieldSchema, firstIssue, issueCode, issueMessage } from '../rules/field-schema';
import { defaultValue } from '../rules/record-input';
import { buildField } from '../spec/build';
import type { AppModel, FieldModel } from '../spec/model';
import { parsePathParam, type PathParamValue } from '../spec/path-params';
import type { CallSpec } from '../spec/types';
import type { DynamicDatabase } from '../store/types';

/**
 * The spec's custom calls (point 7) inside the engine: the caller's roles, typed path params,
 * the input checked field by field like a record's, then the handler in one transaction whose
 * ops act through the call door. A door only adapts its protocol (HTTP in src/api/calls.ts).
 */
export interface Calls {
  /**
   * Makes the call: FORBIDDEN (logged) unless one of the actor's roles may, before anything is
   * read; then the path params, given as their raw strings; then `readBody`, which reads the
   * request's object (required when the call declares an input, given its fields, else optional).
   */
  run(actor: Actor, name: string, request: CallRequest): Promise<CallResult>;
}

export interface CallRequest {
  readonly params: Readonly<Record<string, string>>;
  readonly readBody: (inputFields: readonly FieldModel[] | null) => Promise<Record<string, unknown> | null>;
}

/** What the handler returned, with the fields of a declared output object for the door to write. */
export interface CallResult {
  readonly value: unknown;
  readonly outputFields: readonly FieldModel[] | null;
}

/** A call with its input and output fields built once. */
interface PreparedCall {
  readonly spec: CallSpec;
  readonly inputFields: readonly FieldModel[] | null;
  readonly outputFields: readonly FieldModel[] | null;
}

function invalid(errors: FieldError[]): NinefoldError {
  return new NinefoldError('VALIDATION_FAILED', errors.map((e) => e.message).join(' '), { fieldErrors: errors });
}

function unknownInputs(keys: readonly string[]): FieldError[] {
  return keys.map((key) => ({ field: key, code: 'unknown_field', message: `"${key}" is not an input of this call.` }));
}

function parseParams(call: CallSpec, raw: Readonly<Record<string, string>>): Record<string, PathParamValue> {
  const params: Record<string, PathParamValue> = {};
  const errors: FieldError[] = [];
  for (const [name, type] of Object.entries(call.params ?? {})) {
    const value = parsePathParam(name, type, raw[name] ?? '');
    if (typeof value === 'object') errors.push(value);
    else params[name] = value;
  }
  if (errors.length > 0) throw invalid(errors);
  return params;
}

/** The input checked field by field with the same schemas as records; unknown keys are refused. */
function parseInput(fields: readonly FieldModel[], body: Record<string, unknown>, model: AppModel, actor: Actor): Record<string, unknown> {
  const byName = new Set(fields.map((f) => f.name));
  const errors = unknownInputs(Object.keys(body).filter((key) => !byName.has(key)));
  const input: Record<string, unknown> = {};
  for (const field of fields) {
    const given = Object.hasOwn(body, field.name);
    const result = fieldSchema(field).safeParse(given ? body[field.name] : defaultValue(field, actor));
    if (result.success) input[field.name] = result.data;
    else {
      const issue = firstIssue(result.error);
      errors.push({ field: field.name, code: issueCode(issue), message: issueMessage(issue, field) });
    }
  }
  if (errors.length > 0) throw invalid(errors);
  return input;
}

function prepare(call: CallSpec, model: AppModel): PreparedCall {
  const fieldsOf = (specs: CallSpec['input']) =>
    Object.entries(specs ?? {}).map(([field, spec]) => buildField(field, spec, model.constants, model.calendar));
  return {
    spec: call,
    inputFields: call.input ? fieldsOf(call.input) : null,
    outputFields: call.output && typeof call.output !== 'string' ? fieldsOf(call.output) : null,
  };
}

export function createCalls(model: AppModel, db: DynamicDatabase): Calls {
  const prepared = new Map(Object.entries(model.calls).map(([name, call]) => [name, prepare(call, model)]));
  const constants = Object.fromEntries(Object.entries(model.constants).map(([key, constant]) => [key, constant.value]));

  function callNamed(name: string): PreparedCall {
    const call = prepared.get(name);
    if (!call) throw new NinefoldError('NOT_FOUND', `There is no call "${name}".`);
    return call;
  }

  return {
    async run(actor, name, request) {
      const { spec, inputFields, outputFields } = callNamed(name);
      if (!spec.roles.some((role) => actor.roles.includes(role))) {
        logLine('warn', 'access refused', { code: 'FORBIDDEN', actor: actor.userId, call: name, action: 'call' });
        throw new NinefoldError('FORBIDDEN', `You are not allowed to make the call "${name}".`);
      }
      const params = parseParams(spec, request.params);
      const body = await request.readBody(inputFields);
      // No declared input: no body, or an empty object.
      const input = inputFields ? parseInput(inputFields, body ?? {}, model, actor) : {};
      if (!inputFields && body && Object.keys(body).length > 0) throw invalid(unknownInputs(Object.keys(body)));
      // One transaction for the whole call: what it changes is saved together, or not at all.
      // Its ops act through the call door: what the spec lets only calls write, they may.
      const caller = callActor(actor);
      const value = await atomically({ model, db }, (ops) => spec.handler({ params, input, ops: bindOps(ops, caller), actor, constants }));
      return { value, outputFields };
    },
  };
}
