import type { RecordData } from '@/engine/ops/types';
import type { AppModel, FieldModel } from '@/engine/spec/model';
import type { CallSpec } from '@/engine/spec/types';
import { readJsonObject, readOptionalJsonObject } from './body';
import { json } from './json';
import { actorOf, parsePathTemplate, type ApiRequest, type Route } from './routes';
import { fieldToWire, recordToWire } from './wire';
import { describeRecordFiles } from './file-wire';
import { isMultipart } from './multipart';
import { readMultipartInput, withStagedFiles } from './multipart-input';
import type { Engine } from '@/engine/engine';

/** The spec's custom calls (point 7) as routes: the engine checks and runs them (src/engine/calls); this door adapts HTTP. */

function isRecordData(value: unknown): value is RecordData {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { id?: unknown }).id === 'number' &&
    typeof (value as { version?: unknown }).version === 'number'
  );
}

/** The handler's result as JSON: a record of the output entity as its Record JSON, declared output fields by their wire types, anything else as it is. */
async function serialise(
  engine: Engine,
  call: CallSpec,
  model: AppModel,
  outputFields: readonly FieldModel[] | null,
  result: unknown,
): Promise<Response> {
  if (call.output === undefined) return new Response(null, { status: 204 });
  if (typeof call.output === 'string') {
    const entity = model.entitiesByName[call.output];
    const record = isRecordData(result)
      ? result
      : isRecordData((result as { record?: unknown } | null)?.record)
        ? (result as { record: RecordData }).record
        : null;
    if (entity && record) return json(recordToWire(entity, record, await describeRecordFiles(engine, entity, [record])));
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
  return {
    method: call.method,
    path: parsePathTemplate(call.path),
    access: 'signedIn',
    originCheck: true,
    run: async (request: ApiRequest) => {
      const { maxBodyBytes } = request.limits;
      const actor = actorOf(request);
      const staged: number[] = [];
      const { value, outputFields } = await withStagedFiles(request.engine, actor, staged, () =>
        request.engine.calls.run(actor, name, {
          params: request.params,
          readBody: async (inputFields) => {
            if (!inputFields) return readOptionalJsonObject(request.request, maxBodyBytes);
            // An input with a file field also takes multipart: its files staged, then named by id.
            if (!isMultipart(request.request) || !inputFields.some((f) => f.files)) return readJsonObject(request.request, maxBodyBytes);
            const multipart = await readMultipartInput(request.engine, actor, request.request, inputFields);
            staged.push(...multipart.staged);
            return multipart.input;
          },
        }),
      );
      return serialise(request.engine, call, model, outputFields, value);
    },
  };
}
