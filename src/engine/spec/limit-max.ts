import type { FieldModel, LimitMaxFieldModel, LimitModel } from './model';
import type { AppSpec, EntitySpec, LimitMaxField, LimitSpec } from './types';
import { humanize, inSentence, toSnakeCase } from './naming';
import { limitMax } from './limit-message';

/** Whether a limit's maximum is a field of the referenced record (`{ field: 'event.capacity' }`). */
export function isLimitMaxField(max: LimitSpec['max'] | undefined): max is LimitMaxField {
  return typeof max === 'object' && max !== null && 'field' in max;
}

/**
 * The entity's limits with their maximum resolved: a number (a constant's value), or, for a
 * field of the referenced record, where ops reads it (the spec check made sure that `<per>.<field>`
 * names an integer field of the entity `per` refers to).
 */
export function buildLimits(spec: AppSpec, entity: EntitySpec, fields: readonly FieldModel[]): Readonly<Record<string, LimitModel>> {
  return Object.fromEntries(
    Object.entries(entity.limits ?? {}).map(([key, limit]) => {
      if (!isLimitMaxField(limit.max)) return [key, { ...limit, maxValue: limitMax(spec.constants ?? {}, limit) }];
      return [key, { ...limit, maxValue: null, maxField: maxFieldModel(spec, limit.max, fields) }];
    }),
  );
}

function maxFieldModel(spec: AppSpec, max: LimitMaxField, fields: readonly FieldModel[]): LimitMaxFieldModel {
  const [reference = '', field = ''] = max.field.split('.');
  const referenceField = fields.find((f) => f.name === reference);
  const entity = referenceField?.referenceTo ?? '';
  const target = spec.entities?.[entity]?.fields[field];
  const label = target?.label ?? humanize(field);
  return {
    entity,
    field,
    column: toSnakeCase(field),
    text: `the ${inSentence(referenceField?.label ?? humanize(reference))}'s ${inSentence(label)}`,
  };
}
