import { callActor } from '@/engine/access/call-door';
import { NinefoldError, type FieldError } from '@/engine/errors/ninefold-error';
import { atomically } from '@/engine/ops/atomic';
import { bindOps } from '@/engine/ops/ops';
import type { RecordData } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import { fieldSchema, issueCode, issueMessage } from '@/engine/rules/field-schema';
import { defaultValue } from '@/engine/rules/record-input';
import { buildField } from '@/engine/spec/build';
import type { AppModel, FieldModel } from '@/engine/spec/model';
import { parsePathParam, type PathParamValue } from '@/engine/spec/path-params';
import type { CallSpec } from '@/engine/spec/types';
import { readJsonObject, readOptionalJsonObject } from './body';
import { logLine } from './log';
import { json } from './json';
import { actorOf, parsePathTemplate, type ApiRequest, type Route } from './routes';
import { fieldToWire, recordToWire } from './wire';

/** The spec's custom calls (point 7) as routes: typed params, checked input, roles, then the handler. */

function invalid(errors: FieldError[]): NinefoldError {
  return new NinefoldError('VALIDATION_FAILED', errors.map((e) => e.message).join(' '), { fieldErrors: errors });
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
  const errors: FieldError[] = [];
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const key of Object.keys(body)) {
    if (!byName.has(key)) errors.push({ field: key, code: 'unknown_field', message: `"${key}" is not an input of this call.` });
  }
  const input: Record<string, unknown> = {};
  for (const field of fields) {
    const given = Object.hasOwn(body, field.name);
    const result = fieldSchema(field, model.constants).safeParse(given ? body[field.name] : defaultValue(field, actor));
    if (result.success) input[field.name] = result.data;
    else {
      const issue = result.error.issues[0];
      errors.push({ field: field.name, code: issueCode(issue), message: issueMessage(issue, field) });
    }
  }
  if (errors.length > 0) throw invalid(errors);
  return input;
}

function isRecordData(value: unknown): value is RecordData {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { id?: unknown }).id === 'number' &&
    typeof (value as { version?: unknown }).version === 'number'
  );
}

/** The handler's result as JSON: a record of the output entity as its Record JSON, declared output fields by their wire types, anything else as it is. */
function serialise(call: CallSpec, model: AppModel, outputFields: readonly FieldModel[] | null, result: unknown): Response {
  if (call.output === undefined) return new Response(null, { status: 204 });
  if (typeof call.output === 'string') {
    const entity = model.entitiesByName[call.output];
    const record = isRecordData(result)
      ? result
      : isRecordData((result as { record?: unknown } | null)?.record)
        ? (result as { record: RecordData }).record
        : null;
    if (entity && record) return json(recordToWire(entity, record));
  } else if (outputFields && typeof result === 'object' && result !== null && !Array.isArray(result)) {
    // Exactly the declared output: each field by its wire type, absent ones null, nothing else.
    const values = result as Record<string, unknown>;
    return json(
      Object.fromEntries(outputFields.map((field) => [field.name, fieldToWire(field, (values[field.name] ?? null) as RecordData[string])])),
    );
  }
  return json(result ?? null);
}

export function callRoute(model: AppModel, name: string, call: CallSpec): Route {
  const inputFields = call.input ? Object.entries(call.input).map(([field, spec]) => buildField(field, spec)) : null;
  const outputFields =
    call.output && typeof call.output !== 'string' ? Object.entries(call.output).map(([field, spec]) => buildField(field, spec)) : null;
  const constants = Object.fromEntries(Object.entries(model.constants).map(([key, constant]) => [key, constant.value]));
  return {
    method: call.method,
    path: parsePathTemplate(call.path),
    access: 'signedIn',
    originCheck: true,
    run: async (request: ApiRequest) => {
      const actor = actorOf(request);
      if (!call.roles.some((role) => actor.roles.includes(role))) {
        logLine('warn', 'access refused', { code: 'FORBIDDEN', actor: actor.userId, call: name, action: 'call' });
        throw new NinefoldError('FORBIDDEN', `You are not allowed to make the call "${name}".`);
      }
      const params = parseParams(call, request.params);
      let input: Record<string, unknown> = {};
      if (inputFields) {
        input = parseInput(inputFields, await readJsonObject(request.request, request.limits.maxBodyBytes), model, actor);
      } else {
        // No declared input: no body, or an empty object.
        const body = await readOptionalJsonObject(request.request, request.limits.maxBodyBytes);
        const keys = Object.keys(body ?? {});
        if (keys.length > 0)
          throw invalid(keys.map((key) => ({ field: key, code: 'unknown_field', message: `"${key}" is not an input of this call.` })));
      }
      // One transaction for the whole call: what it changes is saved together, or not at all.
      // Its ops act through the call door: what the spec lets only calls write, they may.
      const { engine } = request;
      const caller = callActor(actor);
      const result = await atomically({ model: engine.model, db: engine.store.db }, (ops) =>
        call.handler({ params, input, ops: bindOps(ops, caller), actor, constants }),
      );
      return serialise(call, model, outputFields, result);
    },
  };
}
