import type { AppSpec, FieldSpec } from './types';

/**
 * The spec with every money field naming its currency: its own, else `purpose.currency`. Decided
 * once when the model is built, so that each reader of a field's spec (the schema, OpenAPI, the
 * describe document, a call's input) finds the same currency without knowing the spec's default.
 */
export function withFieldCurrencies(spec: AppSpec): AppSpec {
  const fallback = spec.purpose?.currency;
  if (fallback === undefined) return spec;
  const fill = <F extends Readonly<Record<string, FieldSpec>>>(fields: F): F =>
    Object.fromEntries(
      Object.entries(fields).map(([name, field]) => [
        name,
        field.type === 'money' && !field.currency ? { ...field, currency: fallback } : field,
      ]),
    ) as F;
  return {
    ...spec,
    ...(spec.entities
      ? {
          entities: Object.fromEntries(
            Object.entries(spec.entities).map(([name, entity]) => [name, { ...entity, fields: fill(entity.fields) }]),
          ),
        }
      : {}),
    ...(spec.users?.fields ? { users: { ...spec.users, fields: fill(spec.users.fields) } } : {}),
    ...(spec.calls
      ? {
          calls: Object.fromEntries(
            Object.entries(spec.calls).map(([name, call]) => [
              name,
              {
                ...call,
                ...(call.input ? { input: fill(call.input) } : {}),
                ...(call.output && typeof call.output !== 'string' ? { output: fill(call.output) } : {}),
              },
            ]),
          ),
        }
      : {}),
  };
}
